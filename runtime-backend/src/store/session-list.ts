import { fromJson } from "@bufbuild/protobuf";
import { type HistoryEntry, type Session, type SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { HistoryEntrySchema } from "@baton/gen/baton/v1/descriptors";
import type { Queryable, Row } from "./db.js";
import { parseJson } from "./records.js";
import { outcomeSql, sessionMessage, summaryColumns, summaryFromRow } from "./sessions.js";

/**
 * The console's reads of sessions: a user's sessions, filtered and paged, and what a watched
 * session added since it was last read. Summary columns only: never the context or history.
 */

/** A row's summary columns on the wire. */
function summary(r: Row): Session {
  return sessionMessage(summaryFromRow(r));
}

/** Filters of {@link listSessions}. */
export interface SessionFilter {
  /** The outcome a person would call it ({@link outcomeSql}): a failed verdict is a failure. */
  readonly statuses: readonly SessionStatus[];
  /** Text in the task, the goal or the id (case-insensitive). */
  readonly query: string;
  readonly model: string;
  readonly limit: number;
  /** Only sessions before this (created_at, id) position: the previous page's last. */
  readonly before?: { readonly createdAt: Date; readonly id: string } | undefined;
}

/** Escapes LIKE's wildcards so user text matches literally. */
function likeLiteral(s: string): string {
  return `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A user's sessions, newest first, one more than `limit` (so the caller knows there is a next page). */
export async function listSessions(q: Queryable, userId: string, f: SessionFilter): Promise<Session[]> {
  const where = ["user_id = $1"];
  const params: unknown[] = [userId];
  if (f.statuses.length > 0) {
    params.push(f.statuses);
    where.push(`${outcomeSql} = any($${params.length}::int[])`);
  }
  if (f.query) {
    params.push(likeLiteral(f.query));
    where.push(`(task ilike $${params.length} or goal ilike $${params.length} or id ilike $${params.length})`);
  }
  if (f.model) {
    params.push(f.model);
    where.push(`model = $${params.length}`);
  }
  if (f.before) {
    params.push(f.before.createdAt, f.before.id);
    where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
  }
  params.push(f.limit + 1);
  const rows = await q.query(
    `select ${summaryColumns} from sessions where ${where.join(" and ")} order by created_at desc, id desc limit $${params.length}`,
    params,
  );
  return rows.map(summary);
}

/** Every model a user's sessions used. */
export async function sessionModels(q: Queryable, userId: string): Promise<string[]> {
  const rows = await q.query("select distinct model from sessions where user_id = $1 order by model", [userId]);
  return rows.map((r) => String(r.model));
}

/** A session's summary with its owner and history length, or undefined. */
export async function sessionSummary(q: Queryable, sessionId: string): Promise<{ userId: string; historyLen: number; session: Session } | undefined> {
  const rows = await q.query(`select user_id, history_len, ${summaryColumns} from sessions where id = $1`, [sessionId]);
  const r = rows[0];
  return r ? { userId: String(r.user_id), historyLen: Number(r.history_len), session: summary(r) } : undefined;
}

/** History entries from position `from` on, oldest first. */
export async function historyFrom(q: Queryable, sessionId: string, from: number): Promise<HistoryEntry[]> {
  const rows = await q.query<{ entry: unknown }>("select entry from history where session_id = $1 and seq >= $2 order by seq", [sessionId, from]);
  return rows.map((r) => fromJson(HistoryEntrySchema, parseJson(r.entry)));
}
