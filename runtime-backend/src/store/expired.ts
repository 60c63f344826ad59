import type { Queryable } from "./db.js";

/** How many rows one purge deleted, per table. */
export interface Purged {
  readonly deviceLinks: number;
  readonly signInLinks: number;
  readonly consoleSessions: number;
}

async function count(q: Queryable, sql: string, before: Date): Promise<number> {
  const rows = await q.query<{ n: string | number }>(`with gone as (${sql} returning 1) select count(*) as n from gone`, [before]);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Deletes what no one can use any more: device links, sign-in links and console sessions that
 * expired (or sign-in links used) more than `graceMs` ago. Until then an expired device link
 * still reads as "expired" on its approval page, and an exchanged one still spots a replayed
 * code; after it, a row is only data an anonymous caller once stored.
 */
export async function purgeExpired(q: Queryable, graceMs: number, now = Date.now()): Promise<Purged> {
  const before = new Date(now - graceMs);
  return {
    deviceLinks: await count(q, "delete from device_links where expires_at < $1", before),
    signInLinks: await count(q, "delete from sign_in_links where expires_at < $1 or used_at < $1", before),
    consoleSessions: await count(q, "delete from console_sessions where expires_at < $1", before),
  };
}
