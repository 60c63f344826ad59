import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { crc32 } from "node:zlib";
import { create, toBinary } from "@bufbuild/protobuf";
import { StepResponseSchema } from "@baton/gen/baton/v1/descriptors";
import { afterAll, describe, expect, it } from "vitest";
import { emptyContext } from "../context/state.js";
import { createLogger } from "../log/logger.js";
import { tempDirs } from "../testing/temp-dirs.js";
import { nextTurn } from "../testing/turn-writes.js";
import type { Db } from "./db.js";
import { migrate, migrations } from "./migrations.js";
import { refuseOldTurnJournal } from "./old-journals.js";
import { openDb } from "./open.js";
import { openPgliteDb } from "./pglite-db.js";
import { commitParams, commitRows, type SessionCommit } from "./session-commit.js";
import { SessionStore } from "./session-store.js";
import { ensureUser } from "./users.js";

const dirs = tempDirs("baton-old-journals-");
afterAll(dirs.removeAll);

/**
 * A commit journal segment as the versions that had one wrote it: the magic, then per record
 * `u32 length, u32 crc32, payload`, the payload `f64 seq` and per text `u32 byte length + UTF-8`.
 */
function segment(records: readonly { seq: number; texts: readonly string[] }[]): Buffer {
  const parts: Buffer[] = [Buffer.from("BATONC01")];
  for (const r of records) {
    const seq = Buffer.alloc(8);
    seq.writeDoubleLE(r.seq);
    const payload = Buffer.concat([seq, ...r.texts.flatMap((t) => [uint32(Buffer.byteLength(t)), Buffer.from(t)])]);
    parts.push(uint32(payload.length), uint32(crc32(payload)), payload);
  }
  return Buffer.concat(parts);
}

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

/**
 * The recordset parameters a journal record held for one commit: today's, but with the step's
 * whole response (its session as that version predicted it) as protobuf bytes in bytea hex.
 */
function texts(c: SessionCommit): string[] {
  const [sessions = "[]", ...rest] = commitParams([commitRows(c)]);
  const response = c.response && create(StepResponseSchema, { messages: [...c.response.messages], session: { id: c.from.id, step: 99 } });
  const rows = (JSON.parse(sessions) as Record<string, unknown>[]).map((r) => ({ ...r, response: response ? `\\x${Buffer.from(toBinary(StepResponseSchema, response)).toString("hex")}` : null }));
  return [JSON.stringify(rows), ...rest];
}

/** What a data directory holds for a session, to compare two of them. */
async function state(db: Db, store: SessionStore, id: string) {
  const s = (await store.readSession(id))!;
  return {
    session: [s.historyLen, s.step, s.status, s.usage, s.context.micro, s.leaseOwner],
    history: (await store.history(id)).length,
    traces: (await store.traces(id)).map((t) => t.step),
    responses: (await db.query<{ n: number }>("select count(*)::int as n from responses where session_id = $1", [id]))[0]?.n,
  };
}

/** Copies every row of `from` into the tables `to` has, keeping only the columns `to` has. */
async function copyRows(from: Db, to: Db): Promise<void> {
  const tables = await to.query<{ t: string }>("select table_name as t from information_schema.tables where table_schema = 'public' and table_name not in ('schema_migrations', 'commit_journal')");
  await to.query("set session_replication_role = replica");
  for (const { t } of tables) {
    const cols = (await to.query<{ c: string }>("select column_name as c from information_schema.columns where table_schema = 'public' and table_name = $1", [t])).map((r) => `"${r.c}"`);
    const rows = await from.query<{ j: unknown }>(`select row_to_json(x)::text as j from (select ${cols.join(", ")} from "${t}") x`);
    for (const { j } of rows) await to.query(`insert into "${t}" select * from json_populate_record(null::"${t}", $1::json)`, [j]);
  }
  await to.query("set session_replication_role = origin");
}

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

