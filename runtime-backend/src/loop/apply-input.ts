import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type AgentMessage,
  AgentMessageSchema,
  type HistoryEntry,
  MessageStatus,
  SessionStatus,
  type StepRequest,
  type StepResponse,
  StepResponseSchema,
  type ToolcallResult,
  ToolcallResultSchema,
  ToolErrorCode,
} from "@baton/gen/baton/v1/agent_pb";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { encodeToolError, encodeToolResult, toolError } from "@baton/sdk/contract";
import { applyUserMessage } from "../context/fold.js";
import type { Row, Stmt } from "../store/db.js";
import {
  appendHistoryStmt,
  type CallRow,
  type CallDone,
  callFromRow,
  callsById,
  saveResponseStmt,
  setCallsDoneStmt,
  setCallStateStmt,
} from "../store/records.js";
import { type SessionPatch, type SessionRow, sessionFromRow, sessionMessage, updateSessionStmt } from "../store/sessions.js";
import { readStepState } from "../store/turns.js";
import { storedResponse } from "../store/stored-response.js";
import { type LoopDeps, lease } from "./deps.js";
import { resultEntry, userEntry } from "./messages.js";

/** A client-declared tool's result reaches the model as the client encoded it, within this cap. */
const maxExtensionResultChars = 100_000;

/**
 * Writes of an input that the loop commits together with the model turn it triggers. Tool
 * results are acknowledged only by the response, so persisting them atomically with the next
 * turn keeps "persisted before acknowledged" and saves a round trip; a crash in between loses
 * nothing the client was told about, and its retry applies them then.
 */
export interface PendingWrites {
  /** Statements to run first (the version guard and the call updates). */
  readonly stmts: Stmt[];
  /** History entries to append before the turn's own. */
  readonly entries: HistoryEntry[];
  /**
   * Set when the input only moved client calls to done (no approvals): then `stmts` is just
   * the guard and this update, and the turn can take the grouped write path instead.
   */
  readonly done?: readonly CallDone[] | undefined;
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
  SessionStatus.UNSPECIFIED,
]);

/** Collects a step's writes; committed as one batch, guarded by the session's version. */
export class Writes {
  readonly stmts: Stmt[];
  entries: HistoryEntry[] = [];

  constructor(
    private readonly s: SessionRow,
    owner: string,
  ) {
    // Optimistic concurrency: the batch fails (division by zero) unless the session is still
    // at the history length we read and no live lease holds it — another request or replica
    // that got there first makes this one roll back entirely instead of interleaving.
    this.stmts = [
      {
        sql: `select 1 / (select count(*) from sessions where id = $1 and history_len = $2
                and (lease_until is null or lease_until < now() or lease_owner = $3))::int as ok`,
        params: [s.id, s.historyLen, owner],
      },
    ];
  }

  /** Adds the history append and the session update; returns the batch. */
  finish(patch: SessionPatch): Stmt[] {
    const history = appendHistoryStmt(this.s.id, this.s.historyLen, this.entries);
    if (history) this.stmts.push(history);
    this.stmts.push(updateSessionStmt(this.s.id, { ...patch, historyLen: this.s.historyLen + this.entries.length }));
    return this.stmts;
  }
}

/** Runs a write batch; a failed version guard (a lost race) becomes Aborted. */
export async function runGuarded(deps: LoopDeps, stmts: readonly Stmt[]): Promise<Row[][]> {
  try {
    return await deps.db.batch(stmts);
  } catch (e) {
    if (e instanceof Error && /division by zero/i.test(e.message)) {
      throw new ConnectError("the session changed concurrently (another step is running); retry", Code.Aborted);
    }
    throw e;
  }
}

/** Runs a guarded write batch ending in the session update; returns the updated session. */
export async function commit(deps: LoopDeps, stmts: Stmt[]): Promise<SessionRow> {
  const out = await runGuarded(deps, stmts);
  const row = out.at(-1)?.[0];
  if (!row) throw new ConnectError("session vanished", Code.NotFound);
  return sessionFromRow(row);
}

