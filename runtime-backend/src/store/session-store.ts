import type { HistoryEntry, LogEntry, Playbook, StepResponse, StepTrace } from "@baton/gen/baton/v1/agent_pb";
import type { MemoryRecord } from "@baton/gen/baton/v1/tools_pb";
import type { CommitJournal } from "./commit-journal.js";
import { commitSql, leaseFreeSql, readStepSql, renewLeaseSql } from "./commit-sql.js";
import { SessionConflict } from "./conflict.js";
import type { Db, Row } from "./db.js";
import { Grouper } from "./group.js";
import { countLogs, insertLogs, readLogs } from "./logs.js";
import { saveMemory, searchMemory } from "./memory.js";
import { getPlaybook, listPlaybooks, savePlaybookVersion } from "./playbooks.js";
import { type CallRow, callFromRow, callsById, callsOfStep, readHistory } from "./records.js";
import { commitParams, type CommitRows, commitRows, type SessionCommit } from "./session-commit.js";
import { clearLeases, getSessionRow, insertSession, leaseUntilOf, type NewSession, requestStop, type SessionRow, type SessionVerdict, sessionFromRow, setVerdict, usageFromRow } from "./sessions.js";
import { storedResponse } from "./stored-response.js";
import { deleteScreenshots, insertScreenshots, readScreenshot, readScreenshots, type StoredScreenshot } from "./screenshots.js";
import { readTraces } from "./traces.js";

export { SessionConflict } from "./conflict.js";
export type { CallUpdate, SessionCommit, SessionSet } from "./session-commit.js";

/** Where a step starts: the session, its current step's calls, and a response already stored for the input. */
export interface StepState {
  readonly session: SessionRow;
  readonly calls: CallRow[];
  /** The response stored under the input's key: the input was processed before. */
  readonly stored: StepResponse | undefined;
}

/** What a commit wrote: the session as it now stands, and the stored response's bytes. */
export interface Committed {
  readonly session: SessionRow;
  /** The protobuf bytes of `SessionCommit.response`, as stored (undefined when none was stored). */
  readonly responseBytes: Uint8Array | undefined;
}

interface PendingCommit {
  readonly commit: SessionCommit;
  readonly rows: CommitRows;
}

/** Options of a {@link SessionStore}. */
export interface SessionStoreOptions {
  /**
   * The embedded store's write-behind (Node, a data directory): commits the store is sure of
   * are acknowledged once journaled, not once applied (`commit-journal.ts`).
   */
  readonly journal?: CommitJournal | undefined;
}

/** Most sessions whose state the store keeps knowing (see `known`). */
const maxKnown = 100_000;

/**
 * The one face of the store for the agent loop: everything a session's steps read and persist
 * goes through here, so the rules that keep a session consistent (its version, its lease, the
 * stop guard: `commit-sql.ts`) are applied in one place and the loop sees no SQL.
 *
 * Reads and commits of concurrent sessions are grouped: each call is queued and every call
 * that arrives while the previous statement runs goes into the next one (`group.ts`), so a
 * busy store runs one statement for many sessions. A commit resolves once its statement has
 * committed — or, on an embedded store with a commit journal, once journaled when the statement
 * cannot refuse it (`commit-journal.ts`); a lost race rejects it with {@link SessionConflict}
 * and writes nothing.
 *
 * The same module runs in the server (PGlite in a worker thread, or Postgres) and in a browser
 * page (PGlite on IndexedDB): it knows only the {@link Db} interface.
 *
 * @example
 * const store = new SessionStore(db);
 * const at = await store.readStep(sessionId, "");
 * const { session } = await store.commit({ from: at!.session, owner: "agent_1", lease: null, set: { status: SessionStatus.IDLE } });
 */
export class SessionStore {
  private readonly reads: Grouper<{ id: string; key: string }, Row | undefined>;
  private readonly commits: Grouper<PendingCommit, Row | undefined>;
  private readonly journal: CommitJournal | undefined;
  /**
   * Sessions whose row this store knows exactly: the history length its own last commit to
   * each left, while no other write to the session (a stop, a lease released) went through it
   * since. Only an embedded store, one process's, can know that.
   */
  private readonly known = new Map<string, number>();
  /** Counts the writes that make a session's row unknown, so a commit that overlapped one does not mark it known. */
  private touches = 0;

