import { create } from "@bufbuild/protobuf";
import { type AgentMessage, type HistoryEntry, MessageStatus, SessionStatus, type StepResponse, type ToolcallResult, ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import type { ToolCall } from "@baton/gen/baton/v1/tools_pb";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { ToolcallResultSchema } from "@baton/gen/baton/v1/descriptors";
import { dispatchToolCall, encodeToolError, encodeToolResult } from "@baton/sdk/contract";
import { toolSpan } from "../log/spans.js";
import type { CallRow } from "../store/records.js";
import type { CallUpdate } from "../store/session-store.js";
import type { SessionRow } from "../store/sessions.js";
import type { PendingWrites } from "./apply-input.js";
import { backendTools } from "./backend-tools.js";
import { budgetReached } from "./budget.js";
import { nextCalls, openAfter } from "./call-order.js";
import { type LoopDeps, leaseUntil } from "./deps.js";
import { finish, stoppedText } from "./finish.js";
import { closedUnrun, resultEntry } from "./messages.js";
import { allTools, type DriveHooks, modelTurn } from "./model-turn.js";

export type { DriveHooks };

/** A human line for a backend tool in progress ("Searching memory for “address”"). */
function progressDetail(call: ToolCall, title: string): string {
  switch (call.tool.case) {
    case "searchUserMemory":
      return `Searching memory for “${call.tool.value.query.slice(0, 80)}”`;
    case "saveMemory":
      return "Saving to memory";
    case "done":
      return "Finishing";
    default:
      return title;
  }
}

/** What `done` commits with the completion: its answer, its result, and the calls after it closed unrun. */
interface Completion {
  readonly answer: string;
  readonly writes: PendingWrites;
}

/**
 * Closes `done` with its result and, unrun, every call the model placed after it in the same
 * turn, whatever its side: the session is over, so none of them runs or is handed out.
 */
function completionWrites(done: CallRow, doneOutput: string, doneResult: ToolcallResult, stepCalls: readonly CallRow[]): PendingWrites {
  const callUpdates: CallUpdate[] = [{ id: done.toolcallId, step: done.step, state: "done", output: doneOutput }];
  const history: HistoryEntry[] = [resultEntry(done.step, doneResult)];
  for (const c of openAfter(done, stepCalls)) {
    const { update, entry } = closedUnrun(c, ToolErrorCode.NOT_RUN, "The session already completed; this call was not run.");
    callUpdates.push(update);
    history.push(entry);
  }
  return { callUpdates, history };
}

/**
 * Runs backend-side calls (the next ones of a step, in order), committing each result as it
 * comes. A `done` that succeeds is not committed here: it returns the completion's writes,
 * which the session's end commits in one go.
 */
async function runBackendCalls(deps: LoopDeps, s: SessionRow, stepCalls: readonly CallRow[], calls: CallRow[], hooks: DriveHooks): Promise<Completion | undefined> {
  for (const c of calls) {
    if (c.side !== "backend" || c.state !== "pending" || !c.message) continue;
    const fc = c.message.content.case === "functionCall" ? c.message.content.value : undefined;
    if (!fc?.call) continue;
    const call: ToolCall = fc.call;
    const spec = allTools.find((t) => t.case === call.tool.case);
    hooks.emit({ kind: "tool", tool: spec?.name ?? c.name, detail: progressDetail(call, spec?.title ?? c.name) });
    // A tool that writes does so under this call's id, so running it again after a crash
    // (before its result was committed) stores nothing twice.
    const ended = toolSpan({ sessionId: s.id, name: spec?.name ?? c.name, toolcallId: c.toolcallId, step: c.step, side: "backend", redact: deps.redact });
    const d = await dispatchToolCall(toolCatalog, call, backendTools as never, { store: deps.store, userId: s.userId, sessionId: s.id, toolcallId: c.toolcallId });
    ended(d.ok ? { ok: true } : { ok: false, code: ToolErrorCode[d.error.code] ?? "_OTHER" });
    const output = d.ok ? encodeToolResult(toolCatalog, d.result) : encodeToolError(d.error);
    const result = create(ToolcallResultSchema, { toolcallId: c.toolcallId, outcome: d.ok ? { case: "result", value: d.result } : { case: "error", value: d.error } });
    if (d.ok && call.tool.case === "done") return { answer: call.tool.value.answer, writes: completionWrites(c, output, result, stepCalls) };
    s = await deps.store.commit({
      from: s,
      owner: deps.instanceId,
      callUpdates: [{ id: c.toolcallId, step: c.step, state: "done", output }],
      history: [resultEntry(c.step, result)],
      lease: leaseUntil(deps),
    });
  }
  return undefined;
}

/** Where a drive starts: the session and its current step's calls, as the input left them. */
export interface DriveStart {
  readonly session: SessionRow;
  readonly calls: CallRow[];
  /** The input's writes, committed with the first model turn (or before anything else). */
  readonly pending?: PendingWrites | undefined;
}

/** Commits deferred input writes on their own (paths that do not run a model turn first). */
async function flush(deps: LoopDeps, s: SessionRow, pending: PendingWrites | undefined): Promise<SessionRow> {
  if (!pending) return s;
  return deps.store.commit({ from: s, owner: deps.instanceId, ...pending, lease: leaseUntil(deps) });
}

async function reload(deps: LoopDeps, id: string): Promise<DriveStart> {
  const at = await deps.store.readStep(id, "");
  if (!at) throw new Error(`session ${id} vanished`);
  return { session: at.session, calls: at.calls };
}

/**
 * Runs model turns for a session until it needs the client (tool calls or approvals), has
 * answered, completed, failed or been stopped. Every turn is committed (messages, calls,
 * trace, usage, context) before the next begins, so a crash at any point resumes from the
 * last committed turn and never repeats one. The stop flag is read from the store before
 * each model call and, atomically with the final write, before tool calls are returned.
 * The response is stored under `key` (the input's idempotency key) before it is returned.
 */
export async function drive(deps: LoopDeps, start: DriveStart, hooks: DriveHooks, key?: string): Promise<StepResponse> {
  const messages: AgentMessage[] = [];
  let { session: s, calls } = start;
  let pending = start.pending;
  for (;;) {
    const willCallModel =
      !s.stopRequested &&
      !calls.some((c) => c.side !== "invalid" && c.state !== "done") &&
      !(s.step > 0 && calls.length === 0 && !s.context.pendingUser) &&
      s.step < s.maxSteps;
    if (pending && !willCallModel) {
      s = await flush(deps, s, pending);
      pending = undefined;
    }
    if (s.stopRequested) {
      return finish(deps, s, SessionStatus.STOPPED, messages, key, { text: stoppedText(s), textStatus: MessageStatus.STOPPED });
    }
    // Calls run in the model's order: the backend's inline, the client's handed out.
    const next = nextCalls(calls);
    if (next.actor === "backend") {
      const done = await runBackendCalls(deps, s, calls, next.calls, hooks);
      ({ session: s, calls } = await reload(deps, s.id));
      if (done) return finish(deps, s, SessionStatus.COMPLETED, messages, key, { answer: done.answer, pending: done.writes });
      continue;
    }
    const open = next.actor === "client" ? next.calls : [];
    if (open.length > 0) {
      // Tool calls go back to the client only if nobody pressed stop meanwhile.
      const fresh = (await deps.store.readSession(s.id)) ?? s;
      if (fresh.stopRequested) {
        return finish(deps, fresh, SessionStatus.STOPPED, messages, key, { text: stoppedText(fresh), textStatus: MessageStatus.STOPPED });
      }
      const known = new Set(messages.map((m) => m.id));
      for (const c of open) if (c.message && !known.has(c.message.id)) messages.push(c.message);
      const awaiting = open.some((c) => c.state === "awaiting_approval");
      return finish(deps, fresh, awaiting ? SessionStatus.AWAITING_APPROVAL : SessionStatus.AWAITING_TOOLS, messages, key);
    }
    if (s.step > 0 && calls.length === 0 && !s.context.pendingUser) {
      // The model answered in text and nothing new arrived: wait for the user.
      return finish(deps, s, SessionStatus.IDLE, messages, key);
    }
    if (s.step >= s.maxSteps) {
      return finish(deps, s, SessionStatus.FAILED, messages, key, {
        reason: `Reached the step limit (${s.maxSteps}).`,
        text: `I stopped after ${s.maxSteps} steps without finishing.`,
      });
    }
    const verdict = deps.quota?.check(s);
    const overQuota = verdict instanceof Promise ? await verdict : verdict;
    if (overQuota) {
      // Before the model is called: the client's results are kept, and the session ends with why.
      if (pending) s = await flush(deps, s, pending);
      return finish(deps, s, SessionStatus.FAILED, messages, key, { reason: overQuota, text: `I stopped: ${overQuota}` });
    }
    const overBudget = budgetReached(s, Date.now());
    if (overBudget) {
      // Before the model is called, so never mid-action: every result the client sent is kept.
      if (pending) s = await flush(deps, s, pending);
      return finish(deps, s, SessionStatus.BUDGET_EXHAUSTED, messages, key, { reason: overBudget, text: `I stopped at the budget: ${overBudget}` });
    }
    const turn = await modelTurn(deps, s, calls, hooks, messages, key, pending);
    if ("failed" in turn) {
      // The model never answered, but the client's results are kept (committed with the end).
      const now = (await deps.store.readSession(s.id)) ?? s;
      const kept = { pending, trace: turn.trace };
      if (turn.failed.kind === "aborted" || now.stopRequested) {
        return finish(deps, now, SessionStatus.STOPPED, messages, key, { ...kept, text: stoppedText(now), textStatus: MessageStatus.STOPPED });
      }
      return finish(deps, now, SessionStatus.FAILED, messages, key, {
        ...kept,
        reason: `Model call failed: ${turn.failed.message}`,
        text: "The model could not be reached; send a message to try again.",
      });
    }
    if ("response" in turn) return turn.response;
    pending = undefined;
    s = turn.session;
    calls = turn.calls;
  }
}

