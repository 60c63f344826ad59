import { PGlite } from "@electric-sql/pglite";
import type { Db, Queryable, Row } from "./db.js";
import { runPrepared } from "./pglite-prepared.js";

/**
 * Settings for the embedded engine. It has one process and no replicas, so WAL needs only
 * what crash recovery uses (wal_level minimal), which makes every write cheaper. Full-page
 * images only guard against torn pages on power loss or an OS crash; a killed process cannot
 * tear a page (the SIGKILL fault test proves recovery), so they are off. Deployments that must
 * survive power loss use Postgres.
 */
export const embeddedConf: readonly string[] = ["wal_level = minimal", "max_wal_senders = 0", "full_page_writes = off", "wal_buffers = 4MB"];

/**
 * Opens the embedded database: Postgres compiled to WebAssembly, in-process, persisted to
 * `dataDir` (or in memory when it is undefined). No server to install.
 */
export async function openPgliteDb(dataDir?: string): Promise<Db> {
  const pg = new PGlite({ ...(dataDir ? { dataDir } : {}), postgresqlconf: [...embeddedConf] });
  await pg.waitReady;
  const wrap = (q: { query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }> }): Queryable => ({
    async query<R extends Row>(sql: string, params: readonly unknown[] = []) {
      const res = await q.query<R>(sql, params as unknown[]);
      return res.rows;
    },
  });
  const root = wrap(pg);
  const prepared = new Map<string, Promise<unknown>>();
  const utf8 = new TextEncoder();
  return {
    kind: "embedded",
    query: root.query,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async prepared<R extends Row>(name: string, sql: string, params: readonly string[]) {
      return (await runPrepared(pg, prepared, name, sql, params.map((p) => utf8.encode(p)))) as R[];
    },
    async exec(sql) {
      await pg.exec(sql);
    },
    async close() {
      if (!pg.closed) await pg.close();
    },
  };
}
