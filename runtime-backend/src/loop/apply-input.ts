import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type AgentMessage,
  type Approval,
  ApprovalScope,
  type HistoryEntry,
  MessageStatus,
  SessionStatus,
  type StepRequest,
  type StepResponse,
  type ToolcallResult,
  ToolErrorCode,
} from "@baton/gen/baton/v1/agent_pb";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { AgentMessageSchema } from "@baton/gen/baton/v1/descriptors";
import { encodeToolError, encodeToolResult, toolError, toolRiskOf } from "@baton/sdk/contract";
import type { RememberedDecision } from "@baton/sdk/policy";
import { applyUserMessage } from "../context/fold.js";
import { clientToolSpan, type ToolOutcome } from "../log/spans.js";
import type { CallRow } from "../store/records.js";
import type { SessionRow } from "../store/sessions.js";
import type { CallUpdate } from "../store/session-store.js";
import { stepResponse } from "../store/stored-response.js";
import { clientMessages, nextCalls, openAfter } from "./call-order.js";
import { type LoopDeps, leaseUntil } from "./deps.js";
import { closedUnrun, resultEntry, userEntry } from "./messages.js";
import { futureExpiry } from "./trust-rpc.js";

/** A client-declared tool's result reaches the model as the client encoded it, within this cap. */
const maxExtensionResultChars = 100_000;

/**
 * Writes of an input that the loop commits together with the model turn it triggers. Tool
 * results are acknowledged only by the response, so persisting them atomically with the next
 * turn keeps "persisted before acknowledged" and saves a round trip; a crash in between loses
 * nothing the client was told about, and its retry applies them then.
 */
export interface PendingWrites {
  /** The calls the input answered, approved, denied or closed. */
  readonly callUpdates: readonly CallUpdate[];
  /** History entries to append before the turn's own. */
  readonly history: readonly HistoryEntry[];
}

/** The outcome of applying a step's input: an answer right away, or "run the model" from this state. */
export type Applied =
  | { readonly kind: "response"; readonly response: StepResponse }
  | { readonly kind: "drive"; readonly session: SessionRow; readonly calls: CallRow[]; readonly pending?: PendingWrites };

const acceptsUserMessage = new Set([
  SessionStatus.IDLE,
  SessionStatus.COMPLETED,
  SessionStatus.STOPPED,
  SessionStatus.FAILED,
  SessionStatus.BUDGET_EXHAUSTED,
  SessionStatus.UNSPECIFIED,
]);

async function userMessage(deps: LoopDeps, s: SessionRow, calls: CallRow[], text: string, key = ""): Promise<Applied> {
  const trimmed = text.trim();
  if (!trimmed) throw new ConnectError("user_message.text is empty", Code.InvalidArgument);
  if (!acceptsUserMessage.has(s.status)) {
    throw new ConnectError(
      `session is ${SessionStatus[s.status]}: send the pending tool results or approvals first, or Stop it`,
      Code.FailedPrecondition,
    );
  }
  // Calls a stop left unexecuted are closed, so the model reads them as not run and the
  // loop does not hand stale calls to the client.
  const callUpdates: CallUpdate[] = [];
  const history: HistoryEntry[] = [];
  calls = calls.map((c) => {
    if (c.state === "done") return c;
    const { update, entry } = closedUnrun(c, ToolErrorCode.STOPPED, "This call was not run: the session was stopped before it, then the user sent a new message.");
    callUpdates.push(update);
    history.push(entry);
    return { ...c, state: "done", output: update.output };
  });
  const outputs = new Map(calls.filter((c) => c.output !== null).map((c) => [c.toolcallId, c.output as string]));
  const context = applyUserMessage(s.context, trimmed, outputs, deps.fold);
  if (s.context.isTask === null && !context.goal) context.goal = trimmed.slice(0, 1000);
  history.push(userEntry(s.step, trimmed));
  const session = await deps.store.commit({
    from: s,
    owner: deps.instanceId,
    callUpdates,
    history,
    set: { context, clearStop: true, reason: "", answer: "", status: SessionStatus.RUNNING, inputKey: key },
    lease: leaseUntil(deps),
  });
  return { kind: "drive", session, calls };
}

