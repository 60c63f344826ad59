import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { type AgentMessage, type HistoryEntry } from "@baton/gen/baton/v1/agent_pb";
import { AgentMessageSchema, HistoryEntrySchema } from "@baton/gen/baton/v1/descriptors";
import type { Queryable } from "./db.js";

/** A stored JSON blob: text columns arrive as strings, json aggregates as values. */
export function parseJson(v: unknown): JsonValue {
  return (typeof v === "string" ? JSON.parse(v) : v) as JsonValue;
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

/** A client call's result, as {@link recentClientResults} reads it. */
export interface ClientResult {
  readonly name: string;
  readonly output: string;
}

/** The session's latest client calls that have a result, newest first (the model's order within a step). */
export async function recentClientResults(q: Queryable, sessionId: string, limit: number): Promise<ClientResult[]> {
  const rows = await q.query<{ name: string; output: string }>(
    "select name, output from calls where session_id = $1 and side = 'client' and state = 'done' and output is not null order by step desc, ord desc limit $2",
    [sessionId, limit],
  );
  return rows.map((r) => ({ name: String(r.name), output: String(r.output) }));
}
