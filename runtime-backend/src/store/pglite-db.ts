import { PGlite } from "@electric-sql/pglite";
import type { Db, Queryable, Row } from "./db.js";
// The store's worker thread (`pglite-worker.ts`) imports this module without a bundler: value
// imports name the TypeScript file itself.
import { groupedStatements } from "./group.ts";
import { inlineParams } from "./literal.ts";

/**
 * Settings for the embedded engine. It has one process and no replicas, so WAL needs only
 * what crash recovery uses (wal_level minimal) — 2.5× cheaper writes. Full-page images only
 * guard against torn pages on power loss or an OS crash; a killed process cannot tear a page
 * (the SIGKILL fault test proves recovery), so they are off. Deployments that must survive
 * power loss use Postgres.
 */
export const embeddedConf: readonly string[] = ["wal_level = minimal", "max_wal_senders = 0", "full_page_writes = off", "wal_buffers = 4MB"];

/**
 * Opens the embedded database: Postgres compiled to WebAssembly, in-process, persisted to
 * `dataDir` (or in memory when it is undefined). No server to install.
 */
export async function openPgliteDb(dataDir?: string): Promise<Db> {
  const pg = new PGlite({ ...(dataDir ? { dataDir } : {}), postgresqlconf: [...embeddedConf] });
  await pg.waitReady;
  return pgliteDb(pg);
}

/**
 * The {@link Db} of an open PGlite instance, on the thread that holds it: this one, or the
 * store's worker thread (`pglite-worker.ts`). PGlite has one connection, so grouped
 * statements run one at a time and each run takes everything that queued behind the last.
 */
export function pgliteDb(pg: PGlite): Db {
  const wrap = (q: { query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }> }): Queryable => ({
    async query<R extends Row>(sql: string, params: readonly unknown[] = []) {
      const res = await q.query<R>(sql, params as unknown[]);
      return res.rows;
    },
  });
  const prepared = new Set<string>();
  const runPrepared = async (name: string, sql: string, params: readonly string[]): Promise<Row[]> => {
    if (!prepared.has(name)) {
      await pg.exec(`prepare ${name} as ${sql}`);
      prepared.add(name);
    }
    // EXECUTE takes no bind parameters: the arguments go in as literals (simple protocol).
    const args = params.map((_, i) => `$${i + 1}`).join(", ");
    const results = await pg.exec(inlineParams(`execute ${name}(${args})`, params));
    return (results.at(-1)?.rows ?? []) as Row[];
  };
  return {
    kind: "embedded",
    query: wrap(pg).query,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    grouped: groupedStatements(runPrepared, 1),
    async exec(sql) {
      await pg.exec(sql);
    },
    async close() {
      if (!pg.closed) await pg.close();
    },
  };
}
