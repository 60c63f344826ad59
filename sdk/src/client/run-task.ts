import { create, type Message, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type AgentMessage,
  MessageStatus,
  Phase,
  type Session,
  SessionStatus,
  type StepRequest,
  type StepResponse,
  type ToolcallResult,
  type ToolError,
  ToolErrorCode,
} from "@baton/gen/baton/v1/agent_pb";
import { StepRequestSchema, ToolCallSchema, ToolcallResultSchema } from "@baton/gen/baton/v1/descriptors";
import { type ClientToolHandlers, toolRoutes } from "@baton/gen/baton/v1/tools_baton";
import type { ToolCall } from "@baton/gen/baton/v1/tools_pb";
import {
  type AnyToolHandlers,
  type Catalog,
  clientToolsOf,
  dispatchToolCall,
  findTool,
  type ParsedToolCall,
  type ToolRoute,
  toolByCase,
  toolError,
  toolRiskOf,
  type TypingScope,
} from "../contract/index.js";
import { type ApprovalDecision, type ApprovalRequest, approvalResult, decidedElsewhere, type ExtensionCallInfo } from "./approvals.js";
import type { BatonClient } from "./create-client.js";

export type { ApprovalDecision, ApprovalRequest, ExtensionCallInfo };
import type { CallJournal } from "./journal.js";
import { maskText, type Secret, type SecretPage, secretsNote, withSecrets } from "./secrets.js";
import { backoffMs, defaultRetry, isRetryable, type RetryOptions, sleep } from "./retry.js";

/**
 * What a client-side tool handler knows about the call it runs. For a `type_text` whose text
 * holds a secret scoped to origins, `typeOnlyOn` says where the field's frame must be.
 */
export interface RunContext extends TypingScope {
  readonly sessionId: string;
  readonly toolcallId: string;
  /** The session step whose model turn made the call (0 for calls of the client's own, such as opening the start URL). */
  readonly step?: number;
  /** Aborts when the run is stopped. */
  readonly signal: AbortSignal;
}


/**
 * The client's own tools: a protoc-gen-baton catalog, a handler per client-side tool, and how
 * the model's JSON is read and written for them. Build it with `clientTools(catalog, handlers)`.
 */
export interface ExtensionTools {
  readonly catalog: Catalog;
  /** Handlers keyed by camelCase case; the catalog's generated `ClientToolHandlers<RunContext>` fits. */
  readonly handlers: AnyToolHandlers<RunContext>;
  /** Reads a call's JSON arguments into a typed call of `catalog` (`parseToolCall`). */
  readonly parse: (name: string, argumentsJson: string) => ParsedToolCall<Catalog>;
  /** A handler's result as JSON for the model (`encodeToolResult`). */
  readonly encode: (result: Message) => string;
}


/** Progress of a run, for a UI that must never look frozen. */
export type RunEvent =
  | { readonly type: "session"; readonly session: Session; readonly resumed: boolean }
  /**
   * A model call starts. `attempt` > 1 is a retry of the same call: what the earlier attempt
   * streamed (`text_delta`, `reasoning_delta`) is void, and the new attempt streams afresh.
   */
  | { readonly type: "thinking"; readonly attempt?: number }
  /** The model's text for the user, whole, when its step ends (control tags removed). */
  | { readonly type: "text"; readonly text: string }
  /** A piece of the model's text for the user as it streams in (control tags removed). */
  | { readonly type: "text_delta"; readonly delta: string }
  /** The model's reasoning summary, whole, when its step ends. */
  | { readonly type: "reasoning"; readonly text: string }
  /** A piece of the model's reasoning summary as it streams in. */
  | { readonly type: "reasoning_delta"; readonly delta: string }
  | { readonly type: "backend_tool"; readonly tool: string; readonly detail: string }
  | {
      readonly type: "tool_start";
      readonly toolcallId: string;
      readonly tool: ToolRoute;
      /** The typed call; empty (no case) for a client-declared tool, see `extension`. */
      readonly call: ToolCall;
      readonly extension?: ExtensionCallInfo;
    }
  | {
      readonly type: "tool_end";
      readonly toolcallId: string;
      readonly tool: ToolRoute;
      readonly error?: ToolError;
      readonly ms: number;
    }
  | { readonly type: "approval"; readonly toolcallId: string; readonly tool: ToolRoute; readonly decision: ApprovalDecision }
  /** A call awaiting approval was decided elsewhere (the console) while this run asked. */
  | { readonly type: "approval_elsewhere"; readonly toolcallId: string; readonly tool: ToolRoute }
  /** A call the journal already knew: its recorded result, or an INTERRUPTED error, is sent without running it. */
  | { readonly type: "tool_replayed"; readonly toolcallId: string; readonly result: ToolcallResult }
  | { readonly type: "retry"; readonly attempt: number; readonly delayMs: number; readonly error: string }
  /** The session after each step: its usage (tokens, cost) against its budget, for a live spend line. */
  | { readonly type: "spend"; readonly session: Session }
  | { readonly type: "done"; readonly outcome: TaskOutcome };

