import type { HistoryEntry, LogEntry, Playbook, StepResponse, StepTrace } from "@baton/gen/baton/v1/agent_pb";
import type { MemoryRecord } from "@baton/gen/baton/v1/tools_pb";
import { commitSql, leaseFreeSql, readStepSql, renewLeaseSql } from "./commit-sql.js";
import { SessionConflict } from "./conflict.js";
import { defaultBudget } from "./budgets.js";
import type { Db, Row } from "./db.js";
import { Grouper } from "./group.js";
import { countLogs, insertLogs, readLogs } from "./logs.js";
import { type MemorySource, saveMemory, searchMemory } from "./memory.js";
import { getPlaybook, listPlaybooks, savePlaybookVersion } from "./playbooks.js";
import { type CallRow, type ClientResult, callFromRow, callsById, callsOfStep, readHistory, recentClientResults } from "./records.js";
import { commitParams, type CommitRows, commitRows, type SessionCommit } from "./session-commit.js";
import { type BudgetLimits, clearLeases, getSessionRow, insertSession, type NewSession, requestStop, type SessionRow, sessionAfter, type SessionVerdict, sessionFromRow, setVerdict } from "./sessions.js";
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

interface PendingCommit {
  readonly commit: SessionCommit;
  readonly rows: CommitRows;
}

/**
 * The one face of the store for the agent loop: everything a session's steps read and persist
 * goes through here, so the rules that keep a session consistent (its version, its lease, the
 * stop guard: `commit-sql.ts`) are applied in one place and the loop sees no SQL.
 *
 * Reads and commits of concurrent sessions are grouped: each call is queued and every call
 * that arrives while the previous statement runs goes into the next one (`group.ts`), so a
 * busy store runs one statement for many sessions. A commit resolves once its statement has
 * committed; a lost race rejects it with {@link SessionConflict} and writes nothing.
 *
 * The same module runs in the server (PGlite in a worker thread, or Postgres) and in a browser
 * page (PGlite on IndexedDB): it knows only the {@link Db} interface.
 *
 * @example
 * const store = new SessionStore(db);
 * const at = await store.readStep(sessionId, "");
 * const session = await store.commit({ from: at!.session, owner: "agent_1", lease: null, set: { status: SessionStatus.IDLE } });
 */
export class SessionStore {
  private readonly reads: Grouper<{ id: string; key: string }, Row | undefined>;
  private readonly commits: Grouper<PendingCommit, Row | undefined>;

  constructor(readonly db: Db) {
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
    const session = sessionFromRow(row);
    return {
      session,
      calls: callRows.map(callFromRow),
      stored: inputKey ? storedResponse(session, row.stored_body, row.stored_response) : undefined,
    };
  }

  /**
   * Commits a change to a session (see {@link SessionCommit}), grouped with other sessions'
   * commits in one statement. Resolves after it committed, with the session as the statement
   * left it; rejects with {@link SessionConflict} (nothing written) when the session moved on
   * or another instance holds it.
   */
  async commit(c: SessionCommit): Promise<SessionRow> {
    const row = await this.commits.submit({ commit: c, rows: commitRows(c) });
    if (!row) throw new SessionConflict(c.from.id);
    return sessionAfter(c.from, c.set?.context ?? c.from.context, row);
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
    await this.db.query("update sessions set lease_until = null where id = $1 and lease_owner = $2", [id, owner]);
  }

  /**
   * Clears every lease. Only for an embedded store at start: one process holds it, so any lease
   * found then belongs to a process that died. Returns how many there were.
   */
  clearLeases(): Promise<number> {
    return clearLeases(this.db);
  }

  /** Sets the stop flag (with its reason); a step running anywhere sees it before its next model call. */
  requestStop(id: string, reason: string): Promise<void> {
    return requestStop(this.db, id, reason);
  }

  /** Records the client's verdict on a finished session (ReportVerdict). */
  setVerdict(id: string, verdict: SessionVerdict): Promise<void> {
    return setVerdict(this.db, id, verdict);
  }

  /** Settles a stop for a session no step holds (its lease free or expired): its status becomes STOPPED. */
  async settleStop(id: string, stopped: number): Promise<void> {
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

  /** Saves a memory record with where it came from; `from.key` (a session's toolcall) makes a retried save a no-op. Returns its id. */
  saveMemory(userId: string, text: string, tags: readonly string[], from: MemorySource): Promise<string> {
    return saveMemory(this.db, userId, text, tags, from);
  }

  /** A session's latest client calls that have a result, newest first: where the agent's browser was. */
  recentClientResults(id: string, limit: number): Promise<ClientResult[]> {
    return recentClientResults(this.db, id, limit);
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

  /** A user's default budget for new sessions. */
  defaultBudget(userId: string): Promise<BudgetLimits> {
    return defaultBudget(this.db, userId);
  }
}
