import { clientMessages } from "./call-order.js";
import { readClientTools } from "./client-tools.js";
import { create } from "@bufbuild/protobuf";
import { fieldLimits } from "@baton/gen/baton/v1/agent_limits";
import { Code, ConnectError } from "@connectrpc/connect";
import { type Approval, type CreateSessionRequest, type GetScreenshotResponse, type GetSessionResponse, type LogEntry, type Playbook, type Session, SessionStatus, type StepRequest, type StepResponse, type Verdict } from "@baton/gen/baton/v1/agent_pb";
import { GetPlaybookRequestSchema, GetScreenshotResponseSchema, GetSessionResponseSchema, StepRequestSchema } from "@baton/gen/baton/v1/descriptors";
import { emptyContext } from "../context/state.js";
import { defaultFoldOptions } from "../context/fold.js";
import { type LogSink, silentSink } from "../log/log-sink.js";
import { redactAttributes, redactText } from "../log/redact.js";
import { traceAgentStep } from "../log/spans.js";
import { newId } from "../store/ids.js";
import { SessionConflict } from "../store/session-store.js";
import { type SessionRow, sessionMessage } from "../store/sessions.js";
import { rememberScreenshots, takeScreenshots } from "./screenshots.js";
import { applyInput, type Applied } from "./apply-input.js";
import { riskPolicy } from "./approval.js";
import { budgetOf } from "./budget.js";
import type { LoopDeps, StepEvent } from "./deps.js";
import { type DriveStart, drive } from "./drive.js";
import { bestPlaybook } from "./playbook-match.js";
import { defaultPrices, priceOf } from "./pricing.js";
import { SessionCache } from "./session-cache.js";
import { SessionEvents } from "./session-events.js";
import { storeTrust } from "./trust.js";

/** "name" or "name@version" in CreateSessionRequest.playbook; names as savePlaybook allows them. */
const playbookRef = /^([\w.-]{1,100})(?:@(\d{1,10}))?$/;
/** The largest playbook version, as GetPlaybookRequest.version's proto limit says. */
const maxVersion = fieldLimits[GetPlaybookRequestSchema.typeName]?.[GetPlaybookRequestSchema.field.version.name]?.maximum ?? 2_147_483_647;

/** Options of {@link Agent}; everything but `store` and `resolveModel` has a default. */
export type AgentOptions = Pick<LoopDeps, "store" | "resolveModel"> &
  Partial<Omit<LoopDeps, "store" | "resolveModel">> & {
    /** "provider:model" for sessions that name none. */
    readonly defaultModel?: string;
    /** Step limit for sessions that set none. */
    readonly defaultMaxSteps?: number;
  };

/** Per-call options of {@link Agent.step}. */
export interface StepHooks {
  /** The request's signal: a client that goes away does not stop the session (only Stop does). */
  readonly signal?: AbortSignal;
  /** Progress events, for StreamStep. */
  readonly onEvent?: (e: StepEvent) => void;
}

/**
 * The agent service without the transport: sessions, the durable step loop, stop, history,
 * client logs and playbooks, all scoped to the calling user. Protocol errors are thrown as
 * ConnectError; tool and model failures become data in the session.
 */
export class Agent {
  readonly deps: LoopDeps;
  private readonly defaultModel: string;
  private readonly defaultMaxSteps: number;
  /** Progress and changes of the sessions this process steps, for watchers (the console). */
  readonly events = new SessionEvents();
  /** Steps running in this process, by session: joined by retries, aborted by Stop. */
  private readonly running = new Map<string, { key: string | undefined; abort: AbortController; done: Promise<StepResponse> }>();

  constructor(o: AgentOptions) {
    const logger: LogSink = o.logger ?? silentSink;
    this.deps = {
      store: o.store,
      resolveModel: o.resolveModel,
      approval: o.approval ?? riskPolicy(),
      trust: o.trust ?? storeTrust(o.store.db),
      fold: o.fold ?? defaultFoldOptions,
      logger,
      leaseMs: o.leaseMs ?? 60_000,
      heartbeatMs: o.heartbeatMs ?? 5_000,
      prices: o.prices ?? defaultPrices,
      instanceId: o.instanceId ?? newId("agent"),
      cache: o.cache ?? new SessionCache(),
      redact: o.redact ?? redactText,
      maxLogsPerSession: o.maxLogsPerSession ?? 10_000,
      quota: o.quota,
    };
    this.defaultModel = o.defaultModel ?? "script:default";
    this.defaultMaxSteps = o.defaultMaxSteps ?? 50;
  }

