import { create } from "@bufbuild/protobuf";
import { CreateSessionRequestSchema, SessionStatus, StepRequestSchema } from "@baton/gen/baton/v1/agent_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedAgent } from "../testing/harness.js";
import type { Db } from "./db.js";
import { openDb } from "./open.js";
import { storeSuite } from "../testing/store-suite.js";

const pgUrl = process.env.BATON_TEST_DATABASE_URL;

/** Every engine the store runs on in Node (the browser's, PGlite on IndexedDB: `standalone/standalone-page.test.ts`). */
const engines: { name: string; open: () => Promise<Db>; skip?: string }[] = [
  { name: "embedded (PGlite in a worker thread)", open: () => openDb({}) },
  { name: "embedded (PGlite on the calling thread)", open: () => openDb({ embeddedThread: "inline" }) },
  {
    name: "postgres (pg)",
    open: async () => {
      // A clean schema per run: the test database is disposable.
      const db = await openDb({ databaseUrl: pgUrl });
      await db.exec("drop schema public cascade; create schema public");
      await db.close();
      return openDb({ databaseUrl: pgUrl });
    },
    ...(pgUrl ? {} : { skip: "BATON_TEST_DATABASE_URL is not set (run `eval \"$(bash scripts/ci-postgres.sh)\"`)" }),
  },
];

for (const engine of engines) {
  const suite = engine.skip ? describe.skip : describe;
  if (engine.skip) console.warn(`store suite: skipping ${engine.name}: ${engine.skip}`);
  suite(`store on ${engine.name}${engine.skip ? ` — skipped: ${engine.skip}` : ""}`, () => {
    storeSuite({ it, beforeAll, afterAll, expect: expect as never }, engine.open);

    it("runs the agent loop end to end on this engine", async () => {
      const db = await engine.open();
      const { agent, close } = await scriptedAgent(
        { turns: [{ calls: [{ name: "save_memory", args: { text: "likes tea" } }] }, { calls: [{ name: "done", args: { answer: "ok" } }] }] },
        { db },
      );
      try {
        const s = await agent.createSession("alice", create(CreateSessionRequestSchema, { task: "remember tea" }));
        const r = await agent.step("alice", create(StepRequestSchema, { sessionId: s.id }));
        expect(r.session?.status).toBe(SessionStatus.COMPLETED);
        expect((await agent.getSession("alice", s.id)).traces).toHaveLength(2);
      } finally {
        await close();
      }
    });
  });
}
