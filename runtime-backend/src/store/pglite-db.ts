import { PGlite } from "@electric-sql/pglite";
import type { Db, Queryable, Row } from "./db.js";
import { inlineParams } from "./literal.js";

/**
 * Settings for the embedded engine. It has one process and no replicas, so WAL needs only
 * what crash recovery uses (wal_level minimal) — 2.5× cheaper writes. Full-page images only
 * guard against torn pages on power loss or an OS crash; a killed process cannot tear a page
 * (the SIGKILL fault test proves recovery), so they are off. Deployments that must survive
 * power loss use Postgres.
 */
const embeddedConf = ["wal_level = minimal", "max_wal_senders = 0", "full_page_writes = off", "wal_buffers = 4MB"];

/**
 * Opens the embedded database: Postgres compiled to WebAssembly, in-process, persisted to
 * `dataDir` (or in memory when it is undefined). No server to install.
 */
export async function openPgliteDb(dataDir?: string): Promise<Db> {
  const pg = new PGlite({ ...(dataDir ? { dataDir } : {}), postgresqlconf: embeddedConf });
  await pg.waitReady;
  const wrap = (q: { query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }> }): Queryable => ({
    async query<R extends Row>(sql: string, params: readonly unknown[] = []) {
      const res = await q.query<R>(sql, params as unknown[]);
      return res.rows;
    },
  });
  const root = wrap(pg);
  return {
    kind: "embedded",
    query: root.query,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async batch(stmts) {
      if (stmts.length === 0) return [];
      // Parameters become quoted literals so the whole batch is one simple-protocol message,
      // which Postgres runs as one implicit transaction: all statements or none.
      const script = stmts.map((st) => inlineParams(st.sql, st.params ?? [])).join(";\n");
      const results = await pg.exec(script);
      return results.map((r) => r.rows as Row[]);
    },
    async exec(sql) {
      await pg.exec(sql);
    },
    async close() {
      if (!pg.closed) await pg.close();
    },
  };
}