  /** Session owners, cached: a session never changes hands, so the hot path skips the lookup. */
  private readonly owners = new Map<string, string>();

  /** Checks ownership like {@link owned}, from the cache when possible; returns the id. */
  private async ownedId(userId: string, sessionId: string): Promise<string> {
    const owner = this.owners.get(sessionId);
    if (owner === undefined) {
      const s = await this.owned(userId, sessionId);
      if (this.owners.size > 100_000) this.owners.clear();
      this.owners.set(s.id, s.userId);
      return s.id;
    }
    if (owner !== userId) throw new ConnectError(`session ${sessionId} belongs to another user`, Code.PermissionDenied);
    return sessionId;
  }

  /** Loads a session the user owns: NotFound when it does not exist, PermissionDenied when it is someone else's. */
  private async owned(userId: string, sessionId: string): Promise<SessionRow> {
    if (!sessionId) throw new ConnectError("session_id is required", Code.InvalidArgument);
    const s = await this.deps.store.readSession(sessionId);
    if (!s) throw new ConnectError(`session ${sessionId} not found`, Code.NotFound);
    if (s.userId !== userId) throw new ConnectError(`session ${sessionId} belongs to another user`, Code.PermissionDenied);
    return s;
  }

  /** Creates a session (idempotently, by key) with its model, step limit and playbook. */
  async createSession(userId: string, req: CreateSessionRequest): Promise<Session> {
    const model = req.model || this.defaultModel;
    let priced: boolean;
    try {
      const resolved = this.deps.resolveModel(model);
      await resolved.provider.check?.(resolved.model);
      priced = priceOf(resolved.model, this.deps.prices) !== undefined;
    } catch (e) {
      throw new ConnectError(`model "${model}" cannot be used: ${e instanceof Error ? e.message : String(e)}`, Code.InvalidArgument);
    }
    let playbook: Playbook | undefined;
    if (req.playbook) {
      const ref = playbookRef.exec(req.playbook);
      if (!ref) throw new ConnectError(`playbook "${req.playbook}" is not "name" or "name@version" (a version from 1 to ${maxVersion})`, Code.InvalidArgument);
      const version = ref[2] ? Number(ref[2]) : 0;
      if (version > maxVersion) throw new ConnectError(`playbook "${req.playbook}": version ${ref[2]} is over ${maxVersion}`, Code.InvalidArgument);
      playbook = await this.deps.store.playbook(userId, ref[1] ?? "", version);
      if (!playbook) throw new ConnectError(`playbook "${req.playbook}" not found`, Code.NotFound);
    } else if (req.task) {
      playbook = bestPlaybook(await this.deps.store.playbooks(userId), req.task);
    }
    // Checked before anything is stored: a bad declaration is InvalidArgument, nothing created.
    const clientTools = readClientTools(req.clientTools);
    const id = newId("ses");
    const maxSteps = req.maxSteps || this.defaultMaxSteps;
    const budget = req.budget ? budgetOf(req.budget) : await this.deps.store.defaultBudget(userId);
    if (budget.costUsd > 0 && !priced) {
      // Its calls would cost 0 here, so a cost ceiling would never end the session: refused
      // rather than run with a ceiling that only looks held.
      const whose = req.budget ? "budget.cost_usd" : "your default budget's cost ceiling";
      throw new ConnectError(`${whose} cannot hold model "${model}": this backend has no price for it, so its cost is not counted; set a token or time ceiling instead, or give the backend the model's price`, Code.InvalidArgument);
    }
    const row = await this.deps.store.createSession({
      id,
      userId,
      idempotencyKey: req.idempotencyKey || undefined,
      task: req.task,
      model,
      maxSteps,
      playbook: playbook ? `${playbook.name}@${playbook.version}` : "",
      playbookInstructions: playbook?.instructions ?? "",
      context: emptyContext(req.task),
      clientTools,
      budget,
    });
    if (row.id !== id && (row.task !== req.task || row.model !== model || row.maxSteps !== maxSteps)) {
      // A retry gets the session it created; a key reused for another session is refused.
      throw new ConnectError(`idempotency_key "${req.idempotencyKey}" was already used for a different session (${row.id}); use a new key`, Code.AlreadyExists);
    }
    this.deps.logger.info({ sessionId: row.id, userId, model, playbook: row.playbook }, "session created");
    return sessionMessage(row);
  }

