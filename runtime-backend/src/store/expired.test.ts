import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../testing/eventually.js";
import { consumeSignInCode, createConsoleSession, createSignInCode } from "./accounts.js";
import type { Db } from "./db.js";
import { insertDeviceLink } from "./device-links.js";
import { openDb } from "./open.js";
import { startUpkeep } from "./upkeep.js";
import { ensureUser } from "./users.js";

const pgUrl = process.env.BATON_TEST_DATABASE_URL;

const engines: { name: string; open: () => Promise<Db>; skip?: boolean }[] = [
  { name: "the embedded store", open: () => openDb({}) },
  {
    name: "Postgres",
    open: async () => {
      const db = await openDb({ databaseUrl: pgUrl });
      await db.exec("drop schema public cascade; create schema public");
      await db.close();
      return openDb({ databaseUrl: pgUrl });
    },
    skip: !pgUrl,
  },
];

async function ids(db: Db, sql: string): Promise<string[]> {
  return (await db.query<{ id: string }>(sql)).map((r) => r.id).sort();
}

for (const engine of engines) {
  (engine.skip ? describe.skip : describe)(`upkeep purges expired links and sessions on ${engine.name}`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await engine.open();
      await ensureUser(db, "ada");
    });
    afterAll(async () => {
      await db?.close();
    });

    it("deletes expired device links, used or expired sign-in links and expired console sessions, and keeps live ones", async () => {
      const link = (id: string, expiresAt: Date) =>
        insertDeviceLink(db, { id, codeChallenge: "c".repeat(43), deviceName: "flood", client: "", origin: "", userCode: "BCDF-GHJK", expiresAt });
      await link("dl_expired", new Date(Date.now() - 60_000));
      await link("dl_live", new Date(Date.now() + 600_000));
      await createSignInCode(db, "ada", -60_000);
      const used = await createSignInCode(db, "ada", 600_000);
      expect(await consumeSignInCode(db, used.code)).toBe("ada");
      await createSignInCode(db, "ada", 600_000);
      await createConsoleSession(db, "ada", -60_000);
      await createConsoleSession(db, "ada", 600_000);
      expect(await ids(db, "select id from device_links")).toEqual(["dl_expired", "dl_live"]);
      expect((await db.query("select 1 from sign_in_links")).length).toBe(3);
      expect((await db.query("select 1 from console_sessions")).length).toBe(2);

      const timer = startUpkeep(db, { intervalMs: 50, purgeEveryMs: 50, purgeGraceMs: 0 });
      try {
        await eventually(async () => (await ids(db, "select id from device_links")).join() === "dl_live", 10_000);
        await eventually(async () => (await db.query("select 1 from console_sessions")).length === 1, 10_000);
        await eventually(async () => (await db.query("select 1 from sign_in_links")).length === 1, 10_000);
      } finally {
        await timer.stop();
      }
      // What is left is what can still be used.
      expect((await db.query("select 1 from sign_in_links where used_at is null and expires_at > now()")).length).toBe(1);
      expect((await db.query("select 1 from console_sessions where expires_at > now()")).length).toBe(1);
    });
  });
}
