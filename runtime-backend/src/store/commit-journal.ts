import { join } from "node:path";
import type { Logger } from "../log/logger.js";
import { commitSql } from "./commit-sql.js";
import type { Db, Row } from "./db.js";
import { encodeRecord, JournalWriter, recordTexts, removeSegments, scanJournal } from "./journal-file.js";

/**
 * Write-behind for the embedded store's commits (Node only: files). A commit the store is sure
 * of (`SessionStore`: its own last commit to the session set the version and the lease, and no
 * stop or other write to that session went through it since) is made durable by appending its
 * rows to the journal, and acknowledged then; the same rows go to the engine's worker at once
 * (`Db.post`), so any statement sent later runs behind them, and the worker applies consecutive
 * ones as one `commitSql` statement, recording the last record applied in the same
 * transaction. The journal is as durable as PGlite's own WAL: both survive the process being
 * killed, neither is fsynced.
 *
 * Why: a commit that waits for the engine waits for the statement in flight and then its own,
 * on a core the engine shares, 5–10 ms at the median under 1,000 sessions, and every GC pause
 * or checkpoint lengthens that queue (docs/benchmarks.md, "fifth session"). Appending costs
 * tens of microseconds on this thread.
 *
 * Nothing is decided here: the statement applies the same version, lease and stop rules as
 * for any commit. The store takes this path only when those rules cannot refuse; if one
 * nevertheless does, or the statement fails, that is logged as an error and the session's next
 * commit waits for the engine (and meets the conflict there).
 */
export class CommitJournal {
  private seq: number;
  private appliedSeq: number;
  private readonly writer: JournalWriter;
  private last: Promise<unknown> = Promise.resolve();
  /** Callers of {@link room} waiting for the engine to catch up. */
  private readonly waiting: (() => void)[] = [];

  private constructor(
    private readonly db: Db & Required<Pick<Db, "post">>,
    dir: string,
    lastSeq: number,
    private readonly logger: Logger | undefined,
  ) {
    this.seq = lastSeq;
    this.appliedSeq = lastSeq;
    this.writer = new JournalWriter(dir);
  }

  /**
   * The journal of the embedded store in `dataDir` (its `baton_commits/`), or undefined for a
   * store without one: in memory, on Postgres, or with the engine on the calling thread (no
   * `Db.post`). Applies first what the journal holds past the last record the database applied
   * (a crash left it there) and empties it; numbering goes on from there.
   */
  static async open(db: Db, dataDir: string | undefined, logger?: Logger): Promise<CommitJournal | undefined> {
    if (!dataDir || !db.post) return undefined;
    const dir = join(dataDir, "baton_commits");
    const posting = db as Db & Required<Pick<Db, "post">>;
    const scan = scanJournal(dir);
    const [row] = await db.query<{ applied_seq: string | number }>("select applied_seq from commit_journal");
    const done = Number(row?.applied_seq ?? 0);
    const todo = scan.records.filter((r) => r.seq > done);
    const outcomes = await Promise.all(todo.map((r) => apply(posting, recordTexts(r), r.seq)));
    const lost = outcomes.filter((o) => o !== "applied").length;
    if (todo.length) logger?.info({ applied: todo.length - lost, lost }, "commit journal: applied the commits a crash left unapplied");
    if (lost) logger?.error({ lost }, "commit journal: acknowledged commits could not be applied");
    removeSegments(dir);
    return new CommitJournal(posting, dir, Math.max(scan.lastSeq, done), logger);
  }

  /**
   * Journals one session's commit (`commitParams` of that commit alone, without its last
   * parameter) and hands it to the engine; durable when this returns. `onLost` is called if
   * the engine then refuses it or fails.
   */
  commit(sessionId: string, params: readonly string[], onLost: () => void): void {
    const seq = ++this.seq;
    const texts = params.slice(0, 6);
    this.writer.append(encodeRecord(seq, texts));
    const done = apply(this.db, texts, seq, sessionId).then((outcome) => {
      if (outcome !== "applied") {
        this.logger?.error({ sessionId, seq, outcome }, "commit journal: an acknowledged commit could not be applied");
        onLost();
      }
      this.appliedSeq = seq;
      this.writer.release(seq);
      for (const r of this.waiting.splice(0)) r();
    });
    this.last = done;
  }

  /**
   * Resolves once fewer than {@link maxBehind} journaled commits wait to be applied (at once
   * when they do): past that the engine is not keeping up, and callers are slowed down to its
   * pace instead of piling commits up in its queue.
   */
  async room(): Promise<void> {
    while (this.seq - this.appliedSeq >= maxBehind) await new Promise<void>((r) => this.waiting.push(r));
  }

  /** Waits for every journaled commit to be applied, then closes the journal (emptied when all were). */
  async close(): Promise<void> {
    await this.last;
    this.writer.close(this.appliedSeq === this.seq);
  }
}

/** Most journaled commits waiting to be applied (about 0.25–0.5 s of the engine's work at full load). */
const maxBehind = 1024;

/** Runs one journaled commit through `Db.post`: "applied", "refused" (no row for its session) or the error's message. */
async function apply(db: Db & Required<Pick<Db, "post">>, texts: readonly string[], seq: number, sessionId = sessionOf(texts)): Promise<string> {
  try {
    // Keyed by session: two commits of one session never run in one statement.
    const rows = await db.post<Row>("baton_commit", commitSql, [...texts, `[${seq}]`], sessionId);
    return rows.some((r) => r.id === sessionId) ? "applied" : "refused";
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** The session a journaled commit's first parameter (its session row, `[{"id":…}]`) names. */
function sessionOf(texts: readonly string[]): string {
  const [row] = JSON.parse(texts[0] ?? "[]") as { id?: string }[];
  return String(row?.id ?? "");
}