/**
 * Closes, unrun, the calls of the refused call's step that the model made after it: they were
 * planned on the page the refused call would have left (the field after "place order", the
 * `done` that reports the order placed), so running them on the page as it is could do what
 * nobody asked for. The model reads why and decides again. (Calls before it are unaffected.)
 */
function skipAfter(refused: CallRow, stepCalls: readonly CallRow[], updated: Map<string, CallRow>, callUpdates: CallUpdate[], history: HistoryEntry[]): void {
  for (const now of openAfter(refused, stepCalls.map((c) => updated.get(c.toolcallId) ?? c))) {
    const { update, entry } = closedUnrun(
      now,
      ToolErrorCode.DENIED,
      `This call was not run: the user denied an earlier call of the same turn (${refused.name}, ${refused.toolcallId}), and this one came after it. Check the page before deciding what to do next.`,
    );
    callUpdates.push(update);
    updated.set(now.toolcallId, { ...now, state: "done", output: update.output });
    history.push(entry);
  }
}

function sameTool(r: ToolcallResult, message: AgentMessage | undefined): boolean {
  const fc = message?.content.case === "functionCall" ? message.content.value : undefined;
  if (!fc) return true;
  // A client-declared tool answers with an ExtensionResult, a built-in one with its typed result.
  if (r.outcome.case === "extensionResult") return fc.extension !== undefined;
  if (r.outcome.case !== "result") return true;
  return fc.call !== undefined && r.outcome.value.tool.case === fc.call.tool.case;
}

