import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { type AgentMessage, MessageStatus, SessionStatus, type StepResponse, type ToolcallResult, type ToolError, ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { ToolcallResultSchema } from "@baton/gen/baton/v1/descriptors";
import { callRisk, encodeToolError, pageActionClass, parseToolCall, toolError, type ToolSpec } from "@baton/sdk/contract";
import { applyTurn } from "../context/fold.js";
import { buildPrompt } from "../context/prompt.js";
import { parseTags, VisibleStream } from "../context/tags.js";
import { chatSpan } from "../log/spans.js";
import { type ModelTurn, ProviderError } from "../providers/types.js";
import type { CallRow } from "../store/records.js";
import type { SessionRow } from "../store/sessions.js";
import { stepResponse } from "../store/stored-response.js";
import type { TraceRow } from "../store/traces.js";
import type { PendingWrites } from "./apply-input.js";
import { CallGate, type Gate } from "./call-gate.js";
import { budgetNote } from "./budget.js";
import { nextCalls } from "./call-order.js";
import { type LoopDeps, leaseUntil, type StepEvent } from "./deps.js";
import { finish, stoppedText } from "./finish.js";
import { agentEntry, callMessage, extensionCallMessage, reasoningMessage, resultEntry, textMessage } from "./messages.js";
import { costOf } from "./pricing.js";
import { FairShare } from "./fair-share.js";
import { promptImages } from "./screenshots.js";
import { TurnSnapshots } from "./snapshot-base.js";

/** The error of a call the gate refused, or of one closed unrun after an earlier refusal in its turn. */
function refusal(tool: string, g: Gate | undefined, earlier: string | undefined): ToolError {
  if (g?.kind === "refuse") return toolError(g.code, g.message, { tool });
  return toolError(ToolErrorCode.DENIED, `This call was not run: an earlier call of the same turn (${earlier}) was refused by the user's remembered decision, and this one came after it. Check the page before deciding what to do next.`, { tool });
}

/** One per process: fairness is about the one event loop every session shares. */
const afterModel = new FairShare(8);

/** Every tool of the catalog, offered to the model on each turn. */
export const allTools: readonly ToolSpec[] = Object.values(toolCatalog.tools);

/** Per-drive state the caller keeps: the stop controller, the event sink and where the client's page is. */
export interface DriveHooks {
  readonly abort: AbortController;
  readonly emit: (e: StepEvent) => void;
  /**
   * The URL of the page the client's next call acts on, as the step's request said
   * (`StepRequest.page_url`): the site of the turn's calls for read-only sites and remembered
   * approvals. Unset when the client did not say.
   */
  readonly pageUrl?: string;
}

/** The results of a step's calls, by toolcall id, as the model reads them. */
export function outputsOf(calls: readonly CallRow[]): Map<string, string> {
  return new Map(calls.filter((c) => c.output !== null).map((c) => [c.toolcallId, c.output as string]));
}

/** What a model turn led to: a provider failure (with its trace, not yet stored), the step's final response, or the next state. */
export type TurnOutcome =
  | { failed: ProviderError; trace: TraceRow }
  | { response: StepResponse }
  | { session: SessionRow; calls: CallRow[] };

/**
 * One model call and the commit of everything it produced, as one batch. When the turn ends
 * the step (tool calls for the client, or a text answer), the same batch sets the final
 * status — unless the stop flag is set by then — and stores the response: a turn costs one
 * write round trip.
 */
export async function modelTurn(
  deps: LoopDeps,
  s: SessionRow,
  prevCalls: CallRow[],
  hooks: DriveHooks,
  messages: AgentMessage[],
  key: string | undefined,
  pending: PendingWrites | undefined,
): Promise<TurnOutcome> {
  const { provider, model } = deps.resolveModel(s.model);
  const outputs = outputsOf(prevCalls);
  const images = await promptImages(deps.store, s.id, prevCalls);
  const prompt = buildPrompt(s.context, s.task, s.playbookInstructions, outputs, deps.fold, images, budgetNote(s, Date.now()));
  const step = s.step + 1;
  hooks.emit({ kind: "thinking", attempt: 1 });
  const t0 = performance.now();
  const span = chatSpan({ sessionId: s.id, model: s.model, step, redact: deps.redact });
  let turn: ModelTurn;
  let visible = new VisibleStream();
  try {
    turn = await provider.generate({
      model,
      system: prompt.system,
      items: prompt.items,
      tools: s.clientTools.length > 0 ? [...allTools, ...s.clientTools] : allTools,
      signal: hooks.abort.signal,
      callIndex: s.step,
      foldRequested: prompt.foldRequested,
      onStream: (d) => {
        if (d.kind === "restart") {
          visible = new VisibleStream();
          hooks.emit({ kind: "thinking", attempt: d.attempt });
        } else if (d.kind === "reasoning") hooks.emit(d);
        else {
          const delta = visible.push(d.delta);
          if (delta) hooks.emit({ kind: "text", delta });
        }
      },
    });
    const rest = visible.end();
    if (rest) hooks.emit({ kind: "text", delta: rest });
  } catch (e) {
    // A provider's (or a proxy's) error text may quote the operator's key: masked before it is
    // logged, stored in the trace, or becomes the session's reason.
    const raw = e instanceof ProviderError ? e : new ProviderError("server", e instanceof Error ? e.message : String(e));
    const err = new ProviderError(raw.kind, deps.redact(raw.message), raw.status, raw.attempts);
    span.failed(err.kind);
    deps.logger.warn({ sessionId: s.id, step, kind: err.kind, status: err.status, attempts: err.attempts }, `model call failed: ${err.message}`);
    const trace = { step, model: s.model, latencyMs: performance.now() - t0, usage: { input: 0, output: 0, cached: 0, cost: 0 }, toolCalls: [], errors: [`${err.kind}: ${err.message}`] };
    return { failed: err, trace };
  }
  const latencyMs = performance.now() - t0;
  const usage = { ...turn.usage, cost: costOf(model, turn.usage, deps.prices) };
  span.ok(usage, usage.cost, turn.calls.length);
  // Model answers that land together (timers, a burst of HTTP responses) are worked on a few
  // per event-loop turn, so commits finishing and requests arriving are served in between.
  await afterModel.pass();
  const tags = parseTags(turn.text);
  const fresh: AgentMessage[] = [];
  const errors: string[] = turn.notes.map(deps.redact);
  let n = 0;
  if (turn.reasoning) fresh.push(reasoningMessage(step, ++n, turn.reasoning));
  if (tags.visible) fresh.push(textMessage(step, ++n, tags.visible));
  const callRows: CallRow[] = [];
  // Results the loop gives calls itself (invalid, refused, closed after a refusal): the model reads them next turn.
  const closedResults: ToolcallResult[] = [];
  const close = (row: Omit<CallRow, "state" | "output">, err: ToolError) => {
    callRows.push({ ...row, state: "done", output: encodeToolError(err) });
    closedResults.push(create(ToolcallResultSchema, { toolcallId: row.toolcallId, outcome: { case: "error", value: err } }));
  };
  const gate = new CallGate(deps, s, hooks.pageUrl);
  // Set once a call is refused by the user's remembered "never": the calls after it were planned on its outcome.
  let refusedEarlier: string | undefined;
  const snapshots = new TurnSnapshots();
  for (const [i, mc] of turn.calls.entries()) {
    const toolcallId = `call_${step}_${i}`;
    const declared = s.clientTools.find((t) => t.name === mc.name);
    if (declared) {
      // The client reads the arguments with its own catalog and answers any mistake as a ToolError.
      const g = refusedEarlier ? undefined : await gate.check(declared.name, declared.risk, undefined);
      const awaiting = g?.kind === "ask";
      const m = extensionCallMessage(step, ++n, toolcallId, declared.name, mc.arguments, awaiting ? MessageStatus.AWAITING_APPROVAL : MessageStatus.COMPLETED, g?.kind === "ask" ? g : undefined);
      fresh.push(m);
      const row = { toolcallId, step, ord: i, name: declared.name, arguments: mc.arguments, side: "client" as const, message: m };
      if (!g || g.kind === "refuse") {
        close(row, refusal(declared.name, g, refusedEarlier));
        if (g?.closeRest) refusedEarlier ??= declared.name;
        continue;
      }
      callRows.push({ ...row, state: awaiting ? "awaiting_approval" : "pending", output: null });
      continue;
    }
    const parsed = parseToolCall(toolCatalog, mc.name, mc.arguments);
    if (!parsed.ok) {
      errors.push(`${mc.name}: ${parsed.error.message.slice(0, 300)}`);
      close({ toolcallId, step, ord: i, name: mc.name, arguments: mc.arguments, side: "invalid", message: undefined }, parsed.error);
      continue;
    }
    const selected = parsed.call.tool;
    snapshots.admit(parsed.call);
    const g =
      selected.value === undefined || refusedEarlier
        ? undefined
        : await gate.check(parsed.tool.name, callRisk(parsed.tool, selected.value), pageActionClass(parsed.tool, selected.value));
    const awaiting = g?.kind === "ask";
    const m = callMessage(step, ++n, toolcallId, parsed.call, awaiting ? MessageStatus.AWAITING_APPROVAL : MessageStatus.COMPLETED, g?.kind === "ask" ? g : undefined);
    fresh.push(m);
    const row = { toolcallId, step, ord: i, name: parsed.tool.name, arguments: mc.arguments, side: parsed.tool.side, message: m };
    if ((selected.value !== undefined && !g) || g?.kind === "refuse") {
      errors.push(`${parsed.tool.name}: refused (${g?.kind === "refuse" ? ToolErrorCode[g.code] : "after a refused call"})`);
      close(row, refusal(parsed.tool.name, g, refusedEarlier));
      if (g?.closeRest) refusedEarlier ??= parsed.tool.name;
      continue;
    }
    callRows.push({ ...row, state: awaiting ? "awaiting_approval" : "pending", output: null });
  }
  const context = applyTurn(
    s.context,
    s.task,
    tags,
    {
      step,
      text: tags.visible,
      calls: callRows.map((c) => {
        const signature = turn.calls[c.ord]?.signature;
        return { id: c.toolcallId, name: c.name, arguments: c.arguments, ...(signature ? { signature } : {}) };
      }),
    },
    outputs,
    deps.fold,
  );
  // Calls run in the model's order: the response carries only the calls that go ahead now;
  // the rest (behind the backend's calls, or behind a call awaiting approval) are handed out
  // when their turn comes. History keeps them all.
  const next = nextCalls(callRows);
  const now = new Set(next.calls.map((c) => c.message?.id));
  const held = new Set(callRows.flatMap((c) => (c.message && !now.has(c.message.id) ? [c.message.id] : [])));
  messages.push(...fresh.filter((m) => !held.has(m.id)));
  const history = [...(pending?.history ?? []), ...fresh.map(agentEntry), ...closedResults.map((r) => resultEntry(step, r))];
  // The step ends here when the client must act, or when the model only talked.
  const final =
    next.actor === "client"
      ? next.calls.some((c) => c.state === "awaiting_approval")
        ? SessionStatus.AWAITING_APPROVAL
        : SessionStatus.AWAITING_TOOLS
      : callRows.length === 0
        ? SessionStatus.IDLE
        : undefined;
  // One commit: the input's writes, the turn's messages, calls, trace, usage and context, and
  // when the step ends here its final status — STOPPED instead if a stop arrived meanwhile —
  // and its stored response.
  const after = await deps.store.commit({
    from: s,
    owner: deps.instanceId,
    callUpdates: pending?.callUpdates,
    newCalls: callRows,
    history,
    trace: { step, model: s.model, latencyMs, usage, toolCalls: callRows.map((c) => c.name), errors },
    set: { step, context, goal: context.goal, status: final ?? SessionStatus.RUNNING },
    lease: final !== undefined ? null : leaseUntil(deps),
    stopGuard: final !== undefined,
    response: final !== undefined && key ? { key, messages } : undefined,
  });
  deps.logger.debug({ sessionId: s.id, step, latencyMs: Math.round(latencyMs), calls: callRows.length }, "model turn");
  if (final !== undefined) {
    if (after.status === SessionStatus.STOPPED) {
      // Stop arrived during the call: nothing goes back to the client.
      return { response: await finish(deps, after, SessionStatus.STOPPED, messages.filter((m) => m.content.case !== "functionCall"), key, { text: stoppedText(after), textStatus: MessageStatus.STOPPED }) };
    }
    // The next step (the client's results) can start from this state without a read.
    deps.cache?.set(s.id, { session: after, calls: callRows });
    return { response: stepResponse(after, messages) };
  }
  return { session: after, calls: callRows };
}