  /**
   * Applies the client's input and runs the loop until the session needs the client again.
   * Idempotent: a retried request (same tool results, or same idempotency key) returns the
   * stored response; one arriving while the original still runs here waits for it.
   */
  async step(userId: string, req: StepRequest, hooks: StepHooks = {}): Promise<StepResponse> {
    const s0 = { id: await this.ownedId(userId, req.sessionId) };
    const key = inputKey(req);
    let inflight = this.running.get(s0.id);
    if (inflight && key !== undefined && inflight.key === key) return inflight.done;
    if (inflight && key) {
      const stored = (await this.deps.store.readStep(s0.id, key))?.stored;
      if (stored) return stored;
      // Re-read after the await: the map is the in-process lock, set synchronously below.
      inflight = this.running.get(s0.id);
      if (inflight && inflight.key === key) return inflight.done;
    }
    if (inflight) throw new ConnectError("a step is already running for this session; retry when it returns", Code.Aborted);
    const abort = new AbortController();
    const onEvent = hooks.onEvent;
    const emit = (e: StepEvent) => {
      onEvent?.(e);
      this.events.publish(s0.id, e);
    };
    const done = traceAgentStep(
      { sessionId: s0.id, input: inputName[req.input.case ?? "resume"], redact: this.deps.redact },
      () => this.process(s0.id, req, key, abort, emit),
      (r) => ({ status: SessionStatus[r.session?.status ?? SessionStatus.UNSPECIFIED]?.toLowerCase() ?? "unspecified", step: r.session?.step ?? 0 }),
    );
    this.running.set(s0.id, { key, abort, done });
    try {
      return await done;
    } catch (e) {
      // Whatever failed, the next step of this session reads the store.
      this.deps.cache?.delete(s0.id);
      if (e instanceof SessionConflict) throw new ConnectError("the session changed concurrently (another step is running); retry", Code.Aborted);
      throw e;
    } finally {
      if (this.running.get(s0.id)?.done === done) this.running.delete(s0.id);
      this.events.publish(s0.id, { kind: "changed" });
    }
  }

  private async process(
    sessionId: string,
    req: StepRequest,
    key: string | undefined,
    abort: AbortController,
    emit: (e: StepEvent) => void,
  ): Promise<StepResponse> {
    // Screenshots are stored apart, once, before the input they came with is applied (and so
    // before it is acknowledged); the input keeps "screenshot:<id>" references.
    const { request, shots } = takeScreenshots(req);
    const stored = shots.length > 0 ? await this.deps.store.saveScreenshots(sessionId, shots) : [];
    let applied: Applied;
    try {
      applied = await applyInput(this.deps, sessionId, request, key);
    } catch (e) {
      // A refused input leaves nothing behind (what an earlier, accepted input stored stays).
      await this.deps.store.dropScreenshots(sessionId, stored).catch(() => undefined);
      throw e;
    }
    rememberScreenshots(sessionId, shots);
    if (applied.kind === "response") return applied.response;
    return this.runDrive(applied, key, abort, emit, req.pageUrl);
  }

  private async runDrive(start: DriveStart, key: string | undefined, abort: AbortController, emit: (e: StepEvent) => void, pageUrl: string): Promise<StepResponse> {
    const sessionId = start.session.id;
    this.beats.set(sessionId, { since: Date.now(), abort });
    if (!this.beatTimer) {
      this.beatTimer = setInterval(() => this.beat(), Math.max(1, this.deps.heartbeatMs / 2));
      // In Node, the timer alone does not keep the process alive (a browser's timers have no such notion).
      (this.beatTimer as { unref?: () => void }).unref?.();
    }
    try {
      return await drive(this.deps, start, { abort, emit, ...(pageUrl ? { pageUrl } : {}) }, key);
    } catch (e) {
      // A lost race is the other request's win, not a fault.
      if (!(e instanceof SessionConflict)) this.deps.logger.error({ sessionId, err: e }, "step failed");
      await this.deps.store.releaseLease(sessionId, this.deps.instanceId).catch(() => undefined);
      throw e;
    } finally {
      this.beats.delete(sessionId);
      if (this.beats.size === 0 && this.beatTimer) {
        clearInterval(this.beatTimer);
        this.beatTimer = undefined;
      }
    }
  }

  /** Steps running in this process, for the heartbeat: when each was last renewed, and its abort. */
  private readonly beats = new Map<string, { since: number; abort: AbortController }>();
  private beatTimer: ReturnType<typeof setInterval> | undefined;

