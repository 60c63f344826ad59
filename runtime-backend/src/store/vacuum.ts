import type { Db } from "./db.js";

/**
 * Postgres reclaims dead row versions and freezes old transaction ids with autovacuum, a
 * background process. The embedded engine is a single standalone backend with no background
 * processes, so nothing does it there: every turn leaves dead row versions behind (a call
 * marked done, a session rewritten), tables and indexes only grow, and without freezing, rows
 * older than ~2 billion transactions would read as if from the future. The embedded backend
 * therefore runs the same policy itself, on a timer (`upkeep.ts`): each table past
 * autovacuum's thresholds is vacuumed, one short statement at a time between turns. (A
 * Postgres server has its own autovacuum; this is not started there.)
 */

/**
 * Tables due: dead rows past autovacuum's threshold (50 + 20% of the live ones) but at most
 * `maxDead`, or transaction ids old enough to freeze. The cap keeps each pass short on a big
 * table: a pass blocks the embedded engine's single connection for its duration, and its cost
 * follows the rows written since the previous one.
 */
const dueSql = `
select s.relname as name, s.n_dead_tup as dead
  from pg_stat_user_tables s join pg_class c on c.oid = s.relid
 where s.n_dead_tup > least(50 + 0.2 * s.n_live_tup, $2) or age(c.relfrozenxid) > $1
 order by s.n_dead_tup desc`;

/** Most dead rows a table waits with. */
const maxDead = 10_000;

/** Postgres's default `autovacuum_freeze_max_age`. */
const freezeAge = 200_000_000;

/** What one pass did. */
export interface VacuumPass {
  /** Tables vacuumed, with the dead rows each had. */
  readonly tables: readonly { readonly name: string; readonly dead: number }[];
  readonly ms: number;
}

/** Vacuums every table that is due; returns what it did. */
export async function vacuumDue(db: Db): Promise<VacuumPass> {
  const t0 = performance.now();
  const due = await db.query<{ name: string; dead: number | string }>(dueSql, [freezeAge, maxDead]);
  const tables = due.map((r) => ({ name: String(r.name), dead: Number(r.dead) }));
  // One table per statement, so turns waiting for the single connection get in between.
  for (const t of tables) await db.exec(`vacuum "${t.name.replace(/"/g, '""')}"`);
  return { tables, ms: performance.now() - t0 };
}
