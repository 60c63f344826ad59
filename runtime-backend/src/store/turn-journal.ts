import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import type { Logger } from "../log/logger.js";
import type { Queryable, Row } from "./db.js";
import { encodeRecord, type JournalRecord, JournalWriter, removeSegments, scanJournal } from "./journal-file.js";
import { appliedSessionJson, type TurnWrite } from "./turns.js";
import { turnRowKeys, turnRows } from "./turn-rows.js";

/**
 * Write-behind for the embedded store's hot path. A model turn is committed by appending it
 * to the journal (`journal-file.ts`) and acknowledged then; the store's worker applies the
 * journaled turns to PGlite in the background, many per statement, in order
 * (`pglite-worker.ts`). The journal is as durable as PGlite's own WAL (both survive the
 * process being killed; neither is fsynced), and on start the turns it holds past the last
 * applied one are applied before anything else runs, so an acknowledged turn is never lost
 * and never applied twice (the database records the last applied number in the same
 * transaction as the turns).
 *
 * Why: a turn written through SQL waited for the worker's statement (2 ms for one turn, 20 ms
 * for 64 under load) and for the statement ahead of it, and all the turns of one statement
 * were answered in the same instant — which kept sessions in lockstep. Appending costs tens
 * of microseconds on this thread and answers each turn when it is decided.
 *
 * What SQL decided in the statement — the version guard, the lease, the stop flag, the usage
 * totals, the timestamp — is decided here, from a copy of those columns of each session row
 * (its "header"). Every other write goes to the worker behind the journaled turns, and one
 * that can change a session row drops that session's header (or all of them), which is read
 * again, behind it, when the session next commits a turn: {@link noteStatement}.
 */

/** The columns of a session row a turn's commit reads or returns. */
interface Header {
  readonly historyLen: number;
  readonly leaseUntil: number | null;
  readonly leaseOwner: string;
  readonly stopRequested: boolean;
  readonly reason: string;
  readonly answer: string;
  readonly input: number;
  readonly output: number;
  readonly cached: number;
  readonly cost: number;
}

function headerOf(r: Row): Header {
  const lease = r.lease_until == null ? null : new Date(r.lease_until as string | Date).getTime();
  return {
    historyLen: Number(r.history_len),
    leaseUntil: lease,
    leaseOwner: String(r.lease_owner ?? ""),
    stopRequested: Boolean(r.stop_requested),
    reason: String(r.reason ?? ""),
    answer: String(r.answer ?? ""),
    input: Number(r.input_tokens),
    output: Number(r.output_tokens),
    cached: Number(r.cached_tokens),
    cost: Number(r.cost_usd),
  };
}

const headerSql = `select id, history_len, lease_until, lease_owner, stop_requested, reason, answer, input_tokens, output_tokens, cached_tokens, cost_usd
  from sessions where id = any(array(select json_array_elements_text($1::json)))`;

// A statement can change a session row only by updating or deleting it (or truncating the table).
const changesSessions = /\b(?:update\s+sessions|delete\s+from\s+sessions|truncate\s+(?:table\s+)?sessions)\b/i;
// ...and then only the row `$1` names, when that is its only condition on the id.
const onlyFirstParam = /\bwhere\s+(?:\w+\.)?id\s*=\s*\$1\b/i;

/** What the journal needs of the store's worker. */
export interface JournalChannel {
  /**
   * Hands a journaled turn to the worker to apply (no reply; its buffer is transferred, not
   * copied). Whatever `query` runs later runs behind it.
   */
  post(r: JournalRecord): void;
  /** Runs a read behind everything posted so far. */
  readonly query: Queryable["query"];
}

/** Options of {@link TurnJournal}. */
export interface TurnJournalOptions {
  /** Directory of the journal's files; none for an in-memory store (nothing to recover). */
  readonly dir?: string | undefined;
  readonly logger?: Logger | undefined;
}

/** Counters for tests and benchmarks. */
export interface JournalStats {
  /** Number of the last journaled turn. */
  readonly lastSeq: number;
  /** Number of the last turn the worker reported applied. */
  readonly appliedSeq: number;
  /** Turns that could not be applied (each is logged). */
  readonly applyErrors: number;
  /** Session headers read from the store (first commits, and after writes that changed a session). */
  readonly headerReads: number;
}

/** The embedded store's turn commits: see the module comment. */
export class TurnJournal {
  private readonly headers = new Map<string, Header>();
  /** Bumped by every write that drops headers, so a header read that raced one is read again. */
  private epoch = 0;
  private seq = 0;
  private applied = 0;
  private applyErrors = 0;
  private headerReads = 0;
  private writer: JournalWriter | undefined;
  private pendingReads: { ids: Set<string>; done: Promise<Map<string, Header>> } | undefined;
  private failed: Error | undefined;

  constructor(
    private readonly channel: JournalChannel,
    private readonly o: TurnJournalOptions = {},
  ) {}

  /**
   * Applies what the journal in `dir` holds past the store's last applied turn (a crash left
   * it there), then starts a new segment. Returns how many turns it applied.
   */
  async recover(): Promise<number> {
    const [row] = await this.channel.query<{ applied_seq: number | string }>("select applied_seq from journal_state");
    this.applied = Number(row?.applied_seq ?? 0);
    let replayed = 0;
    if (this.o.dir) {
      const scan = scanJournal(this.o.dir);
      if (scan.tornBytes > 0) {
        this.o.logger?.warn({ bytes: scan.tornBytes }, "turn journal: dropped a record cut short by a crash (it was never acknowledged)");
      }
      for (const r of scan.records) {
        if (r.seq <= this.applied) continue;
        this.channel.post(r);
        replayed++;
      }
      this.seq = Math.max(this.applied, scan.lastSeq);
      if (replayed > 0) {
        // A read runs behind the posted turns: once it answers, they are in the database.
        const [after] = await this.channel.query<{ applied_seq: number | string }>("select applied_seq from journal_state");
        this.applied = Number(after?.applied_seq ?? 0);
        if (this.applied < this.seq) throw new Error(`turn journal: replay stopped at turn ${this.applied} of ${this.seq}; see the errors above`);
        this.o.logger?.info({ turns: replayed }, "turn journal: applied the turns a crash left unapplied");
      }
      removeSegments(this.o.dir);
      this.writer = new JournalWriter(this.o.dir);
    }
    this.seq = Math.max(this.seq, this.applied);
    return replayed;
  }

