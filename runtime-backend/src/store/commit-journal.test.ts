import { cpSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { afterEach, describe, expect, it } from "vitest";
import { emptyContext } from "../context/state.js";
import { createLogger } from "../log/logger.js";
import { holdTransaction } from "../testing/hold-transaction.js";
import { tempDirs } from "../testing/temp-dirs.js";
import { nextTurn } from "../testing/turn-writes.js";
import { CommitJournal } from "./commit-journal.js";
import type { Db } from "./db.js";
import { openDb } from "./open.js";
import { type Committed, SessionConflict, SessionStore } from "./session-store.js";
import type { SessionRow } from "./sessions.js";
import { ensureUser } from "./users.js";

const { fresh, removeAll } = tempDirs("baton-commit-journal-");
const opened: { db: Db; journal: CommitJournal | undefined }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.journal?.close();
    await o.db.close();
  }
  removeAll();
});

/** Log lines, as JSON objects. */
const logged: Record<string, unknown>[] = [];
const logger = createLogger({
  level: "info",
  destination: new Writable({
    write(chunk: Buffer, _enc, done) {
      logged.push(...chunk.toString().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>));
      done();
    },
  }),
});

async function openStore(dataDir: string) {
  const db = await openDb({ dataDir });
  const journal = await CommitJournal.open(db, dataDir, logger);
  opened.push({ db, journal });
  return { db, journal, store: new SessionStore(db, { journal }) };
}

/** The columns the store decides, as a commit returned them or a read finds them. */
const decided = (s: SessionRow) => [s.historyLen, s.step, s.status, s.stopRequested, s.reason, s.answer, s.usage, s.leaseUntil?.getTime() ?? null, s.leaseOwner];

const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A user and a new session in `store`. */
async function newSession(db: Db, store: SessionStore, id = "ses_j"): Promise<SessionRow> {
  await ensureUser(db, "u");
  return store.createSession({ id, userId: "u", task: "t", model: "script:x", maxSteps: 10, playbook: "", playbookInstructions: "", context: emptyContext("t") });
}

const leased = () => new Date(Date.now() + 60_000);

