import { Worker } from "node:worker_threads";
import type { Db, Queryable, Row } from "./db.js";
import { embeddedConf } from "./pglite-db.js";
import type { WorkerInit, WorkerReply, WorkerRequest } from "./pglite-worker.js";

/** A request without its id (the client numbers them). */
type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

/**
 * Opens the embedded database in a worker thread: the same engine and settings as
 * {@link openPgliteDb}, but every statement runs off the event loop, so HTTP parsing, the
 * loop and protobuf go on while a group of turns commits. Statements reach the worker as
 * messages and run there one at a time (PGlite has a single connection); the main thread
 * waits for each reply, so "committed before acknowledged" holds exactly as in process.
 */
export async function openWorkerDb(dataDir?: string): Promise<Db> {
  const init: WorkerInit = { dataDir, conf: embeddedConf };
  const worker = new Worker(new URL("./pglite-worker.ts", import.meta.url), { workerData: init });
  const waiting = new Map<number, { resolve: (r: WorkerReply & { ok: true }) => void; reject: (e: unknown) => void }>();
  let next = 1;
  let dead: Error | undefined;

  const ready = new Promise<void>((resolve, reject) => {
    waiting.set(0, { resolve: () => resolve(), reject });
  });
  worker.on("message", (r: WorkerReply) => {
    const w = waiting.get(r.id);
    if (!w) return;
    waiting.delete(r.id);
    if (waiting.size === 0) worker.unref();
    if (r.ok) w.resolve(r);
    else w.reject(Object.assign(new Error(r.error.message), r.error.props));
  });
  const die = (e: Error) => {
    dead = e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  worker.on("error", die);
  worker.on("exit", (code) => die(new Error(`the store's worker thread exited (${code})`)));

  const call = (req: Request, transfer: ArrayBuffer[] = []): Promise<WorkerReply & { ok: true }> => {
    if (dead) return Promise.reject(dead);
    const id = next++;
    // Referenced only while a reply is awaited: an idle store does not keep the process alive.
    if (waiting.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...req, id }, transfer);
    });
  };
  const rawQuery = async <R extends Row>(sql: string, params: readonly unknown[], tx?: number) =>
    ((await call({ op: "query", sql, params, ...(tx !== undefined ? { tx } : {}) })).rows ?? []) as R[];
  const queryOn =
    (tx?: number): Queryable["query"] =>
    <R extends Row>(sql: string, params: readonly unknown[] = []) =>
      rawQuery<R>(sql, params, tx);

  try {
    await ready;
  } catch (e) {
    await worker.terminate();
    throw e;
  }
  worker.unref();
  const utf8 = new TextEncoder();

  const db: Db = {
    kind: "embedded",
    query: queryOn(),
    async transaction(fn) {
      const { id: tx } = await call({ op: "begin" });
      let out;
      try {
        out = await fn({ query: queryOn(tx) });
      } catch (e) {
        await call({ op: "end", tx, commit: false }).catch(() => undefined);
        throw e;
      }
      await call({ op: "end", tx, commit: true });
      return out;
    },
    async prepared<R extends Row>(name: string, sql: string, params: readonly string[]) {
      // Encoded here and moved, not copied, to the engine's thread.
      const bytes = params.map((p) => utf8.encode(p));
      return ((await call({ op: "prepared", name, sql, params: bytes }, bytes.map((b) => b.buffer))).rows ?? []) as R[];
    },
    async exec(sql) {
      await call({ op: "exec", sql });
    },
    async close() {
      if (dead) return;
      // Once PGlite has closed, the worker's port closes and the thread ends on its own; it is
      // terminated only if it does not (terminating a thread that is tearing down its
      // WebAssembly instance can abort the whole process). A thread that acknowledged the close
      // gets a minute: on a machine under load its teardown can take seconds.
      const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      const closed = await call({ op: "close" }).then(
        () => true,
        () => false,
      );
      const late = setTimeout(() => void worker.terminate(), closed ? 60_000 : 0);
      await exited;
      clearTimeout(late);
    },
  };
  return db;
}