  /**
   * One timer for all running steps (not one per step: at a thousand steps a second, each
   * timer created and cleared cost more than the loop's own bookkeeping). A step that has run
   * a heartbeat period renews its lease and picks up a stop set through another replica.
   */
  private beat(): void {
    const now = Date.now();
    for (const [sessionId, b] of this.beats) {
      if (now - b.since < this.deps.heartbeatMs) continue;
      b.since = now;
      this.deps.store
        .renewLease(sessionId, this.deps.instanceId, new Date(now + this.deps.leaseMs))
        .then((r) => {
          if (r?.stopRequested) b.abort.abort();
        })
        .catch(() => undefined);
    }
  }

  /** Sets the stop flag in the store and aborts a model call running in this process. */
  async stop(userId: string, sessionId: string, reason: string): Promise<Session> {
    const s = await this.owned(userId, sessionId);
    this.deps.cache?.delete(s.id);
    await this.deps.store.requestStop(s.id, reason || "stopped by the user");
    // Again after the write: a turn that committed meanwhile may have cached the unstopped state.
    this.deps.cache?.delete(s.id);
    this.running.get(s.id)?.abort.abort();
    const idle = !this.running.has(s.id) && [SessionStatus.IDLE, SessionStatus.AWAITING_TOOLS, SessionStatus.AWAITING_APPROVAL].includes(s.status);
    if (idle) {
      // Nothing runs for it: settle the status now so every client sees STOPPED.
      await this.deps.store.settleStop(s.id, SessionStatus.STOPPED);
    }
    this.deps.logger.info({ sessionId: s.id }, "stop requested");
    this.events.publish(s.id, { kind: "changed" });
    const after = await this.deps.store.readSession(s.id);
    return sessionMessage(after ?? s);
  }

  /**
   * Decides a call awaiting approval from anywhere the user is signed in (the console): the
   * same input as an Approval result in Step, applied the same way (a remembered decision
   * included). NotFound for an unknown call; FailedPrecondition when it is not awaiting
   * approval (decided already, or never held).
   */
  async decideApproval(userId: string, sessionId: string, toolcallId: string, approval: Approval | undefined): Promise<Session> {
    const id = await this.ownedId(userId, sessionId);
    if (!approval) throw new ConnectError("approval is required", Code.InvalidArgument);
    const call = (await this.deps.store.callsById(id, [toolcallId])).get(toolcallId);
    if (!call) throw new ConnectError(`session ${id} has no call ${toolcallId}`, Code.NotFound);
    if (call.state !== "awaiting_approval") throw new ConnectError(`call ${toolcallId} is not awaiting approval (it was decided already)`, Code.FailedPrecondition);
    const input = { case: "toolResults" as const, value: { results: [{ toolcallId, outcome: { case: "approval" as const, value: approval } }] } };
    const res = await this.step(userId, create(StepRequestSchema, { sessionId: id, input }));
    this.deps.logger.info({ sessionId: id, toolcallId, approved: approval.approved, scope: approval.scope }, "approval decided");
    return res.session ?? sessionMessage((await this.deps.store.readSession(id)) as SessionRow);
  }

  /**
   * Records the client's verdict on a finished session: what its own checks found after the
   * agent finished. A session still running has no verdict yet (FailedPrecondition).
   */
  async reportVerdict(userId: string, sessionId: string, verdict: Verdict | undefined): Promise<Session> {
    if (!verdict) throw new ConnectError("verdict is required", Code.InvalidArgument);
    const s = await this.owned(userId, sessionId);
    if (this.running.has(s.id) || ![SessionStatus.COMPLETED, SessionStatus.FAILED, SessionStatus.STOPPED, SessionStatus.BUDGET_EXHAUSTED].includes(s.status)) {
      throw new ConnectError(`session ${s.id} has not finished: report a verdict once it is completed, failed, stopped or ended at its budget`, Code.FailedPrecondition);
    }
    this.deps.cache?.delete(s.id);
    // Client text, stored and shown as a log message is: the operator's secrets masked.
    await this.deps.store.setVerdict(s.id, { passed: verdict.passed, reason: this.deps.redact(verdict.reason) });
    this.events.publish(s.id, { kind: "changed" });
    const after = await this.deps.store.readSession(s.id);
    return sessionMessage(after ?? s);
  }