async function toolResults(deps: LoopDeps, s: SessionRow, stepCalls: CallRow[], results: readonly ToolcallResult[], key: string | undefined): Promise<Applied> {
  if (results.length === 0) throw new ConnectError("tool_results.results is empty", Code.InvalidArgument);
  const byId = new Map(stepCalls.map((c) => [c.toolcallId, c]));
  const missing = results.map((r) => r.toolcallId).filter((id) => !byId.has(id));
  if (missing.length) for (const [id, c] of await deps.store.callsById(s.id, missing)) byId.set(id, c);
  const updated = new Map<string, CallRow>();
  const callUpdates: CallUpdate[] = [];
  const history: HistoryEntry[] = [];
  // Decisions to remember, written once the whole input has been read (a refused input leaves none).
  const remember: Remembered[] = [];
  for (const r of results) {
    const call = updated.get(r.toolcallId) ?? byId.get(r.toolcallId);
    if (!call) throw new ConnectError(`unknown toolcall_id "${r.toolcallId}" for this session`, Code.InvalidArgument);
    if (r.outcome.case === "approval") {
      // Only the first decision counts; a repeated or late approval changes nothing.
      if (call.state !== "awaiting_approval") continue;
      const kept = rememberedOf(call, r.outcome.value);
      if (kept) remember.push(kept);
      if (r.outcome.value.approved) {
        const message = call.message ? create(AgentMessageSchema, { ...call.message, status: MessageStatus.COMPLETED }) : undefined;
        callUpdates.push({ id: call.toolcallId, step: call.step, state: "pending", message });
        updated.set(call.toolcallId, { ...call, state: "pending", message });
      } else {
        const why = r.outcome.value.reason.trim();
        const never = kept ? ` and asked never to allow ${kept.risk} actions on ${kept.site}${kept.expiresAt !== undefined ? ` until ${new Date(kept.expiresAt).toISOString()}` : ""}` : "";
        const err = toolError(
          ToolErrorCode.DENIED,
          `The user denied this call${never}${why ? `: ${why}` : ""}. Do not repeat it; find another way or ask the user.`,
          { tool: call.name },
        );
        const output = encodeToolError(err);
        traceClientCall(deps, s, call, { ok: false, code: ToolErrorCode[ToolErrorCode.DENIED], denied: true });
        callUpdates.push({ id: call.toolcallId, step: call.step, state: "done", output });
        updated.set(call.toolcallId, { ...call, state: "done", output });
        history.push(resultEntry(call.step, r));
        skipAfter(call, stepCalls, updated, callUpdates, history);
        continue;
      }
      history.push(resultEntry(call.step, r));
      continue;
    }
    if (call.state === "awaiting_approval") {
      throw new ConnectError(`toolcall ${r.toolcallId} is awaiting approval: send an approval first`, Code.FailedPrecondition);
    }
    // A duplicate or late result for a call that already has one is ignored, never re-applied.
    if (call.state !== "pending" || call.side !== "client") continue;
    if (!sameTool(r, call.message)) {
      throw new ConnectError(`result for toolcall ${r.toolcallId} is for a different tool than ${call.name}`, Code.InvalidArgument);
    }
    const output =
      r.outcome.case === "result"
        ? encodeToolResult(toolCatalog, r.outcome.value)
        : r.outcome.case === "extensionResult"
          ? r.outcome.value.resultJson.slice(0, maxExtensionResultChars)
          : encodeToolError(
            r.outcome.case === "error" ? r.outcome.value : toolError(ToolErrorCode.INTERNAL, "The client sent no result.", { tool: call.name }),
          );
    traceClientCall(deps, s, call, r.outcome.case === "error" ? { ok: false, code: ToolErrorCode[r.outcome.value.code] ?? "_OTHER" } : r.outcome.case === undefined ? { ok: false, code: "NO_RESULT" } : { ok: true });
    callUpdates.push({ id: call.toolcallId, step: call.step, state: "done", output });
    updated.set(call.toolcallId, { ...call, state: "done", output });
    history.push(resultEntry(call.step, r));
  }
  // Before the commit that applies the approvals: a crash in between leaves the call waiting,
  // and the answer sent again remembers the same decision again (one per site and class).
  for (const d of remember) await deps.trust.remember(s.userId, d);
  const current = stepCalls.map((c) => updated.get(c.toolcallId) ?? c);
  // What the client acts on next, in the model's order (calls behind an approval wait).
  const next = nextCalls(current);
  const open = next.actor === "client" ? next.calls : [];
  const stopped = s.stopRequested || s.status === SessionStatus.STOPPED;
  const waiting = [SessionStatus.AWAITING_TOOLS, SessionStatus.AWAITING_APPROVAL, SessionStatus.RUNNING].includes(s.status);
  if (!stopped && open.length === 0 && waiting && current.length > 0) {
    // The model runs next: the input's writes are committed with its turn.
    if (s.status !== SessionStatus.RUNNING && history.length > 0) return { kind: "drive", session: s, calls: current, pending: { callUpdates, history } };
    const session = await deps.store.commit({ from: s, owner: deps.instanceId, callUpdates, history, set: { status: SessionStatus.RUNNING }, lease: leaseUntil(deps) });
    return { kind: "drive", session, calls: current };
  }
  const status = stopped
    ? SessionStatus.STOPPED
    : open.length > 0
      ? open.some((c) => c.state === "awaiting_approval")
        ? SessionStatus.AWAITING_APPROVAL
        : SessionStatus.AWAITING_TOOLS
      : s.status;
  const messages = stopped ? [] : clientMessages(current);
  const after = await deps.store.commit({
    from: s,
    owner: deps.instanceId,
    callUpdates,
    history,
    set: { status },
    lease: null,
    response: key ? { key, messages } : undefined,
  });
  return { kind: "response", response: stepResponse(after, messages) };
}

/** A decision to remember: the call's site and class, allowed or refused, until when. */
type Remembered = Omit<RememberedDecision, "id" | "createdAt">;

/**
 * The decision an approval asks to have remembered (APPROVAL_SCOPE_SITE), for the site and
 * action class the call was held with; undefined for a decision on this call only. Refuses
 * (FailedPrecondition) a call whose site the backend was never told, and (InvalidArgument) an
 * expiry that is not in the future.
 */
function rememberedOf(call: CallRow, a: Approval): Remembered | undefined {
  if (a.scope !== ApprovalScope.SITE) return undefined;
  const fc = call.message?.content.case === "functionCall" ? call.message.content.value : undefined;
  const risk = fc ? toolRiskOf(fc.risk) : undefined;
  if (!fc?.site || !risk) {
    throw new ConnectError(
      `toolcall ${call.toolcallId}: the site it acts on is unknown (the client sent no page_url with the step that made it), so this decision cannot be remembered; decide this call only (APPROVAL_SCOPE_ONCE)`,
      Code.FailedPrecondition,
    );
  }
  const expiresAt = futureExpiry(a.expiresAt, "approval.expires_at");
  return { site: fc.site, risk, allow: a.approved, tool: call.name, ...(expiresAt !== undefined ? { expiresAt } : {}) };
}