describe("a data directory from a version with the commit journal", () => {
  it("has the commits its journal held past the recorded position applied on upgrade, once, and the journal removed", async () => {
    // The data directory as that version left it: schema 13, a session whose first turn is
    // applied (position 1), and a journal holding that turn and the two after it. Today's store
    // writes the rows on the current schema; they are copied into schema 13, column by column.
    const current = await openPgliteDb(dirs.fresh());
    await migrate(current);
    await ensureUser(current, "u");
    const store = new SessionStore(current);
    const s0 = await store.createSession({ id: "ses_old", userId: "u", task: "t", model: "script:x", maxSteps: 10, playbook: "", playbookInstructions: "", context: emptyContext("t") });
    const first = nextTurn(s0, { owner: "old", lease: new Date(Date.now() + 60_000) });
    const s1 = await store.commit(first);
    const dir = dirs.fresh();
    const db = await openPgliteDb(dir);
    await migrate(db, 13);
    await copyRows(current, db);
    await db.query("update commit_journal set applied_seq = 1");
    await db.close();

    // The two later turns, committed after the first: what the upgrade must arrive at.
    const second = nextTurn(s1, { owner: "old", lease: new Date(Date.now() + 60_000) });
    const s2 = await store.commit(second);
    const third = nextTurn(s2, { owner: "old" });
    await store.commit(third);
    const expected = await state(current, store, s0.id);
    await current.close();

    const journal = join(dir, "baton_commits");
    mkdirSync(journal);
    const records = [first, second, third].map((c, i) => ({ seq: i + 1, texts: texts(c) }));
    // The last record cut short by the crash: never acknowledged, dropped.
    const torn = segment([{ seq: 4, texts: texts(nextTurn(s2)) }]).subarray(8, 60);
    writeFileSync(join(journal, "0000000000000001.jnl"), Buffer.concat([segment(records), torn]));

    logged.length = 0;
    const upgraded = await openDb({ dataDir: dir, logger });
    try {
      const upgradedStore = new SessionStore(upgraded);
      expect(await state(upgraded, upgradedStore, s0.id)).toEqual(expected);
      expect(expected.history).toBe(5);
      const answer = (await upgradedStore.readStep(s0.id, third.response!.key))?.stored;
      expect([answer?.messages.map((m) => m.id), answer?.session?.step]).toEqual([["msg_3_1"], 3]);
      expect(logged.map((l) => [l.msg, l.applied, l.lost])).toEqual([["commit journal of an earlier version: applied the commits it held", 2, 0]]);
      expect(existsSync(journal)).toBe(false);
      expect((await upgraded.query("select to_regclass('commit_journal') as t"))[0]?.t).toBe(null);
      expect((await upgraded.query<{ v: number }>("select max(version)::int as v from schema_migrations"))[0]?.v).toBe(migrations.at(-1)?.version);
    } finally {
      await upgraded.close();
    }

    // Never again: a plain restart applies nothing; the same records put back are refused, not applied twice.
    logged.length = 0;
    const again = await openDb({ dataDir: dir, logger });
    expect(await state(again, new SessionStore(again), s0.id)).toEqual(expected);
    await again.close();
    expect(logged).toEqual([]);
    mkdirSync(journal);
    writeFileSync(join(journal, "0000000000000001.jnl"), segment(records));
    await expect(openDb({ dataDir: dir, logger })).rejects.toThrow(/baton_commits holds commits .* they were applied when it was upgraded; delete the directory/);
  });

  it("refuses a journal damaged before its end instead of skipping acknowledged commits", async () => {
    const dir = dirs.fresh();
    const journal = join(dir, "baton_commits");
    mkdirSync(journal);
    const whole = segment([{ seq: 1, texts: ["[]", "[]", "[]", "[]", "[]", "[]"] }]);
    whole[whole.length - 3] = (whole[whole.length - 3] ?? 0) ^ 0xff;
    writeFileSync(join(journal, "0000000000000001.jnl"), whole);
    writeFileSync(join(journal, "0000000000000002.jnl"), segment([{ seq: 2, texts: ["[]", "[]", "[]", "[]", "[]", "[]"] }]));
    await expect(openDb({ dataDir: dir })).rejects.toThrow(/0000000000000001\.jnl is damaged at byte 8/);
  });
});

describe("a data directory from the version with the turn journal", () => {
  it("is refused while its journal holds turns, naming the way out; an empty journal is not", () => {
    const dir = dirs.fresh();
    refuseOldTurnJournal(dir);
    mkdirSync(join(dir, "baton_journal"));
    // A segment holding only its 8-byte header (what a clean stop leaves, if anything).
    writeFileSync(join(dir, "baton_journal", "0000000000000001.jnl"), "BATONJ01");
    refuseOldTurnJournal(dir);
    writeFileSync(join(dir, "baton_journal", "0000000000000002.jnl"), "BATONJ01 and a record");
    expect(() => refuseOldTurnJournal(dir)).toThrow(/0000000000000002\.jnl.*stop it cleanly/);
  });
});