  /** True while a step of the session runs in this process (its status may not say so yet). */
  isRunning(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  /** The session, its history, pending calls, traces and client logs. */
  async getSession(userId: string, sessionId: string): Promise<GetSessionResponse> {
    const s = await this.owned(userId, sessionId);
    const { store } = this.deps;
    const [history, calls, traces, logs] = await Promise.all([store.history(s.id), store.callsOfStep(s.id, s.step), store.traces(s.id), store.logs(s.id)]);
    const pending = clientMessages(calls);
    const session = sessionMessage(s);
    // A step running in this process may not have written its status yet (its input commits
    // with the model turn); say what is actually happening.
    if (this.running.has(s.id)) session.status = SessionStatus.RUNNING;
    return create(GetSessionResponseSchema, { session, history, pendingCalls: pending, traces, logs });
  }

  /** One of the session's stored screenshots, with its data. */
  async getScreenshot(userId: string, sessionId: string, screenshotId: string): Promise<GetScreenshotResponse> {
    const s = await this.owned(userId, sessionId);
    if (!screenshotId) throw new ConnectError("screenshot_id is required", Code.InvalidArgument);
    const shot = await this.deps.store.screenshot(s.id, screenshotId.replace(/^screenshot:/, ""));
    if (!shot) throw new ConnectError(`screenshot ${screenshotId} not found in session ${s.id}`, Code.NotFound);
    return create(GetScreenshotResponseSchema, {
      image: { mimeType: shot.mimeType, data: shot.data, width: shot.width, height: shot.height, url: `screenshot:${shot.id}` },
      step: shot.step,
      toolcallId: shot.toolcallId,
    });
  }

  /** Stores client log entries under the session, redacted, up to the session's cap. */
  async reportLog(userId: string, sessionId: string, entries: readonly LogEntry[]): Promise<number> {
    const s = await this.owned(userId, sessionId);
    const kept = await this.deps.store.countLogs(s.id);
    if (kept + entries.length > this.deps.maxLogsPerSession) {
      throw new ConnectError(
        `session ${s.id} keeps at most ${this.deps.maxLogsPerSession} log entries (${kept} stored, ${entries.length} sent)`,
        Code.ResourceExhausted,
      );
    }
    const { redact } = this.deps;
    const clean = entries.map((e) => ({ ...e, message: redact(e.message), tool: redact(e.tool), toolcallId: redact(e.toolcallId), attributes: redactAttributes(e.attributes, redact) }));
    const stored = await this.deps.store.addLogs(s.id, userId, clean);
    this.events.publish(s.id, { kind: "changed" });
    return stored;
  }

  /** Saves a playbook: version 1 when `create`, the next version otherwise. */
  async savePlaybook(userId: string, p: Playbook | undefined, isNew: boolean): Promise<Playbook> {
    if (!p?.name || !/^[\w.-]{1,100}$/.test(p.name)) {
      throw new ConnectError("playbook.name is required: 1-100 letters, digits, '.', '_' or '-'", Code.InvalidArgument);
    }
    if (!p.instructions.trim()) throw new ConnectError("playbook.instructions is required", Code.InvalidArgument);
    const saved = await this.deps.store.savePlaybook(userId, p, isNew);
    if (!saved) {
      throw isNew
        ? new ConnectError(`playbook "${p.name}" already exists; use UpdatePlaybook`, Code.AlreadyExists)
        : new ConnectError(`playbook "${p.name}" not found; use CreatePlaybook`, Code.NotFound);
    }
    return saved;
  }

  /** One version of a playbook. */
  async getPlaybook(userId: string, name: string, version: number): Promise<Playbook> {
    const p = await this.deps.store.playbook(userId, name, version);
    if (!p) throw new ConnectError(`playbook "${name}"${version ? ` version ${version}` : ""} not found`, Code.NotFound);
    return p;
  }

  /** The latest version of each playbook. */
  listPlaybooks(userId: string): Promise<Playbook[]> {
    return this.deps.store.playbooks(userId);
  }
}

/** A step request's input, as its span names it. */
const inputName: Readonly<Record<NonNullable<StepRequest["input"]["case"]> | "resume", string>> = { userMessage: "user_message", toolResults: "tool_results", resume: "resume" };

/** A 53-bit hash of a text (cyrb53), as hex: tells two messages under one idempotency key apart. */
function textHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}

/** The idempotency key of a step's input, or undefined when the input has none. */
export function inputKey(req: StepRequest): string | undefined {
  switch (req.input.case) {
    case "toolResults": {
      const parts = req.input.value.results.map((r) => `${r.outcome.case === "approval" ? "a" : "r"}:${r.toolcallId}`);
      return parts.length ? `res:${[...new Set(parts)].sort().join(",")}` : undefined;
    }
    case "userMessage":
      // The text's hash is part of the key: a key reused for another message is then told
      // apart (and refused) rather than answered with the first message's result.
      return req.idempotencyKey ? `msg:${req.idempotencyKey}#${textHash(req.input.value.text)}` : undefined;
    default:
      return undefined;
  }
}


