import { Worker } from "node:worker_threads";
import type { Db, Queryable, Row } from "./db.js";
import { inlineParams } from "./literal.js";
import { embeddedConf } from "./pglite-db.js";
import type { WorkerInit, WorkerNotice, WorkerReply, WorkerRequest } from "./pglite-worker.js";
import { TurnJournal, type TurnJournalOptions } from "./turn-journal.js";
import { turnStatements } from "./turns.js";

/** A request without its id (the client numbers them). */
type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

/** The embedded store in a worker thread: a {@link Db} that can also start its turn journal. */
export interface WorkerDb extends Db {
  /**
   * Starts committing model turns through a journal (`turn-journal.ts`): applies what a crash
   * left in it, then routes `commitTurn` there. Call once, after migrating. Returns how many
   * turns it recovered.
   */
  startJournal(o?: TurnJournalOptions & { readonly delayMs?: number; readonly maxBatch?: number }): Promise<number>;
}

/**
 * Opens the embedded database in a worker thread: the same engine and settings as
 * {@link openPgliteDb}, but every statement runs off the event loop, so HTTP parsing, the
 * loop and protobuf go on while a group of turns commits. Statements reach the worker as
 * messages and run there one at a time (PGlite has a single connection); the main thread
 * waits for each reply, so "committed before acknowledged" holds exactly as in process.
 */
export async function openWorkerDb(dataDir?: string): Promise<WorkerDb> {
  const init: WorkerInit = { dataDir, conf: embeddedConf };
  const worker = new Worker(new URL("./pglite-worker.ts", import.meta.url), { workerData: init });
  const waiting = new Map<number, { resolve: (r: WorkerReply & { ok: true }) => void; reject: (e: unknown) => void }>();
  let next = 1;
  let dead: Error | undefined;
  let journal: TurnJournal | undefined;

  const ready = new Promise<void>((resolve, reject) => {
    waiting.set(0, { resolve: () => resolve(), reject });
  });
  worker.on("message", (r: WorkerReply | WorkerNotice) => {
    if ("kind" in r) {
      if (r.kind === "applied") journal?.onApplied(r.seq);
      else journal?.onApplyError(r.seq, r.sessionId, r.message);
      return;
    }
    const w = waiting.get(r.id);
    if (!w) return;
    waiting.delete(r.id);
    if (waiting.size === 0) worker.unref();
    if (r.ok) w.resolve(r);
    else w.reject(Object.assign(new Error(r.error.message), r.error.props));
  });
  const die = (e: Error) => {
    dead = e;
    journal?.fail(e);
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  worker.on("error", die);
  worker.on("exit", (code) => die(new Error(`the store's worker thread exited (${code})`)));

  // Journaled turns go to the worker in one message per event-loop turn (a message costs about
  // as much as encoding a turn); any request first sends those waiting, so it runs behind them.
  let outbox: ArrayBuffer[] = [];
  let outboxScheduled = false;
  const sendOutbox = () => {
    outboxScheduled = false;
    if (outbox.length === 0 || dead) return;
    const records = outbox;
    outbox = [];
    worker.postMessage({ op: "apply", records } satisfies WorkerRequest, records);
  };
  const call = (req: Request): Promise<WorkerReply & { ok: true }> => {
    if (dead) return Promise.reject(dead);
    sendOutbox();
    const id = next++;
    // Referenced only while a reply is awaited: an idle store does not keep the process alive.
    if (waiting.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...req, id });
    });
  };
  const rawQuery = async <R extends Row>(sql: string, params: readonly unknown[], tx?: number) =>
    ((await call({ op: "query", sql, params, ...(tx !== undefined ? { tx } : {}) })).rows ?? []) as R[];
  const queryOn =
    (tx?: number): Queryable["query"] =>
    <R extends Row>(sql: string, params: readonly unknown[] = []) => {
      journal?.noteStatement(sql, params);
      return rawQuery<R>(sql, params, tx);
    };

  try {
    await ready;
  } catch (e) {
    await worker.terminate();
    throw e;
  }
  worker.unref();
  const prepared = new Map<string, Promise<unknown>>();

  const db: WorkerDb = {
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
    async batch(stmts) {
      if (stmts.length === 0) return [];
      for (const st of stmts) journal?.noteStatement(st.sql, st.params);
      const script = stmts.map((st) => inlineParams(st.sql, st.params ?? [])).join(";\n");
      return ((await call({ op: "exec", sql: script })).results ?? []) as Row[][];
    },
    async prepared<R extends Row>(name: string, sql: string, params: readonly unknown[]) {
      journal?.noteStatement(sql, params);
      let p = prepared.get(name);
      if (!p) {
        p = call({ op: "prepare", name, sql });
        prepared.set(name, p);
        p.catch(() => prepared.delete(name));
      }
      await p;
      const args = params.map((_, i) => `$${i + 1}`).join(", ");
      const res = await call({ op: "exec", sql: inlineParams(`execute ${name}(${args})`, params) });
      return (res.results?.at(-1) ?? []) as R[];
    },
    async exec(sql) {
      journal?.noteStatement(sql);
      await call({ op: "exec", sql });
    },
    async startJournal(o = {}) {
      if (journal) throw new Error("the turn journal is already started");
      await call({ op: "prepare", name: "baton_turn_apply", sql: turnStatements.apply });
      await call({ op: "journal", statement: "baton_turn_apply", delayMs: o.delayMs ?? 20, maxBatch: o.maxBatch ?? 256 });
      const j = new TurnJournal(
        {
          // Not referenced: a process may exit with turns unapplied; they are in the journal.
          post: (r) => {
            outbox.push(r.bytes.buffer as ArrayBuffer);
            if (!outboxScheduled) {
              outboxScheduled = true;
              setImmediate(sendOutbox);
            }
          },
          // The journal's own reads (headers, its position) change no session.
          query: <R extends Row>(sql: string, params: readonly unknown[] = []) => rawQuery<R>(sql, params),
        },
        o,
      );
      const recovered = await j.recover();
      journal = j;
      db.turnJournal = j;
      return recovered;
    },
    async close() {
      if (dead) return;
      await journal?.close();
      await call({ op: "close" }).catch(() => undefined);
      await worker.terminate();
    },
  };
  return db;
}