/**
 * The span of a client call whose result (or denial) arrived: from the session's last commit,
 * which handed the call out (or approved it), to now.
 */
function traceClientCall(deps: LoopDeps, s: SessionRow, call: CallRow, out: ToolOutcome): void {
  clientToolSpan({ sessionId: s.id, name: call.name, toolcallId: call.toolcallId, step: call.step, side: "client", redact: deps.redact }, s.updatedAt, out);
}

/**
 * True when every result answers a call of the current step that is still pending on the
 * client. A retried or late input (ids of an earlier step, approvals) reads the store instead,
 * where its stored response is.
 */
function answersOpenCalls(calls: readonly CallRow[], results: readonly ToolcallResult[]): boolean {
  if (results.length === 0) return false;
  return results.every((r) => {
    if (r.outcome.case === "approval") return false;
    const c = calls.find((x) => x.toolcallId === r.toolcallId);
    return c !== undefined && c.side === "client" && c.state === "pending";
  });
}

/**
 * Applies a step's input: a user message, tool results (idempotent by toolcall id: duplicates
 * and late results change nothing), approvals, or nothing (resume). One grouped read, then one
 * commit guarded by the session's version and lease (none for an answer already stored). Decides whether the
 * model must run, and hands the state to the loop so it need not read it again.
 */
export async function applyInput(deps: LoopDeps, sessionId: string, req: StepRequest, key: string | undefined): Promise<Applied> {
  const cached = deps.cache?.take(sessionId);
  if (cached && req.input.case === "toolResults" && answersOpenCalls(cached.calls, req.input.value.results)) {
    // The hot path: results for exactly the calls this process just handed out. Nothing to
    // read: the write that follows is guarded by the session's version and lease in the store.
    return toolResults(deps, cached.session, cached.calls, req.input.value.results, key);
  }
  // One statement (shared with the other sessions starting a step now): the session, a
  // stored response to this input, and the current step's calls.
  const at = await deps.store.readStep(sessionId, key ?? "");
  if (!at) throw new ConnectError(`session ${sessionId} not found`, Code.NotFound);
  // Another replica (or an earlier try) may have answered the same input already.
  if (at.stored) return { kind: "response", response: at.stored };
  const { session: s, calls } = at;
  switch (req.input.case) {
    case "userMessage":
      if (key) {
        // Applied already, and the step it started never answered (the process died mid-turn):
        // the retry continues that step instead of adding the message again.
        if (s.inputKey === key) return resume(deps, s, calls);
        await refuseReusedKey(deps, s, key);
      }
      return userMessage(deps, s, calls, req.input.value.text, key);
    case "toolResults":
      return toolResults(deps, s, calls, req.input.value.results, key);
    default:
      if (s.step === 0 && s.historyLen === 0 && s.task) return userMessage(deps, s, calls, s.task);
      return resume(deps, s, calls);
  }
}

/**
 * Continues a session from where it stands: a step whose process died mid-run (its lease has
 * lapsed) runs on; otherwise the answer is the session as it is, with its open calls.
 */
async function resume(deps: LoopDeps, s: SessionRow, calls: CallRow[]): Promise<Applied> {
  if (s.status === SessionStatus.RUNNING) {
    const session = await deps.store.commit({ from: s, owner: deps.instanceId, lease: leaseUntil(deps) });
    return { kind: "drive", session, calls };
  }
  return { kind: "response", response: stepResponse(s, clientMessages(calls)) };
}

/**
 * Refuses a user message whose idempotency key this session already used for another text
 * (`key` is "msg:<key>#<hash of the text>"): answering it with the first message's result
 * would silently drop what the user said.
 */
async function refuseReusedKey(deps: LoopDeps, s: SessionRow, key: string): Promise<void> {
  const prefix = key.slice(0, key.lastIndexOf("#") + 1);
  if (s.inputKey.startsWith(prefix) || (await deps.store.keyUsed(s.id, prefix))) {
    const name = prefix.slice("msg:".length, -1);
    throw new ConnectError(`idempotency_key "${name}" was already used for a different message in this session; use a new key`, Code.AlreadyExists);
  }
}