  constructor(
    readonly db: Db,
    o: SessionStoreOptions = {},
  ) {
    this.journal = o.journal;
    // The embedded engine runs one statement at a time anyway; a pool takes a few at once.
    const concurrency = db.kind === "embedded" ? 1 : 4;
    this.reads = new Grouper((items) => this.readGroup(items), concurrency);
    this.commits = new Grouper((items) => this.commitGroup(items), concurrency, 256, (p) => p.commit.from.id);
  }

  private async readGroup(items: { id: string; key: string }[]): Promise<(Row | undefined)[]> {
    const rows = await this.db.prepared("baton_step_read", readStepSql, [JSON.stringify(items)]);
    const byKey = new Map(rows.map((r) => [`${String(r.id)}\u0000${String(r.read_key)}`, r]));
    return items.map((i) => byKey.get(`${i.id}\u0000${i.key}`));
  }

  private async commitGroup(items: PendingCommit[]): Promise<(Row | undefined)[]> {
    const rows = await this.db.prepared("baton_commit", commitSql, commitParams(items.map((i) => i.rows)));
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    return items.map((i) => byId.get(i.commit.from.id));
  }

  // ---- sessions ----

  /** Creates a session, or returns the one this user already created under the same idempotency key. */
  createSession(s: NewSession): Promise<SessionRow> {
    return insertSession(this.db, s);
  }

  /** A session as stored, or undefined. */
  readSession(id: string): Promise<SessionRow | undefined> {
    return getSessionRow(this.db, id);
  }

  /**
   * Where a step starts, in one statement grouped with other sessions' reads: the session, its
   * current step's calls, and the response stored under `inputKey` ("" for none).
   */
  async readStep(id: string, inputKey: string): Promise<StepState | undefined> {
    const row = await this.reads.submit({ id, key: inputKey });
    if (!row) return undefined;
    const callRows = (typeof row.step_calls === "string" ? JSON.parse(row.step_calls) : row.step_calls) as Row[];
    return {
      session: sessionFromRow(row),
      calls: callRows.map(callFromRow),
      stored: inputKey ? storedResponse(row.stored_body, row.stored_response) : undefined,
    };
  }

  /**
   * Commits a change to a session (see {@link SessionCommit}), grouped with other sessions'
   * commits in one statement. Resolves after it committed (or was journaled, see the class
   * comment), with the session as it now stands;
   * rejects with {@link SessionConflict} (nothing written) when the session moved on or another
   * instance holds it.
   */
  async commit(c: SessionCommit): Promise<Committed> {
    const rows = commitRows(c);
    const s = c.from;
    const historyLen = s.historyLen + (c.history?.length ?? 0);
    let row: Row | undefined;
    if (this.journal && this.sure(c) && (await this.journal.room(), this.sure(c))) {
      this.journal.commit(s.id, commitParams([rows]), () => this.known.delete(s.id));
      row = appliedRow(c);
      this.know(s.id, historyLen);
    } else {
      // Unknown while it is in flight, so that no other commit to the session is taken for sure.
      this.known.delete(s.id);
      const touches = this.touches;
      row = await this.commits.submit({ commit: c, rows });
      if (!row) throw new SessionConflict(s.id);
      if (this.journal && touches === this.touches && !row.stop_requested) this.know(s.id, historyLen);
    }
    const set = c.set ?? {};
    // The statement returns what the store decided (status under the stop guard, totals,
    // lease, timestamp); the rest is what this commit wrote, so the context is not parsed back.
    const context = set.context ?? s.context;
    const session: SessionRow = {
      ...s,
      step: set.step ?? s.step,
      goal: set.goal ?? s.goal,
      context,
      contextFrom: rows.contextFrom ?? s.contextFrom,
      historyLen,
      inputKey: set.inputKey ?? s.inputKey,
      status: Number(row.status),
      stopRequested: Boolean(row.stop_requested),
      reason: String(row.reason),
      answer: String(row.answer),
      usage: usageFromRow(row),
      leaseUntil: leaseUntilOf(row),
      leaseOwner: String(row.lease_owner),
      updatedAt: new Date(row.updated_at as string | Date),
    };
    const stored = rows.responseBytes && !(c.stopGuard && session.stopRequested);
    return { session, responseBytes: stored ? rows.responseBytes : undefined };
  }

