import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import {
  type AgentMessage,
  AgentMessageSchema,
  type HistoryEntry,
  HistoryEntrySchema,
  type StepResponse,
  StepResponseSchema,
} from "@baton/gen/baton/v1/agent_pb";
import type { Queryable, Stmt } from "./db.js";
import { agentMessageJson, historyEntryJson } from "./json-text.js";
import { encodeResponse, storedResponse } from "./stored-response.js";

/** The insert of history entries at `startSeq`…; undefined when there are none. */
export function appendHistoryStmt(sessionId: string, startSeq: number, entries: readonly HistoryEntry[]): Stmt | undefined {
  if (entries.length === 0) return undefined;
  // One multi-row insert: the embedded engine pays per statement, not per row. The primary
  // key (session, seq) makes a concurrent writer at the same position fail, not interleave.
  const params: unknown[] = [sessionId];
  const values = entries.map((e, i) => {
    params.push(startSeq + i, e.step, historyEntryJson(e));
    const n = params.length;
    return `($1, $${n - 2}, $${n - 1}, $${n})`;
  });
  return { sql: `insert into history (session_id, seq, step, entry) values ${values.join(", ")}`, params };
}

/** Appends history entries after `startSeq`; returns the new history length. */
export async function appendHistory(q: Queryable, sessionId: string, startSeq: number, entries: readonly HistoryEntry[]): Promise<number> {
  const st = appendHistoryStmt(sessionId, startSeq, entries);
  if (st) await q.query(st.sql, st.params);
  return startSeq + entries.length;
}

/** The whole history, oldest first. */
export async function readHistory(q: Queryable, sessionId: string): Promise<HistoryEntry[]> {
  const rows = await q.query<{ entry: JsonValue }>("select entry from history where session_id = $1 order by seq", [sessionId]);
  return rows.map((r) => fromJson(HistoryEntrySchema, parseJson(r.entry)));
}

/** A tool call's lifecycle in the store. */
export type CallState = "pending" | "awaiting_approval" | "done";

/** One tool call of a step. */
export interface CallRow {
  readonly toolcallId: string;
  readonly step: number;
  readonly ord: number;
  /** The tool name as the model spelled it. */
  readonly name: string;
  /** The raw argument string. */
  readonly arguments: string;
  readonly side: "client" | "backend" | "invalid";
  readonly state: CallState;
  /** The function-call message the client saw; undefined for calls that did not parse. */
  readonly message: AgentMessage | undefined;
  /** What the model reads back: the encoded result or error. */
  readonly output: string | null;
}

/** The insert of one step's calls; undefined when there are none. */
export function insertCallsStmt(sessionId: string, calls: readonly CallRow[]): Stmt | undefined {
  if (calls.length === 0) return undefined;
  const params: unknown[] = [sessionId];
  const values = calls.map((c) => {
    params.push(
      c.toolcallId,
      c.step,
      c.ord,
      c.name,
      c.arguments,
      c.side,
      c.state,
      c.message ? agentMessageJson(c.message) : null,
      c.output,
    );
    const n = params.length;
    const ph = Array.from({ length: 9 }, (_, i) => `$${n - 8 + i}`);
    return `($1, ${ph.join(", ")})`;
  });
  return {
    sql: `insert into calls (session_id, toolcall_id, step, ord, name, arguments, side, state, message, output) values ${values.join(", ")}`,
    params,
  };
}

/** Inserts the calls of one step. */
export async function insertCalls(q: Queryable, sessionId: string, calls: readonly CallRow[]): Promise<void> {
  const st = insertCallsStmt(sessionId, calls);
  if (st) await q.query(st.sql, st.params);
}

/** Reads a calls row. */
export function callFromRow(r: Record<string, unknown>): CallRow {
  return {
    toolcallId: String(r.toolcall_id),
    step: Number(r.step),
    ord: Number(r.ord),
    name: String(r.name),
    arguments: String(r.arguments),
    side: String(r.side) as CallRow["side"],
    state: String(r.state) as CallState,
    message: r.message ? fromJson(AgentMessageSchema, parseJson(r.message)) : undefined,
    output: r.output == null ? null : String(r.output),
  };
}

