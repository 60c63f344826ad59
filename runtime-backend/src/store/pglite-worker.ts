/**
 * The embedded engine's thread: a worker_threads worker that owns the PGlite instance, so the
 * WebAssembly Postgres never blocks the server's event loop. It answers a small
 * request/response protocol ({@link WorkerRequest} → {@link WorkerReply}) spoken by
 * `worker-db.ts`, which implements the store's `Db` interface on top of it.
 *
 * Node loads this file directly (type stripping), so it imports no project modules: only
 * erasable TypeScript, node built-ins and PGlite.
 */
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { parentPort, workerData } from "node:worker_threads";
import { runPrepared } from "./pglite-prepared.ts";

/** What the worker is started with. */
export interface WorkerInit {
  /** Data directory; in memory when undefined. */
  readonly dataDir: string | undefined;
  /** postgresql.conf lines. */
  readonly conf: readonly string[];
}

/** A request from the main thread. `tx` names an open transaction (the id of its `begin`). */
export type WorkerRequest =
  | { readonly id: number; readonly op: "query"; readonly sql: string; readonly params: readonly unknown[]; readonly tx?: number }
  | { readonly id: number; readonly op: "exec"; readonly sql: string; readonly tx?: number }
  | { readonly id: number; readonly op: "prepared"; readonly name: string; readonly sql: string; readonly params: readonly Uint8Array[] }
  | { readonly id: number; readonly op: "begin" }
  | { readonly id: number; readonly op: "end"; readonly tx: number; readonly commit: boolean }
  | { readonly id: number; readonly op: "close" };

/** A reply: `rows` for query and prepared, `results` (rows per statement) for exec. */
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly rows?: unknown[]; readonly results?: unknown[][] }
  | { readonly id: number; readonly ok: false; readonly error: { message: string; props: Record<string, unknown> } };

class Rollback extends Error {}

const port = parentPort;
if (port) {
  const init = workerData as WorkerInit;
  const pg = new PGlite({ ...(init.dataDir ? { dataDir: init.dataDir } : {}), postgresqlconf: [...init.conf] });
  const txs = new Map<number, { tx: Transaction; end: (commit: boolean) => void; finished: Promise<void> }>();
  const prepared = new Map<string, Promise<unknown>>();

  const reply = (r: WorkerReply) => port.postMessage(r);
  const fail = (id: number, e: unknown) => {
    const err = e instanceof Error ? e : new Error(String(e));
    // Keep the fields callers and logs use (code, detail, constraint …): plain data only.
    const props: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(err)) if (v === null || ["string", "number", "boolean"].includes(typeof v)) props[k] = v;
    reply({ id, ok: false, error: { message: err.message, props } });
  };
  const target = (tx: number | undefined) => {
    if (tx === undefined) return pg;
    const t = txs.get(tx);
    if (!t) throw new Error(`transaction ${tx} is not open`);
    return t.tx;
  };

  const handle = async (m: WorkerRequest): Promise<void> => {
    switch (m.op) {
      case "query": {
        const res = await target(m.tx).query(m.sql, m.params as unknown[]);
        return reply({ id: m.id, ok: true, rows: res.rows });
      }
      case "exec": {
        const res = await target(m.tx).exec(m.sql);
        return reply({ id: m.id, ok: true, results: res.map((r) => r.rows) });
      }
      case "prepared":
        return reply({ id: m.id, ok: true, rows: await runPrepared(pg, prepared, m.name, m.sql, m.params) });
      case "begin": {
        let end!: (commit: boolean) => void;
        const decided = new Promise<boolean>((r) => (end = r));
        let opened!: (tx: Transaction) => void;
        const ready = new Promise<Transaction>((r) => (opened = r));
        const finished = pg.transaction(async (tx) => {
          opened(tx);
          if (!(await decided)) throw new Rollback("rolled back");
        });
        // A failure to open (before the callback ran) is this request's error.
        const tx = await Promise.race([ready, finished.then(() => undefined)]);
        if (!tx) throw new Error("could not open a transaction");
        txs.set(m.id, { tx, end, finished });
        return reply({ id: m.id, ok: true });
      }
      case "end": {
        const t = txs.get(m.tx);
        if (!t) throw new Error(`transaction ${m.tx} is not open`);
        t.end(m.commit);
        try {
          await t.finished;
        } catch (e) {
          if (!(e instanceof Rollback)) throw e;
        } finally {
          txs.delete(m.tx);
        }
        return reply({ id: m.id, ok: true });
      }
      case "close": {
        if (!pg.closed) await pg.close();
        reply({ id: m.id, ok: true });
        port.close();
        return;
      }
    }
  };

  port.on("message", (m: WorkerRequest) => {
    handle(m).catch((e: unknown) => fail(m.id, e));
  });
  pg.waitReady.then(
    () => port.postMessage({ id: 0, ok: true }),
    (e: unknown) => fail(0, e),
  );
}
