import type { Db } from "../store/db.js";

/** Dead row versions of a table, as the engine's statistics report them (they arrive within about a second). */
export async function dead(db: Db, table: string): Promise<number> {
  const [r] = await db.query<{ n: string | number }>("select n_dead_tup as n from pg_stat_user_tables where relname = $1", [table]);
  return Number(r?.n ?? -1);
}

/** Rewrites every row of `table` (columns `id`, `v int`) `times` times: each rewrite leaves one dead version per row. */
export async function churn(db: Db, table: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await db.exec(`update ${table} set v = v + 1`);
}