  /**
   * Whether `commitSql` cannot refuse `c`: this store's own last commit to the session left the
   * history length `c` starts from, nothing else was written to the session since, no stop is
   * requested, and the lease is free or the committer's.
   */
  private sure(c: SessionCommit): boolean {
    const s = c.from;
    return this.known.get(s.id) === s.historyLen && !s.stopRequested && (s.leaseUntil === null || s.leaseOwner === c.owner);
  }

  /** Remembers the history length a commit of this store left, the oldest entry dropped past {@link maxKnown}. */
  private know(id: string, historyLen: number): void {
    this.known.delete(id);
    this.known.set(id, historyLen);
    if (this.known.size > maxKnown) this.known.delete(this.known.keys().next().value as string);
  }

  /** A write that makes a session's row unknown (`undefined`: every session's). */
  private touch(id?: string): void {
    this.touches++;
    if (id === undefined) this.known.clear();
    else this.known.delete(id);
  }

  /**
   * Renews a running step's lease until `until` (free, expired or `owner`'s own); returns the
   * stop flag, or undefined when another instance holds the session.
   */
  async renewLease(id: string, owner: string, until: Date): Promise<{ stopRequested: boolean } | undefined> {
    const [row] = await this.db.query<{ stop_requested: boolean }>(renewLeaseSql, [id, until, owner]);
    return row ? { stopRequested: Boolean(row.stop_requested) } : undefined;
  }

  /** Releases `owner`'s lease on a session (a step that failed), so another request may run it at once. */
  async releaseLease(id: string, owner: string): Promise<void> {
    this.touch(id);
    await this.db.query("update sessions set lease_until = null where id = $1 and lease_owner = $2", [id, owner]);
  }

  /**
   * Clears every lease. Only for an embedded store at start: one process holds it, so any lease
   * found then belongs to a process that died. Returns how many there were.
   */
  clearLeases(): Promise<number> {
    this.touch();
    return clearLeases(this.db);
  }

  /** Sets the stop flag (with its reason); a step running anywhere sees it before its next model call. */
  requestStop(id: string, reason: string): Promise<void> {
    this.touch(id);
    return requestStop(this.db, id, reason);
  }

  /** Records the client's verdict on a finished session (ReportVerdict). */
  setVerdict(id: string, verdict: SessionVerdict): Promise<void> {
    this.touch(id);
    return setVerdict(this.db, id, verdict);
  }

  /** Settles a stop for a session no step holds (its lease free or expired): its status becomes STOPPED. */
  async settleStop(id: string, stopped: number): Promise<void> {
    this.touch(id);
    await this.db.query(`update sessions t set status = $2, updated_at = now() where t.id = $1 and ${leaseFreeSql("t", "''")}`, [id, stopped]);
  }

  // ---- a session's records ----

  /** The whole history, oldest first. */
  history(id: string): Promise<HistoryEntry[]> {
    return readHistory(this.db, id);
  }

  /** The calls of one step, in the order the model made them. */
  callsOfStep(id: string, step: number): Promise<CallRow[]> {
    return callsOfStep(this.db, id, step);
  }

  /** Calls of any step by toolcall id (late results for an earlier step). */
  callsById(id: string, ids: readonly string[]): Promise<Map<string, CallRow>> {
    return callsById(this.db, id, ids);
  }

  /** The response stored under an input's key, if that input was processed. */
  async storedResponse(id: string, inputKey: string): Promise<StepResponse | undefined> {
    const rows = await this.db.query<{ response: unknown; body: unknown }>("select response, body from responses where session_id = $1 and input_key = $2", [id, inputKey]);
    return rows[0] ? storedResponse(rows[0].body, rows[0].response) : undefined;
  }