  /**
   * Commits a turn: decides it against the session's header, journals it, queues it for the
   * worker and answers as the SQL statement would (the session's stored-side columns), or
   * undefined when the version guard or a live lease of another instance refuses it.
   */
  async commit(t: TurnWrite): Promise<Row | undefined> {
    if (this.failed) throw this.failed;
    let h = this.headers.get(t.sessionId);
    while (h === undefined) {
      const epoch = this.epoch;
      const read = (await this.readHeaders(t.sessionId)).get(t.sessionId);
      if (read === undefined) return undefined;
      if (this.epoch === epoch) {
        if (this.headers.size >= 100_000) this.headers.clear();
        this.headers.set(t.sessionId, read);
      }
      h = this.headers.get(t.sessionId);
    }
    // From here to the append nothing awaits: the decision and the journal order are one step.
    const now = Date.now();
    if (h.historyLen !== t.expectLen) return undefined;
    if (h.leaseUntil !== null && h.leaseUntil >= now && h.leaseOwner !== t.owner) return undefined;
    const status = t.session.stopGuard && h.stopRequested ? SessionStatus.STOPPED : t.session.status;
    const leaseOwner = t.session.leaseOwner ?? h.leaseOwner;
    const u = t.trace.usage;
    const totals = { input: h.input + u.input, output: h.output + u.output, cached: h.cached + u.cached, cost: h.cost + u.cost };
    const updatedAt = new Date(now);
    const rows = turnRows(t);
    const session = appliedSessionJson(t, { status, leaseOwner, totals, updatedAt, storeResponse: !h.stopRequested });
    const record = encodeRecord(this.seq + 1, t.sessionId, [session, ...turnRowKeys.map((k) => rows[k])]);
    this.writer?.append(record);
    this.seq = record.seq;
    this.channel.post(record);
    const leaseUntil = t.session.leaseUntil;
    this.headers.set(t.sessionId, {
      ...h,
      historyLen: t.expectLen + t.history.length,
      leaseUntil: leaseUntil?.getTime() ?? null,
      leaseOwner,
      ...totals,
    });
    return {
      id: t.sessionId,
      status,
      stop_requested: h.stopRequested,
      reason: h.reason,
      answer: h.answer,
      input_tokens: totals.input,
      output_tokens: totals.output,
      cached_tokens: totals.cached,
      cost_usd: totals.cost,
      lease_until: leaseUntil,
      lease_owner: leaseOwner,
      updated_at: updatedAt,
    };
  }

  /** Reads the headers of sessions whose turns commit in the same tick with one statement. */
  private readHeaders(id: string): Promise<Map<string, Header>> {
    if (this.pendingReads) {
      this.pendingReads.ids.add(id);
      return this.pendingReads.done;
    }
    const ids = new Set([id]);
    const done = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      this.pendingReads = undefined;
      this.headerReads += ids.size;
      const rows = await this.channel.query(headerSql, [JSON.stringify([...ids])]);
      return new Map(rows.map((r) => [String(r.id), headerOf(r)]));
    });
    this.pendingReads = { ids, done };
    return done;
  }

  /**
   * Called with every statement sent to the store outside the journal, before it is sent.
   * One that can change session rows drops their headers: the next commit of such a session
   * reads its row again, behind that statement.
   */
  noteStatement(sql: string, params: readonly unknown[] = []): void {
    if (!changesSessions.test(sql)) return;
    this.epoch++;
    const id = params[0];
    if (onlyFirstParam.test(sql) && typeof id === "string") this.headers.delete(id);
    else this.headers.clear();
  }

  /** The worker applied every turn up to `seq`: their segments can go. */
  onApplied(seq: number): void {
    if (seq > this.applied) this.applied = seq;
    this.writer?.release(this.applied);
  }

  /** The worker could not apply a turn: the store and what the client was told now differ for that session. */
  onApplyError(seq: number, sessionId: string, message: string): void {
    this.applyErrors++;
    this.headers.delete(sessionId);
    this.o.logger?.error({ seq, sessionId, err: message }, "turn journal: a journaled turn could not be applied to the store");
  }

  /** The worker is gone: refuse further commits (they could not be applied). */
  fail(e: Error): void {
    this.failed = e;
  }

  /** Counters (see {@link JournalStats}). */
  stats(): JournalStats {
    return { lastSeq: this.seq, appliedSeq: this.applied, applyErrors: this.applyErrors, headerReads: this.headerReads };
  }

  /**
   * Waits until the worker has applied every journaled turn, then closes the journal's file,
   * deleting its segments (their turns are in the database).
   */
  async close(): Promise<void> {
    if (!this.failed) {
      // A read runs behind every posted turn: its answer is the last one applied.
      const [row] = await this.channel.query<{ applied_seq: number | string }>("select applied_seq from journal_state").catch(() => []);
      if (row) this.onApplied(Number(row.applied_seq));
    }
    this.writer?.close(!this.failed && this.applied >= this.seq && this.applyErrors === 0);
    this.writer = undefined;
  }
}
