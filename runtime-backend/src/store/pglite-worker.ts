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
  | { readonly id: number; readonly op: "prepare"; readonly name: string; readonly sql: string }
  | { readonly id: number; readonly op: "begin" }
  | { readonly id: number; readonly op: "end"; readonly tx: number; readonly commit: boolean }
  | { readonly id: number; readonly op: "close" }
  | { readonly id: number; readonly op: "journal"; readonly statement: string; readonly delayMs: number; readonly maxBatch: number }
  | { readonly op: "apply"; readonly records: readonly ArrayBuffer[] };

/** A reply: `rows` for query, `results` (rows per statement) for exec. */
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly rows?: unknown[]; readonly results?: unknown[][] }
  | { readonly id: number; readonly ok: false; readonly error: { message: string; props: Record<string, unknown> } };

/**
 * What the worker reports of journaled turns (`apply` requests, which get no reply): every
 * record up to `seq` is in the database, or the record `seq` could not be applied.
 */
export type WorkerNotice =
  | { readonly kind: "applied"; readonly seq: number }
  | { readonly kind: "applyError"; readonly seq: number; readonly sessionId: string; readonly message: string };

class Rollback extends Error {}

const port = parentPort;
if (port) {
  const init = workerData as WorkerInit;
  const pg = new PGlite({ ...(init.dataDir ? { dataDir: init.dataDir } : {}), postgresqlconf: [...init.conf] });
  const txs = new Map<number, { tx: Transaction; end: (commit: boolean) => void; finished: Promise<void> }>();
  const prepared = new Set<string>();

  // Journaled turns (turn-journal.ts) are acknowledged before they reach the database; here
  // they wait a little to be applied many at a time, since nobody waits for them. Every other
  // request first flushes them: PGlite runs statements in the order they are issued, so any
  // read or write that arrives after a turn sees it.
  const journal = { statement: "", delayMs: 20, maxBatch: 256 };
  // A journal record (journal-file.ts): u32 length, u32 crc32, then f64 seq and
  // length-prefixed UTF-8 texts: the session id and the turn's six recordset texts.
  const decoder = new TextDecoder();
  const decode = (bytes: ArrayBuffer) => {
    const view = new DataView(bytes);
    const seq = view.getFloat64(8, true);
    const texts: string[] = [];
    for (let at = 16; at < bytes.byteLength; ) {
      const n = view.getUint32(at, true);
      texts.push(decoder.decode(new Uint8Array(bytes, at + 4, n)));
      at += 4 + n;
    }
    const [sessionId = "", ...rows] = texts;
    return { seq, sessionId, texts: rows };
  };
  let queued: { seq: number; sessionId: string; texts: readonly string[] }[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const quote = (t: string) => `'${t.replace(/'/g, "''")}'`;
  const applyScript = (batch: typeof queued) => {
    const params = [0, 1, 2, 3, 4, 5].map((k) => {
      let list = "";
      for (const r of batch) {
        const t = r.texts[k] ?? "";
        if (t) list += list ? `,${t}` : t;
      }
      return quote(`[${list}]`);
    });
    const last = batch[batch.length - 1]?.seq ?? 0;
    return `execute ${journal.statement}(${params.join(", ")});\nupdate journal_state set applied_seq = greatest(applied_seq, ${last})`;
  };
  const notice = (n: WorkerNotice) => port.postMessage(n);
  const errorOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
  /** Applies a batch; resolves when it (or, after a failure, each of its turns) is done. */
  const applyBatch = async (batch: typeof queued): Promise<void> => {
    try {
      const res = await pg.exec(applyScript(batch));
      // The statement returns the sessions it updated: a turn whose session is missing is reported.
      const found = new Set((res[0]?.rows ?? []).map((r) => String((r as { id: unknown }).id)));
      for (const r of batch) if (!found.has(r.sessionId)) notice({ kind: "applyError", seq: r.seq, sessionId: r.sessionId, message: "its session is not in the store" });
      notice({ kind: "applied", seq: batch[batch.length - 1]?.seq ?? 0 });
    } catch (e) {
      // The statement failed as a whole (it should not: the journal decided every guard). The
      // turns are applied one by one, in order, so one bad record costs only itself; each
      // failure is reported, and the journal's position moves past it.
      if (batch.length === 1) {
        const r = batch[0]!;
        notice({ kind: "applyError", seq: r.seq, sessionId: r.sessionId, message: errorOf(e) });
        await pg.exec(`update journal_state set applied_seq = greatest(applied_seq, ${r.seq})`).catch(() => undefined);
        notice({ kind: "applied", seq: r.seq });
        return;
      }
      for (const r of batch) await applyBatch([r]);
    }
  };
  // Batches run one after another (a second turn of a session must follow the first even when
  // the first is retried), and every other request waits for those already queued.
  let applying: Promise<void> = Promise.resolve();
  const flush = () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    while (queued.length > 0) {
      // One statement updates a session once: a second turn of the same session starts the next batch.
      const seen = new Set<string>();
      let n = 0;
      while (n < queued.length && n < journal.maxBatch && !seen.has(queued[n]!.sessionId)) seen.add(queued[n++]!.sessionId);
      const batch = queued.slice(0, n);
      queued = queued.slice(n);
      applying = applying.then(() => applyBatch(batch));
    }
  };

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
      case "prepare": {
        if (!prepared.has(m.name)) {
          await pg.exec(`prepare ${m.name} as ${m.sql}`);
          prepared.add(m.name);
        }
        return reply({ id: m.id, ok: true });
      }
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
      case "journal": {
        Object.assign(journal, { statement: m.statement, delayMs: m.delayMs, maxBatch: m.maxBatch });
        return reply({ id: m.id, ok: true });
      }
      case "apply":
        return;
      case "close": {
        if (!pg.closed) await pg.close();
        reply({ id: m.id, ok: true });
        port.close();
        return;
      }
    }
  };

  port.on("message", (m: WorkerRequest) => {
    if (m.op === "apply") {
      for (const r of m.records) queued.push(decode(r));
      if (queued.length >= journal.maxBatch) flush();
      else flushTimer ??= setTimeout(flush, journal.delayMs);
      return;
    }
    flush();
    // Statements of an open transaction do not wait: a batch queued behind the transaction
    // waits for it (one connection), and the transaction's own statements must get through.
    const inTransaction = ("tx" in m && m.tx !== undefined) || m.op === "end";
    (inTransaction ? handle(m) : applying.then(() => handle(m))).catch((e: unknown) => fail(m.id, e));
  });
  pg.waitReady.then(
    () => port.postMessage({ id: 0, ok: true }),
    (e: unknown) => fail(0, e),
  );
}