/** The calls of one step, in the order the model made them. */
export async function callsOfStep(q: Queryable, sessionId: string, step: number): Promise<CallRow[]> {
  const rows = await q.query("select * from calls where session_id = $1 and step = $2 order by ord", [sessionId, step]);
  return rows.map(callFromRow);
}

/** Calls by toolcall id. */
export async function callsById(q: Queryable, sessionId: string, ids: readonly string[]): Promise<Map<string, CallRow>> {
  const rows = await q.query("select * from calls where session_id = $1 and toolcall_id = any($2)", [sessionId, ids]);
  return new Map(rows.map((r) => [String(r.toolcall_id), callFromRow(r)]));
}

/** The update moving a call to a new state, optionally with its output and an updated message. */
export function setCallStateStmt(sessionId: string, toolcallId: string, state: CallState, output: string | null, message?: AgentMessage): Stmt {
  return {
    sql: `update calls set state = $3, output = coalesce($4, output)${message ? ", message = $5" : ""} where session_id = $1 and toolcall_id = $2`,
    params: message
      ? [sessionId, toolcallId, state, output, agentMessageJson(message)]
      : [sessionId, toolcallId, state, output],
  };
}

/**
 * A call that got its output. The step is part of the lookup so the update reads only that
 * step's calls (the `calls_open` index), not every call the session ever made.
 */
export interface CallDone {
  readonly id: string;
  readonly step: number;
  readonly output: string;
}

/** One update moving several calls to "done" with their outputs (the hot path: tool results). */
export function setCallsDoneStmt(sessionId: string, done: readonly CallDone[]): Stmt | undefined {
  if (done.length === 0) return undefined;
  const params: unknown[] = [sessionId];
  const values = done.map((d) => {
    params.push(d.id, d.step, d.output);
    return `($${params.length - 2}, $${params.length - 1}::int, $${params.length})`;
  });
  return {
    sql: `update calls c set state = 'done', output = v.output
            from (values ${values.join(", ")}) as v(id, step, output)
           where c.session_id = $1 and c.step = v.step and c.toolcall_id = v.id`,
    params,
  };
}

/** Moves a call to a new state, optionally with its output and an updated message. */
export async function setCallState(
  q: Queryable,
  sessionId: string,
  toolcallId: string,
  state: CallState,
  output: string | null,
  message?: AgentMessage,
): Promise<void> {
  const st = setCallStateStmt(sessionId, toolcallId, state, output, message);
  await q.query(st.sql, st.params);
}

/**
 * The insert storing the response to an input, so a retried request gets the same answer.
 * With `unlessStopped`, nothing is stored when the session's stop flag is set by then.
 */
export function saveResponseStmt(sessionId: string, inputKey: string, response: StepResponse, unlessStopped = false): Stmt {
  return {
    sql: unlessStopped
      ? `insert into responses (session_id, input_key, body)
         select $1, $2, $3 where not (select stop_requested from sessions where id = $1)
         on conflict (session_id, input_key) do nothing`
      : "insert into responses (session_id, input_key, body) values ($1, $2, $3) on conflict (session_id, input_key) do nothing",
    params: [sessionId, inputKey, encodeResponse(response)],
  };
}

/** Stores the response to an input, so a retried request gets the same answer. */
export async function saveResponse(q: Queryable, sessionId: string, inputKey: string, response: StepResponse): Promise<void> {
  const st = saveResponseStmt(sessionId, inputKey, response);
  await q.query(st.sql, st.params);
}


/** A stored JSON blob: text columns arrive as strings, json aggregates as values. */
export function parseJson(v: unknown): JsonValue {
  return (typeof v === "string" ? JSON.parse(v) : v) as JsonValue;
}

/** The stored response to an input, if that input was already processed. */
export async function findResponse(q: Queryable, sessionId: string, inputKey: string): Promise<StepResponse | undefined> {
  const rows = await q.query<{ response: unknown; body: unknown }>("select response, body from responses where session_id = $1 and input_key = $2", [
    sessionId,
    inputKey,
  ]);
  return rows[0] ? storedResponse(rows[0].body, rows[0].response) : undefined;
}