function respond(s: SessionRow, messages: AgentMessage[]): StepResponse {
  return create(StepResponseSchema, { messages, session: sessionMessage(s) });
}

function openMessages(calls: readonly CallRow[]): AgentMessage[] {
  return calls.filter((c) => c.side === "client" && c.state !== "done").flatMap((c) => (c.message ? [c.message] : []));
}

function userMessage(deps: LoopDeps, s: SessionRow, calls: CallRow[], text: string, key = ""): Promise<Applied> {
  const trimmed = text.trim();
  if (!trimmed) throw new ConnectError("user_message.text is empty", Code.InvalidArgument);
  if (!acceptsUserMessage.has(s.status)) {
    throw new ConnectError(
      `session is ${SessionStatus[s.status]}: send the pending tool results or approvals first, or Stop it`,
      Code.FailedPrecondition,
    );
  }
  const w = new Writes(s, deps.instanceId);
  // Calls a stop left unexecuted are closed, so the model reads them as not run and the
  // loop does not hand stale calls to the client.
  const cancelled: CallDone[] = [];
  calls = calls.map((c) => {
    if (c.state === "done") return c;
    const err = toolError(ToolErrorCode.STOPPED, "This call was not run: the session was stopped before it, then the user sent a new message.", {
      tool: c.name,
    });
    const output = encodeToolError(err);
    cancelled.push({ id: c.toolcallId, step: c.step, output });
    w.entries.push(resultEntry(c.step, create(ToolcallResultSchema, { toolcallId: c.toolcallId, outcome: { case: "error", value: err } })));
    return { ...c, state: "done", output };
  });
  const bulk = setCallsDoneStmt(s.id, cancelled);
  if (bulk) w.stmts.push(bulk);
  const outputs = new Map(calls.filter((c) => c.output !== null).map((c) => [c.toolcallId, c.output as string]));
  const context = applyUserMessage(s.context, trimmed, outputs, deps.fold);
  if (s.context.isTask === null && !context.goal) context.goal = trimmed.slice(0, 1000);
  w.entries.push(userEntry(s.step, trimmed));
  const stmts = w.finish({
    context,
    stopRequested: false,
    reason: "",
    answer: "",
    status: SessionStatus.RUNNING,
    inputKey: key,
    ...lease(deps),
  });
  return commit(deps, stmts).then((session) => ({ kind: "drive", session, calls }));
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
  if (missing.length) for (const [id, c] of await callsById(deps.db, s.id, missing)) byId.set(id, c);
  const w = new Writes(s, deps.instanceId);
  const updated = new Map<string, CallRow>();
  const done: CallDone[] = [];
  for (const r of results) {
    const call = updated.get(r.toolcallId) ?? byId.get(r.toolcallId);
    if (!call) throw new ConnectError(`unknown toolcall_id "${r.toolcallId}" for this session`, Code.InvalidArgument);
    if (r.outcome.case === "approval") {
      // Only the first decision counts; a repeated or late approval changes nothing.
      if (call.state !== "awaiting_approval") continue;
      if (r.outcome.value.approved) {
        const message = call.message ? create(AgentMessageSchema, { ...call.message, status: MessageStatus.COMPLETED }) : undefined;
        w.stmts.push(setCallStateStmt(s.id, call.toolcallId, "pending", null, message));
        updated.set(call.toolcallId, { ...call, state: "pending", message });
      } else {
        const why = r.outcome.value.reason.trim();
        const err = toolError(
          ToolErrorCode.DENIED,
          `The user denied this call${why ? `: ${why}` : ""}. Do not repeat it; find another way or ask the user.`,
          { tool: call.name },
        );
        const output = encodeToolError(err);
        w.stmts.push(setCallStateStmt(s.id, call.toolcallId, "done", output));
        updated.set(call.toolcallId, { ...call, state: "done", output });
      }
      w.entries.push(resultEntry(call.step, r));
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
    done.push({ id: call.toolcallId, step: call.step, output });
    updated.set(call.toolcallId, { ...call, state: "done", output });
    w.entries.push(resultEntry(call.step, r));
  }
  const bulk = setCallsDoneStmt(s.id, done);
  if (bulk) w.stmts.push(bulk);
  const current = stepCalls.map((c) => updated.get(c.toolcallId) ?? c);
  const open = current.filter((c) => c.side === "client" && c.state !== "done");
  const stopped = s.stopRequested || s.status === SessionStatus.STOPPED;
  const waiting = [SessionStatus.AWAITING_TOOLS, SessionStatus.AWAITING_APPROVAL, SessionStatus.RUNNING].includes(s.status);
  if (!stopped && open.length === 0 && waiting && current.length > 0) {
    if (s.status !== SessionStatus.RUNNING && w.entries.length > 0) {
      // Only the guard and the bulk "done" update: nothing the grouped turn write cannot say.
      const onlyDone = w.stmts.length === (bulk ? 2 : 1);
      return { kind: "drive", session: s, calls: current, pending: { stmts: w.stmts, entries: w.entries, done: onlyDone ? done : undefined } };
    }
    const session = await commit(deps, w.finish({ status: SessionStatus.RUNNING, ...lease(deps) }));
    return { kind: "drive", session, calls: current };
  }
  const status = stopped
    ? SessionStatus.STOPPED
    : open.length > 0
      ? open.some((c) => c.state === "awaiting_approval")
        ? SessionStatus.AWAITING_APPROVAL
        : SessionStatus.AWAITING_TOOLS
      : s.status;
  const patch: SessionPatch = stopped ? { status, leaseUntil: null } : { status };
  const stmts = w.finish(patch);
  const predicted = respond({ ...s, status, historyLen: s.historyLen + w.entries.length }, stopped ? [] : openMessages(current));
  if (key) stmts.splice(stmts.length - 1, 0, saveResponseStmt(s.id, key, predicted));
  await commit(deps, stmts);
  // Exactly what was stored, so a retry of this input gets an identical answer.
  return { kind: "response", response: predicted };
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
 * and late results change nothing), approvals, or nothing (resume). One batched read, then
 * one atomic batched write guarded by the session's version and lease. Decides whether the
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
  const row = await readStepState(deps.db, sessionId, key ?? "");
  if (!row) throw new ConnectError(`session ${sessionId} not found`, Code.NotFound);
  // Another replica (or an earlier try) may have answered the same input already.
  const stored = key ? storedResponse(row.stored_body, row.stored_response) : undefined;
  if (stored) return { kind: "response", response: stored };
  const s = sessionFromRow(row);
  if (s.leaseUntil && s.leaseUntil.getTime() > Date.now() && s.leaseOwner !== deps.instanceId) {
    throw new ConnectError("a step is already running for this session; retry when it returns", Code.Aborted);
  }
  const callRows = (typeof row.step_calls === "string" ? JSON.parse(row.step_calls) : row.step_calls) as Row[];
  const calls = callRows.map(callFromRow);
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
    const session = await commit(deps, new Writes(s, deps.instanceId).finish(lease(deps)));
    return { kind: "drive", session, calls };
  }
  return { kind: "response", response: respond(s, openMessages(calls)) };
}

/**
 * Refuses a user message whose idempotency key this session already used for another text
 * (`key` is "msg:<key>#<hash of the text>"): answering it with the first message's result
 * would silently drop what the user said.
 */
async function refuseReusedKey(deps: LoopDeps, s: SessionRow, key: string): Promise<void> {
  const prefix = key.slice(0, key.lastIndexOf("#") + 1);
  let used = s.inputKey.startsWith(prefix);
  if (!used) {
    const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    used = (await deps.db.query("select 1 from responses where session_id = $1 and input_key like $2 limit 1", [s.id, like])).length > 0;
  }
  if (used) {
    const name = prefix.slice("msg:".length, -1);
    throw new ConnectError(`idempotency_key "${name}" was already used for a different message in this session; use a new key`, Code.AlreadyExists);
  }
}