describe("the commit journal", () => {
  it("acknowledges a commit the store is sure of before the engine runs it, and the engine then stores what the commit returned", async () => {
    const dir = fresh();
    const { db, store } = await openStore(dir);
    const s0 = await newSession(db, store);
    // The first commit is not known to the store: it waits for the engine.
    const { session: s1 } = await store.commit(nextTurn(s0, { owner: "me", lease: leased() }));

    const held = await holdTransaction(db, "select 1");
    // With the engine held, the next commits return anyway: journaled, not yet applied.
    const { session: s2 } = await store.commit(nextTurn(s1, { owner: "me", lease: leased() }));
    const last = nextTurn(s2, { owner: "me", lease: null });
    const done = await store.commit({ ...last, set: { ...last.set, status: SessionStatus.COMPLETED, answer: "ok" } });
    expect(readdirSync(join(dir, "baton_commits")).length).toBe(1);
    const before = db.query<{ n: number }>("select count(*)::int as n from traces where session_id = $1", [s0.id]);
    held.end();
    await held.done;
    // Sent after the journaled commits, that read ran behind them.
    expect(await before).toEqual([{ n: 3 }]);

    expect(done.session.usage).toEqual({ input: 1500, output: 60, cached: 0, cost: 0.75 });
    expect([done.session.status, done.session.answer, done.session.leaseUntil, done.session.historyLen]).toEqual([SessionStatus.COMPLETED, "ok", null, 5]);
    expect(decided((await store.readSession(s0.id))!)).toEqual(decided(done.session));
    expect(decided((await store.readStep(s0.id, ""))!.session)).toEqual(decided(done.session));
    expect((await store.history(s0.id)).length).toBe(5);
    expect((await store.storedResponse(s0.id, "res:r:call_2_0"))?.messages[0]?.id).toBe("msg_3_1");
    const [row] = await db.query<{ applied_seq: string }>("select applied_seq from commit_journal");
    expect(Number(row?.applied_seq)).toBe(2);
  });

  it("leaves to the engine every commit it is not sure of: after a stop, against another owner's lease, from a stale version", async () => {
    const { db, store } = await openStore(fresh());
    /** Commits `next(s0, s1)` while the engine is held, with `before` done first; asserts that it waits for the engine, and returns its outcome. */
    const waitsForEngine = async (id: string, next: (s0: SessionRow, s1: SessionRow) => Promise<unknown>, before = async (_: string) => undefined as unknown) => {
      const s0 = await newSession(db, store, id);
      const { session: s1 } = await store.commit(nextTurn(s0, { owner: "me", lease: leased() }));
      const held = await holdTransaction(db, "select 1");
      const first = before(id);
      let settled = false;
      const outcome = next(s0, s1).then(
        (v) => ((settled = true), v),
        (e: unknown) => ((settled = true), e),
      );
      try {
        await later(100);
        expect(settled).toBe(false);
      } finally {
        held.end();
      }
      await held.done;
      await first;
      return outcome;
    };
    const stopped = (await waitsForEngine(
      "ses_stop",
      (_, s1) => store.commit(nextTurn(s1, { owner: "me", lease: leased() })),
      (id) => store.requestStop(id, "user pressed stop"),
    )) as Committed;
    expect([stopped.session.status, stopped.session.stopRequested, stopped.responseBytes]).toEqual([SessionStatus.STOPPED, true, undefined]);
    expect(await waitsForEngine("ses_owner", (_, s1) => store.commit(nextTurn(s1, { owner: "them" })))).toBeInstanceOf(SessionConflict);
    expect(await waitsForEngine("ses_stale", (s0) => store.commit(nextTurn(s0, { owner: "me" })))).toBeInstanceOf(SessionConflict);
  });

  it("applies after a crash what it acknowledged and had not applied, once", async () => {
    const dir = fresh();
    const { db, journal, store } = await openStore(dir);
    let s = (await store.commit(nextTurn(await newSession(db, store), { owner: "me", lease: leased() }))).session;
    const held = await holdTransaction(db, "select 1");
    for (let i = 0; i < 3; i++) s = (await store.commit(nextTurn(s, { owner: "me", lease: leased() }))).session;
    // The data directory as a process killed now leaves it (the engine writes nothing while the
    // transaction holds it), without the dead process's lock.
    const image = fresh();
    cpSync(dir, image, { recursive: true });
    rmSync(join(image, "baton.lock"));
    held.end();
    await held.done;
    await journal?.close();

    const crashed = fresh();
    cpSync(image, crashed, { recursive: true });
    logged.length = 0;
    const again = await openStore(crashed);
    expect(logged.map((l) => [l.msg, l.applied, l.lost])).toEqual([["commit journal: applied the commits a crash left unapplied", 3, 0]]);
    expect(readdirSync(join(crashed, "baton_commits"))).toEqual([]);
    expect(decided((await again.store.readSession(s.id))!)).toEqual(decided(s));
    expect((await again.store.history(s.id)).length).toBe(s.historyLen);
    expect((await again.store.traces(s.id)).map((t) => t.step)).toEqual([1, 2, 3, 4]);
    const [seq] = await again.db.query<{ applied_seq: string }>("select applied_seq from commit_journal");
    expect(Number(seq?.applied_seq)).toBe(3);
    // Numbering goes on from there (the first commit after the restart waits for the engine, the second is journaled).
    for (let i = 0; i < 2; i++) s = (await again.store.commit(nextTurn(s, { owner: "me" }))).session;
    await again.journal?.close();
    await again.db.close();
    opened.pop();

    // A crash after the records were applied but before the journal was emptied: nothing is applied twice.
    cpSync(join(image, "baton_commits"), join(crashed, "baton_commits"), { recursive: true });
    logged.length = 0;
    const third = await openStore(crashed);
    expect(logged).toEqual([]);
    expect((await third.store.history(s.id)).length).toBe(s.historyLen);
    expect(Number((await third.db.query<{ applied_seq: string }>("select applied_seq from commit_journal"))[0]?.applied_seq)).toBe(4);
  });
});
