import pg from "pg";
import type { Db, Queryable, Row } from "./db.js";

/**
 * Connects to a PostgreSQL server through a `pg` pool. Same SQL as the embedded engine; this
 * is how several stateless backend replicas share one store.
 */
export async function openPgDb(connectionString: string, poolSize = 10): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // Fail at startup, not on the first request, when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const run = async <R extends Row>(client: pg.Pool | pg.PoolClient, sql: string, params: readonly unknown[]) =>
    (await client.query<R>(sql, params as unknown[])).rows;
  return {
    kind: "postgres",
    query: (sql, params = []) => run(pool, sql, params),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const tx: Queryable = { query: (sql, params = []) => run(client, sql, params) };
        const out = await fn(tx);
        await client.query("COMMIT");
        return out;
      } catch (e) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    async prepared<R extends Row>(name: string, sql: string, params: readonly string[]) {
      // node-postgres prepares a named statement once per pooled connection.
      return (await pool.query<R>({ name, text: sql, values: [...params] })).rows;
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async listen(channel, fn) {
      const client = new pg.Client({ connectionString });
      await client.connect();
      client.on("notification", (n) => {
        if (n.channel === channel) fn(n.payload ?? "");
      });
      // A lost connection would stop notifications silently: the caller's cache then falls
      // back to its expiry. Errors are not left unhandled.
      client.on("error", () => undefined);
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      return async () => {
        await client.end().catch(() => undefined);
      };
    },
    async close() {
      await pool.end();
    },
  };
}
