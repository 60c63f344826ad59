import { create, fromJson } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type HistoryEntry,
  HistoryEntrySchema,
  type Session,
  SessionSchema,
  type SessionStatus,
  UsageSchema,
} from "@baton/gen/baton/v1/agent_pb";
import type { Queryable, Row } from "./db.js";
import { parseJson } from "./records.js";

/**
 * The console's reads of sessions: a user's sessions, filtered and paged, and what a watched
 * session added since it was last read. Summary columns only: never the context or history.
 */

function date(v: unknown): Date {
  return v instanceof Date ? v : new Date(String(v));
}

const summaryColumns =
  "id, status, task, goal, model, step, max_steps, playbook, input_tokens, output_tokens, cached_tokens, cost_usd, answer, reason, created_at, updated_at";

function summary(r: Row): Session {
  return create(SessionSchema, {
    id: String(r.id),
    status: Number(r.status) as SessionStatus,
    task: String(r.task),
    goal: String(r.goal),
    model: String(r.model),
    step: Number(r.step),
    maxSteps: Number(r.max_steps),
    usage: create(UsageSchema, {
      inputTokens: BigInt(String(r.input_tokens)),
      outputTokens: BigInt(String(r.output_tokens)),
      cachedTokens: BigInt(String(r.cached_tokens)),
      costUsd: Number(r.cost_usd),
    }),
    playbook: String(r.playbook),
    createdAt: timestampFromDate(date(r.created_at)),
    updatedAt: timestampFromDate(date(r.updated_at)),
    answer: String(r.answer),
    reason: String(r.reason),
  });
}

/** Filters of {@link listSessions}. */
export interface SessionFilter {
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
    where.push(`status = any($${params.length}::int[])`);
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
