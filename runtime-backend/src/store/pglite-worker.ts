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
  | { readonly id: number; readonly op: "post"; readonly name: string; readonly sql: string; readonly params: readonly Uint8Array[]; readonly key: string }
  | { readonly id: number; readonly op: "begin" }
  | { readonly id: number; readonly op: "end"; readonly tx: number; readonly commit: boolean }
  | { readonly id: number; readonly op: "close" };

/**
 * A reply: `rows` for query, prepared and post, `results` (rows per statement) for exec.
 * `also` names the other posts that ran in the same statement, whose reply this is too.
 */
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly rows?: unknown[]; readonly results?: unknown[][]; readonly also?: readonly number[] }
  | { readonly id: number; readonly ok: false; readonly error: { message: string; props: Record<string, unknown> } };

type PostRequest = Extract<WorkerRequest, { op: "post" }>;

class Rollback extends Error {}

const comma = new Uint8Array([0x2c]);

/** Most posts run as one statement (as many as the store groups commits). */
const maxMerged = 256;

/** How long a post waits for others to run with, when nothing else is queued. */
const mergeWaitMs = 2;

/**
 * The JSON arrays of several posts' parameters, each concatenated with its counterparts:
 * `[a,b]` and `[c]` make `[a,b,c]`, empty arrays adding nothing.
 */
export function mergeArrays(posts: readonly (readonly Uint8Array[])[]): Uint8Array[] {
  return (posts[0] ?? []).map((_, i) => {
    const parts: Uint8Array[] = [];
    for (const params of posts) {
      const p = params[i];
      if (!p || p[0] !== 0x5b || p[p.length - 1] !== 0x5d) throw new Error(`post parameter ${i + 1} is not a JSON array written [...]`);
      if (p.length > 2) parts.push(...(parts.length ? [comma] : []), p.subarray(1, p.length - 1));
    }
    const out = new Uint8Array(2 + parts.reduce((n, q) => n + q.length, 0));
    out[0] = 0x5b;
    let at = 1;
    for (const q of parts) {
      out.set(q, at);
      at += q.length;
    }
    out[at] = 0x5d;
    return out;
  });
}

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

  const handle = async (m: Exclude<WorkerRequest, PostRequest>): Promise<void> => {
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

  // Consecutive posts of one statement with different keys run as one; if that fails, each runs alone.
  const runPosts = async (batch: readonly PostRequest[]): Promise<void> => {
    const [first, ...rest] = batch;
    if (!first) return;
    try {
      const params = rest.length ? mergeArrays(batch.map((b) => b.params)) : first.params;
      const rows = await runPrepared(pg, prepared, first.name, first.sql, params);
      reply({ id: first.id, ok: true, rows, ...(rest.length ? { also: rest.map((b) => b.id) } : {}) });
    } catch (e) {
      if (!rest.length) return fail(first.id, e);
      for (const b of batch) await runPosts([b]);
    }
  };

  // Requests run in the order they arrive, so a post runs before any statement sent after it;
  // only the statements of an open transaction (and its end) run at once, inside it.
  const queue: WorkerRequest[] = [];
  let pumping = false;
  // Each turn first lets every message that arrived meanwhile in (a statement runs
  // synchronously, and messages are delivered one event each), so posts waiting together merge.
  const nextTurn = () => new Promise<void>((r) => setImmediate(r));
  const pump = async () => {
    for (let m = (await nextTurn(), queue.shift()); m; m = (await nextTurn(), queue.shift())) {
      if (m.op !== "post") {
        await handle(m).catch((e: unknown) => fail(m.id, e));
        continue;
      }
      // Nobody waits for a post: unless something else is queued behind it, let more gather.
      if (queue.every((q) => q.op === "post")) await new Promise((r) => setTimeout(r, mergeWaitMs));
      // From the posts queued ahead of anything else, the first of each key (a key's posts stay
      // in order, and all of them still run before whatever was sent after them).
      const batch = [m];
      const keys = new Set([m.key]);
      for (let i = 0; i < queue.length && batch.length < maxMerged; i++) {
        const n = queue[i];
        if (n?.op !== "post" || n.name !== m.name) break;
        if (keys.has(n.key)) continue;
        keys.add(n.key);
        batch.push(n);
        queue.splice(i--, 1);
      }
      await runPosts(batch);
    }
    pumping = false;
  };
  port.on("message", (m: WorkerRequest) => {
    if (m.op === "end" || ((m.op === "query" || m.op === "exec") && m.tx !== undefined)) {
      handle(m).catch((e: unknown) => fail(m.id, e));
      return;
    }
    queue.push(m);
    if (!pumping) {
      pumping = true;
      void pump();
    }
  });
  pg.waitReady.then(
    () => port.postMessage({ id: 0, ok: true }),
    (e: unknown) => fail(0, e),
  );
}
