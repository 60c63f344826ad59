import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type LogEntry, type LogLevel } from "@baton/gen/baton/v1/agent_pb";
import { LogEntrySchema } from "@baton/gen/baton/v1/descriptors";
import type { Queryable } from "./db.js";

/** Stores client log entries under their session (the caller redacts them first). */
export async function insertLogs(q: Queryable, sessionId: string, userId: string, entries: readonly LogEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  const params: unknown[] = [sessionId, userId];
  const values = entries.map((e) => {
    params.push(
      e.level,
      e.message,
      e.step,
      e.tool,
      e.toolcallId,
      e.time ? timestampDate(e.time) : new Date(),
      JSON.stringify(e.attributes),
    );
    const n = params.length;
    return `($1, $2, ${Array.from({ length: 7 }, (_, i) => `$${n - 6 + i}`).join(", ")})`;
  });
  await q.query(
    `insert into logs (session_id, user_id, level, message, step, tool, toolcall_id, time, attributes) values ${values.join(", ")}`,
    params,
  );
  return entries.length;
}

/** How many client log entries a session has. */
export async function countLogs(q: Queryable, sessionId: string): Promise<number> {
  const rows = await q.query<{ n: number }>("select count(*)::int as n from logs where session_id = $1", [sessionId]);
  return Number(rows[0]?.n ?? 0);
}

/** A session's client logs, oldest first. */
export async function readLogs(q: Queryable, sessionId: string): Promise<LogEntry[]> {
  const rows = await q.query("select * from logs where session_id = $1 order by id", [sessionId]);
  return rows.map((r) =>
    create(LogEntrySchema, {
      level: Number(r.level) as LogLevel,
      message: String(r.message),
      step: Number(r.step),
      tool: String(r.tool),
      toolcallId: String(r.toolcall_id),
      time: timestampFromDate(r.time instanceof Date ? r.time : new Date(String(r.time))),
      attributes: (r.attributes as Record<string, string>) ?? {},
    }),
  );
}