/** How a run ended. */
export interface TaskOutcome {
  readonly sessionId: string;
  /** "budget_exhausted": the session reached its budget's ceiling (the reason says which). */
  readonly status: "completed" | "stopped" | "failed" | "budget_exhausted";
  /** The final answer (from `done`, or the model's last text when it answered without tools). */
  readonly answer: string;
  /** Why it stopped or failed. */
  readonly reason: string;
  readonly session: Session;
}

/** Options of {@link runTask}. */
export interface RunTaskOptions {
  /** The task; for an existing session, a follow-up message (optional when resuming). */
  readonly task?: string;
  /** Resume this session instead of creating one. */
  readonly sessionId?: string;
  /** Open this URL before the first step (through the navigate handler). */
  readonly startUrl?: string;
  /** "provider:model"; the server default when empty. */
  readonly model?: string;
  /** A playbook name; the best match when empty. */
  readonly playbook?: string;
  /** Step limit; the server default when unset. */
  readonly maxSteps?: number;
  /**
   * A ceiling on what the task may spend (0 or absent in a field: none on it); unset: the
   * user's default budget on the backend, if any. At the ceiling the session ends with status
   * "budget_exhausted", before a model call and never in the middle of a tool call.
   */
  readonly budget?: TaskBudget;
  /** A handler for every client-side tool; the engine supplies all but ask_user. */
  readonly handlers: ClientToolHandlers<RunContext>;
  /** The client's own tools, declared to the model for this session (see examples/custom-tool). */
  readonly extensions?: ExtensionTools;
  readonly onEvent?: (event: RunEvent) => void;
  /**
   * Decides calls awaiting approval. Without it, they are denied ("no one to approve"). While
   * it waits, the session is read every few seconds: a call decided elsewhere (the console)
   * aborts the request's signal, and the run goes on with that decision.
   */
  readonly onApproval?: (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;
  /** Aborting stops the run: no further tool runs or results, and the session's stop flag is set. */
  readonly signal?: AbortSignal;
  /** Retries of transport failures. */
  readonly retry?: RetryOptions;
  /** Use StreamStep for live progress (default); false uses unary Step. */
  readonly streaming?: boolean;
  /**
   * Records every call that may change something before it runs, and its result after, so a
   * later run of this session (after this process or its backend died) sends recorded results
   * again instead of running the calls twice, and answers a call that was cut off mid-run with
   * `TOOL_ERROR_CODE_INTERRUPTED`. Read-only calls are not recorded: they simply run again.
   * Without a journal a resumed run repeats the calls whose results the backend never got.
   */
  readonly journal?: CallJournal;
  /**
   * Secrets the model can type without seeing them (`<secret>name</secret>` in type_text). Only
   * their names (and origins) reach the backend, in the task; every tool result is masked
   * before it leaves this client. See {@link withSecrets}.
   */
  readonly secrets?: readonly Secret[];
  /**
   * How the run reads the agent's page: its URL goes with every step (`page_url`: the backend's
   * read-only sites and remembered approvals key on its site), and the secrets layer checks a
   * secret's origins against it (required when a secret is scoped to origins).
   */
  readonly page?: SecretPage;
}

/** A task's ceiling on tokens (input plus output), cost (US dollars) and wall time (seconds). */
export interface TaskBudget {
  readonly tokens?: number;
  readonly costUsd?: number;
  readonly seconds?: number;
}

const ended = new Map<SessionStatus, TaskOutcome["status"]>([
  [SessionStatus.COMPLETED, "completed"],
  [SessionStatus.STOPPED, "stopped"],
  [SessionStatus.FAILED, "failed"],
  [SessionStatus.BUDGET_EXHAUSTED, "budget_exhausted"],
]);

/** How a session with this status ended, as a {@link TaskOutcome} names it; undefined while it has not. */
export function endedStatus(status: SessionStatus): TaskOutcome["status"] | undefined {
  return ended.get(status);
}

const terminal = new Set(ended.keys());

function outcomeOf(session: Session, lastText: string): TaskOutcome {
  const status = endedStatus(session.status) ?? "completed";
  return { sessionId: session.id, status, answer: session.answer || lastText, reason: session.reason, session };
}

/**
 * The client side of the agent loop: creates (or resumes) a session, streams progress, runs
 * each function call through the typed handler map, asks `onApproval` for calls awaiting
 * approval, posts the results, and repeats until the session completes, stops or fails.
 *
 * Transport failures are retried with backoff; a result is computed once per toolcall id and
 * re-posted unchanged on retry (the backend ignores duplicates), so nothing is applied twice.
 * After a reconnect, the run resynchronises from the session's pending calls. The stop signal
 * is checked before and after every tool call. Never throws for tool failures (they go back to
 * the model); rejects only when the backend refuses the run (auth, bad request) or stays
 * unreachable past the retries.
 */
export async function runTask(client: BatonClient, options: RunTaskOptions): Promise<TaskOutcome> {
  const secrets = options.secrets ?? [];
  // The secrets layer sits between the loop and every handler: nothing the handlers return
  // reaches the backend (or the journal, or onEvent) before it is masked.
  const o: RunTaskOptions =
    secrets.length === 0
      ? options
      : {
          ...options,
          handlers: withSecrets(options.handlers, secrets, options.page),
          ...(options.extensions
            ? { extensions: { ...options.extensions, handlers: withSecrets(options.extensions.handlers as never, secrets, options.page) as never } }
            : {}),
          ...(options.task !== undefined ? { task: maskText(options.task, secrets) } : {}),
        };
  const signal = o.signal ?? new AbortController().signal;
  const emit = (e: RunEvent) => o.onEvent?.(e);
  const retry = o.retry ?? defaultRetry;
  const results = new Map<string, ToolcallResult>();
  let lastText = "";

  async function withRetry<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (e) {
        if (signal.aborted || attempt >= retry.attempts || !isRetryable(e)) throw e;
        const delayMs = backoffMs(attempt, retry);
        emit({ type: "retry", attempt, delayMs, error: ConnectError.from(e).message });
        await sleep(delayMs, signal);
      }
    }
  }

  async function stepOnce(req: StepRequest): Promise<StepResponse> {
    if (o.streaming === false) {
      return client.step(req, { signal });
    }
    let done: StepResponse | undefined;
    for await (const res of client.streamStep({ step: req }, { signal })) {
      const ev = res.event;
      if (ev.case === "done") done = ev.value;
      else if (ev.case === "textDelta") emit({ type: "text_delta", delta: ev.value });
      else if (ev.case === "reasoningDelta") emit({ type: "reasoning_delta", delta: ev.value });
      else if (ev.case === "progress") {
        if (ev.value.phase === Phase.THINKING) emit({ type: "thinking", attempt: ev.value.attempt || 1 });
        else if (ev.value.phase === Phase.TAKING_ACTION) emit({ type: "backend_tool", tool: ev.value.tool, detail: ev.value.detail });
      }
    }
    if (!done) throw new ConnectError("the step stream ended without its final response", Code.Unavailable);
    return done;
  }

  async function stopRun(session: Session, reason: string): Promise<TaskOutcome> {
    let stopped = session;
    try {
      const res = await client.stop({ sessionId: session.id, reason });
      if (res.session) stopped = res.session;
    } catch {
      // The flag is best effort here: the run ends on this side whatever the backend says.
    }
    const outcome: TaskOutcome = { ...outcomeOf(stopped, lastText), status: "stopped", reason };
    await o.journal?.end(session.id);
    emit({ type: "done", outcome });
    return outcome;
  }

  async function runCall(sessionId: string, message: AgentMessage): Promise<ToolcallResult | undefined> {
    const fc = message.content.case === "functionCall" ? message.content.value : undefined;
    if (!fc) return undefined;
    const cached = results.get(fc.toolcallId);
    if (cached) return cached;
    const spec = fc.extension ? o.extensions && findTool(o.extensions.catalog, fc.extension.name) : fc.call?.tool.case ? toolByCase(toolRoutes, fc.call.tool.case) : undefined;
    // Read-only calls are not journaled: running one again is harmless, and it is the
    // commonest call (take_snapshot), so it costs no write.
    const journal = spec?.risk === "read_only" ? undefined : o.journal;
    if (journal) {
      const known = await journal.get(sessionId, fc.toolcallId);
      let result: ToolcallResult | undefined;
      if (known?.state === "done") {
        result = known.result;
      } else if (known?.state === "started") {
        result = create(ToolcallResultSchema, {
          toolcallId: fc.toolcallId,
          outcome: {
            case: "error",
            value: toolError(
              ToolErrorCode.INTERRUPTED,
              "An earlier run of this client started this call and stopped before it reported how it ended, so it may or may not have taken effect. Check the page (take a snapshot) before repeating it.",
              { tool: spec?.name ?? fc.extension?.name ?? "" },
            ),
          },
        });
        await journal.done(sessionId, result);
      }
      if (result) {
        emit({ type: "tool_replayed", toolcallId: fc.toolcallId, result });
        results.set(fc.toolcallId, result);
        return result;
      }
      await journal.started(sessionId, fc.toolcallId);
    }
    const result = await runFresh(sessionId, fc, spec, message.step);
    results.set(fc.toolcallId, result);
    await journal?.done(sessionId, result);
    return result;
  }

  /** Runs a call through its handler (or the extension catalog's); `spec` is its tool, if known. */
  async function runFresh(
    sessionId: string,
    fc: NonNullable<Extract<AgentMessage["content"], { case: "functionCall" }>["value"]>,
    spec: ToolRoute | undefined,
    step: number,
  ): Promise<ToolcallResult> {
    if (fc.extension) return runExtension(sessionId, fc.toolcallId, fc.extension);
    const call = fc.call;
    let result: ToolcallResult;
    if (!call || !spec) {
      result = create(ToolcallResultSchema, {
        toolcallId: fc.toolcallId,
        outcome: { case: "error", value: toolError(ToolErrorCode.INVALID_ARGUMENTS, "The call names no tool this client knows.") },
      });
    } else {
      emit({ type: "tool_start", toolcallId: fc.toolcallId, tool: spec, call });
      const started = Date.now();
      const ctx: RunContext = { sessionId, toolcallId: fc.toolcallId, signal, step };
      const out = await dispatchToolCall(toolRoutes, call, o.handlers as unknown as AnyToolHandlers<RunContext>, ctx);
      result = create(ToolcallResultSchema, {
        toolcallId: fc.toolcallId,
        outcome: out.ok ? { case: "result", value: out.result } : { case: "error", value: out.error },
      });
      emit({ type: "tool_end", toolcallId: fc.toolcallId, tool: spec, ms: Date.now() - started, ...(out.ok ? {} : { error: out.error }) });
    }
    return result;
  }

  /** Runs a call to a client-declared tool through the extension catalog and its handlers. */
  async function runExtension(sessionId: string, toolcallId: string, ext: ExtensionCallInfo): Promise<ToolcallResult> {
    const answer = (outcome: MessageInitShape<typeof ToolcallResultSchema>["outcome"]) =>
      create(ToolcallResultSchema, { toolcallId, outcome });
    if (!o.extensions) {
      return answer({ case: "error", value: toolError(ToolErrorCode.UNKNOWN_TOOL, `This client has no tool "${ext.name}".`) });
    }
    const parsed = o.extensions.parse(ext.name, ext.argumentsJson);
    if (!parsed.ok) return answer({ case: "error", value: parsed.error });
    emit({ type: "tool_start", toolcallId, tool: parsed.tool, call: create(ToolCallSchema), extension: ext });
    const started = Date.now();
    const out = await dispatchToolCall(o.extensions.catalog, parsed.call, o.extensions.handlers, { sessionId, toolcallId, signal });
    emit({ type: "tool_end", toolcallId, tool: parsed.tool, ms: Date.now() - started, ...(out.ok ? {} : { error: out.error }) });
    return out.ok
      ? answer({ case: "extensionResult", value: { resultJson: o.extensions.encode(out.result) } })
      : answer({ case: "error", value: out.error });
  }

  /** The user's answer to a call awaiting approval; undefined when it was decided elsewhere meanwhile. */
  async function decide(sessionId: string, message: AgentMessage): Promise<ToolcallResult | undefined> {
    const fc = message.content.case === "functionCall" ? message.content.value : undefined;
    if (!fc) return undefined;
    const ext = fc.extension;
    const spec = ext
      ? o.extensions && findTool(o.extensions.catalog, ext.name)
      : fc.call?.tool.case
        ? toolByCase(toolRoutes, fc.call.tool.case)
        : undefined;
    if (!spec) {
      return create(ToolcallResultSchema, {
        toolcallId: fc.toolcallId,
        outcome: { case: "approval", value: { approved: false, reason: "This client does not have that tool." } },
      });
    }
    const call = fc.call ?? create(ToolCallSchema);
    if (!o.onApproval) {
      const decision: ApprovalDecision = { approved: false, reason: "No one is available to approve this action." };
      emit({ type: "approval", toolcallId: fc.toolcallId, tool: spec, decision });
      return approvalResult(fc.toolcallId, decision);
    }
    // The question closes when the call is decided elsewhere (the console) or the run stops.
    const asking = new AbortController();
    const onStop = () => asking.abort(signal.reason);
    signal.addEventListener("abort", onStop, { once: true });
    const elsewhere = decidedElsewhere(client, sessionId, fc.toolcallId, asking.signal).then(
      () => "elsewhere" as const,
      () => "elsewhere" as const,
    );
    try {
      const request: ApprovalRequest = { toolcallId: fc.toolcallId, tool: spec, call, ...(ext ? { extension: ext } : {}), site: fc.site, risk: toolRiskOf(fc.risk), signal: asking.signal };
      const answered = Promise.resolve(o.onApproval(request));
      const first = await Promise.race([answered, elsewhere]);
      if (first === "elsewhere") {
        if (signal.aborted) return undefined;
        answered.catch(() => undefined);
        emit({ type: "approval_elsewhere", toolcallId: fc.toolcallId, tool: spec });
        return undefined;
      }
      emit({ type: "approval", toolcallId: fc.toolcallId, tool: spec, decision: first });
      return approvalResult(fc.toolcallId, first);
    } finally {
      signal.removeEventListener("abort", onStop);
      asking.abort();
    }
  }

  // Create or resume.
  let session: Session;
  let input: MessageInitShape<typeof StepRequestSchema>["input"] = { case: undefined };
  if (o.sessionId) {
    const got = await withRetry(() => client.getSession({ sessionId: o.sessionId ?? "" }, { signal }));
    if (!got.session) throw new ConnectError(`session ${o.sessionId} not found`, Code.NotFound);
    session = got.session;
    emit({ type: "session", session, resumed: true });
    const idle = session.status === SessionStatus.IDLE || terminal.has(session.status);
    if (o.task && idle) input = { case: "userMessage", value: { text: o.task } };
    else if (terminal.has(session.status)) {
      await o.journal?.end(session.id);
      return outcomeOf(session, lastText);
    }
  } else {
    if (!o.task?.trim()) throw new Error("runTask: give a task, or a sessionId to resume");
    const key = globalThis.crypto.randomUUID();
    const created = await withRetry(() =>
      client.createSession(
        {
          task: o.task,
          model: o.model ?? "",
          playbook: o.playbook ?? "",
          maxSteps: o.maxSteps ?? 0,
          idempotencyKey: key,
          clientTools: o.extensions ? clientToolsOf(o.extensions.catalog) : [],
          ...(o.budget ? { budget: { tokens: BigInt(o.budget.tokens ?? 0), costUsd: o.budget.costUsd ?? 0, seconds: o.budget.seconds ?? 0 } } : {}),
        },
        { signal },
      ),
    );
    if (!created.session) throw new ConnectError("the backend created no session", Code.Internal);
    session = created.session;
    emit({ type: "session", session, resumed: false });
    let text = o.task;
    const note = secretsNote(secrets);
    if (note) text += `\n\n${note}`;
    if (o.startUrl) {
      const nav = await dispatchToolCall(
        toolRoutes,
        create(toolRoutes.call, { tool: { case: "navigate", value: { url: o.startUrl } } }),
        o.handlers as unknown as AnyToolHandlers<RunContext>,
        { sessionId: session.id, toolcallId: "start", signal, step: 0 },
      );
      text += nav.ok
        ? `\n\nThe browser is open at ${o.startUrl}.`
        : `\n\nOpening ${o.startUrl} failed: ${nav.error.message}`;
    }
    input = { case: "userMessage", value: { text } };
  }

  for (;;) {
    if (signal.aborted) return stopRun(session, "stopped by the user");
    let res: StepResponse;
    try {
      const pageUrl = o.page ? await o.page.url().catch(() => "") : "";
      const req = create(StepRequestSchema, { sessionId: session.id, input, pageUrl: pageUrl.slice(0, 4096) });
      res = await withRetry(() => stepOnce(req));
    } catch (e) {
      if (signal.aborted) return stopRun(session, "stopped by the user");
      const err = ConnectError.from(e);
      // A retried user message the backend already took: continue from the session's state.
      if (err.code === Code.FailedPrecondition && input.case === "userMessage") {
        input = { case: undefined };
        continue;
      }
      throw err;
    }
    if (res.session) {
      session = res.session;
      emit({ type: "spend", session });
    }
    for (const m of res.messages) {
      if (m.content.case === "text") {
        lastText = m.content.value.text;
        emit({ type: "text", text: lastText });
      } else if (m.content.case === "reasoning") {
        emit({ type: "reasoning", text: m.content.value.text });
      }
    }
    if (terminal.has(session.status) || session.status === SessionStatus.IDLE) {
      const outcome = outcomeOf(session, lastText);
      // Call ids are unique within a session, so an idle session's entries could stay; an
      // ended one's are no longer needed.
      if (terminal.has(session.status)) await o.journal?.end(session.id);
      emit({ type: "done", outcome });
      return outcome;
    }
    let calls = res.messages.filter((m) => m.content.case === "functionCall");
    if (calls.length === 0) {
      // A response that lost its calls (a duplicate post, a reconnect): ask for the open ones.
      const got = await withRetry(() => client.getSession({ sessionId: session.id }, { signal }));
      calls = got.pendingCalls;
      if (calls.length === 0) {
        await sleep(backoffMs(1, retry) + 100, signal).catch(() => undefined);
        input = { case: undefined };
        continue;
      }
    }
    const answers: ToolcallResult[] = [];
    for (const m of calls) {
      if (signal.aborted) return stopRun(session, "stopped by the user");
      const answer = m.status === MessageStatus.AWAITING_APPROVAL ? await decide(session.id, m) : await runCall(session.id, m);
      if (signal.aborted) return stopRun(session, "stopped by the user");
      if (answer) answers.push(answer);
    }
    // Nothing to send when the only call was decided elsewhere: ask where the session stands.
    input = answers.length > 0 ? { case: "toolResults", value: { results: answers } } : { case: undefined };
  }
}