  /** True when a response is stored under a key starting with `prefix` (an idempotency key used before). */
  async keyUsed(id: string, prefix: string): Promise<boolean> {
    const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return (await this.db.query("select 1 from responses where session_id = $1 and input_key like $2 limit 1", [id, like])).length > 0;
  }

  /** One trace per step, by step. */
  traces(id: string): Promise<StepTrace[]> {
    return readTraces(this.db, id);
  }

  /** Client log entries of a session, oldest first. */
  logs(id: string): Promise<LogEntry[]> {
    return readLogs(this.db, id);
  }

  /** How many client log entries a session keeps. */
  countLogs(id: string): Promise<number> {
    return countLogs(this.db, id);
  }

  /** Stores client log entries (the caller redacts them first); returns how many. */
  addLogs(id: string, userId: string, entries: readonly LogEntry[]): Promise<number> {
    return insertLogs(this.db, id, userId, entries);
  }

  /** Stores an input's screenshots (one already stored under its id stays); returns the ids this call stored. */
  saveScreenshots(id: string, shots: readonly StoredScreenshot[]): Promise<string[]> {
    return insertScreenshots(this.db, id, shots);
  }

  /** Removes screenshots stored for an input that was then refused. */
  dropScreenshots(id: string, ids: readonly string[]): Promise<void> {
    return deleteScreenshots(this.db, id, ids);
  }

  /** The screenshots with these ids (those that exist). */
  screenshots(id: string, ids: readonly string[]): Promise<StoredScreenshot[]> {
    return readScreenshots(this.db, id, ids);
  }

  /** One screenshot with the step of the call that returned it. */
  screenshot(id: string, screenshotId: string): Promise<(StoredScreenshot & { step: number }) | undefined> {
    return readScreenshot(this.db, id, screenshotId);
  }

  // ---- a user's memory and playbooks ----

  /** Saves a memory record; `key` (a session's toolcall) makes a retried save a no-op. Returns its id. */
  saveMemory(userId: string, text: string, tags: readonly string[], sessionId: string, key: string): Promise<string> {
    return saveMemory(this.db, userId, text, tags, sessionId, key);
  }

  /** Full-text search over one user's memory, best first. */
  searchMemory(userId: string, query: string, limit: number): Promise<MemoryRecord[]> {
    return searchMemory(this.db, userId, query, limit);
  }

  /** Saves a playbook as its next version (see `savePlaybookVersion`), in one transaction. */
  savePlaybook(userId: string, p: Playbook, isNew: boolean): Promise<Playbook | undefined> {
    return this.db.transaction((tx) => savePlaybookVersion(tx, userId, p, isNew));
  }

  /** One version of a playbook (the latest for 0). */
  playbook(userId: string, name: string, version: number): Promise<Playbook | undefined> {
    return getPlaybook(this.db, userId, name, version);
  }

  /** The latest version of each of a user's playbooks. */
  playbooks(userId: string): Promise<Playbook[]> {
    return listPlaybooks(this.db, userId);
  }
}

/**
 * The columns `commitSql` returns for `c` when nothing refuses it and no stop is requested
 * (the only commits {@link SessionStore} journals): what the statement will write.
 */
function appliedRow(c: SessionCommit): Row {
  const s = c.from;
  const set = c.set ?? {};
  const u = c.trace?.usage;
  return {
    id: s.id,
    status: set.status ?? s.status,
    stop_requested: false,
    reason: set.reason ?? s.reason,
    answer: set.answer ?? s.answer,
    input_tokens: s.usage.input + (u?.input ?? 0),
    output_tokens: s.usage.output + (u?.output ?? 0),
    cached_tokens: s.usage.cached + (u?.cached ?? 0),
    cost_usd: s.usage.cost + (u?.cost ?? 0),
    lease_until: c.lease,
    lease_owner: c.lease ? c.owner : s.leaseOwner,
    updated_at: new Date(),
  };
}
