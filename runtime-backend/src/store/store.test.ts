import { create, toBinary, toJson } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import {
  CreateSessionRequestSchema,
  HistoryEntrySchema,
  LogEntrySchema,
  LogLevel,
  PlaybookSchema,
  SessionStatus,
  StepRequestSchema,
  StepResponseSchema,
} from "@baton/gen/baton/v1/agent_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyContext } from "../context/state.js";
import { scriptedAgent } from "../testing/harness.js";
import type { Db } from "./db.js";
import { newId } from "./ids.js";
import { countLogs, insertLogs, readLogs } from "./logs.js";
import { searchMemory, saveMemory } from "./memory.js";
import { migrate, migrations } from "./migrations.js";
import { openDb } from "./open.js";
import { getPlaybook, listPlaybooks, savePlaybookVersion } from "./playbooks.js";
import { appendHistory, type CallDone, callsById, callsOfStep, findResponse, insertCalls, readHistory, saveResponse, setCallState, setCallsDoneStmt } from "./records.js";
import { getSessionRow, insertSession, isStopRequested, requestStop, sessionFromRow, updateSession } from "./sessions.js";
import { inlineParams } from "./literal.js";
import { commitTurn, readStepState, turnStatements } from "./turns.js";
import { storedResponse } from "./stored-response.js";
import { contextRowJson, microDelta } from "./context-lines.js";
import { insertTrace, readTraces } from "./traces.js";
import { createToken, ensureUser, registerToken, userForToken } from "./users.js";

const pgUrl = process.env.BATON_TEST_DATABASE_URL;

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
    let db: Db;
    beforeAll(async () => {
      db = await engine.open();
      await ensureUser(db, "u1");
      await ensureUser(db, "u2");
    });
    afterAll(async () => {
      await db?.close();
    });

    const newSession = (userId = "u1", idempotencyKey?: string) =>
      insertSession(db, {
        id: newId("ses"),
        userId,
        idempotencyKey,
        task: "t",
        model: "script:x",
        maxSteps: 10,
        playbook: "",
        playbookInstructions: "",
        context: emptyContext("t"),
      });

    it("migrates idempotently to the latest version", async () => {
      const v = await migrate(db);
      expect(v).toBe(migrations.at(-1)?.version);
      expect(await migrate(db)).toBe(v);
      const rows = await db.query<{ n: number }>("select count(*)::int as n from schema_migrations");
      expect(Number(rows[0]?.n)).toBe(migrations.length);
    });

    it("keeps session and call rows updatable in place: half-empty pages, context inline up to a page", async () => {
      const [t] = await db.query<{ reloptions: string[] | string }>("select reloptions from pg_class where relname = 'sessions'");
      const opts = Array.isArray(t?.reloptions) ? t.reloptions : String(t?.reloptions ?? "");
      expect(String(opts)).toContain("fillfactor=50");
      expect(String(opts)).toContain("toast_tuple_target=8160");
      const [c] = await db.query<{ attstorage: string }>(
        "select attstorage from pg_attribute where attrelid = 'sessions'::regclass and attname = 'context'",
      );
      expect(c?.attstorage).toBe("m");
      const [calls] = await db.query<{ reloptions: string[] | string }>("select reloptions from pg_class where relname = 'calls'");
      expect(String(calls?.reloptions)).toContain("fillfactor=50");
    });

    it("checks a turn's rows against their session only where a client names the session (logs)", async () => {
      const fks = await db.query<{ rel: string }>(
        `select conrelid::regclass::text as rel from pg_constraint
          where contype = 'f' and confrelid = 'sessions'::regclass order by 1`,
      );
      expect(fks.map((r) => r.rel)).toEqual(["logs"]);
    });

    it("moves calls to done by session, step and id", async () => {
      const s = await newSession();
      const call = { step: 2, ord: 0, name: "click", arguments: "{}", side: "client", state: "pending", message: undefined, output: null } as const;
      await insertCalls(db, s.id, [{ ...call, toolcallId: "call_2_0" }, { ...call, toolcallId: "call_2_1", ord: 1 }]);
      const run = async (done: CallDone[]) => {
        const st = setCallsDoneStmt(s.id, done);
        if (st) await db.query(st.sql, st.params);
        return (await callsOfStep(db, s.id, 2)).map((c) => [c.toolcallId, c.state, c.output]);
      };
      // A result filed under another step moves nothing.
      expect(await run([{ id: "call_2_0", step: 1, output: "{}" }])).toEqual([
        ["call_2_0", "pending", null],
        ["call_2_1", "pending", null],
      ]);
      expect(await run([{ id: "call_2_0", step: 2, output: "{\"a\":1}" }, { id: "call_2_1", step: 2, output: "{\"b\":2}" }])).toEqual([
        ["call_2_0", "done", "{\"a\":1}"],
        ["call_2_1", "done", "{\"b\":2}"],
      ]);
    });

    it("stores API tokens hashed and resolves them", async () => {
      const token = await createToken(db, "u1", "test");
      expect(await userForToken(db, token)).toBe("u1");
      expect(await userForToken(db, `${token}x`)).toBeUndefined();
      const raw = await db.query("select token_hash from api_tokens");
      expect(raw.some((r) => r.token_hash === token)).toBe(false);
      await registerToken(db, "u2", "bt_fixed_token_for_tests_000");
      await registerToken(db, "u2", "bt_fixed_token_for_tests_000");
      expect(await userForToken(db, "bt_fixed_token_for_tests_000")).toBe("u2");
    });

    it("creates sessions idempotently per user and key, and patches them", async () => {
      const a = await newSession("u1", "k");
      const b = await newSession("u1", "k");
      const c = await newSession("u2", "k");
      expect(b.id).toBe(a.id);
      expect(c.id).not.toBe(a.id);
      await updateSession(db, a.id, { status: SessionStatus.RUNNING, step: 3, addUsage: { input: 10, output: 5, cached: 1, cost: 0.5 } });
      await updateSession(db, a.id, { addUsage: { input: 1, output: 1, cached: 0, cost: 0.25 } });
      const s = await getSessionRow(db, a.id);
      expect(s).toMatchObject({ status: SessionStatus.RUNNING, step: 3, usage: { input: 11, output: 6, cached: 1, cost: 0.75 } });
      expect(await isStopRequested(db, a.id)).toBe(false);
      await requestStop(db, a.id, "why");
      expect(await isStopRequested(db, a.id)).toBe(true);
    });

    it("keeps the context's summaries as lines: turns append and trim them, a full update renumbers, reads see the same context", async () => {
      let s = await newSession();
      let micro: string[] = [];
      const lines = async () =>
        (await db.query<{ seq: number; line: string }>("select seq, line from context_lines where session_id = $1 order by seq", [s.id])).map((r) => ({
          seq: Number(r.seq),
          line: r.line,
        }));
      for (let step = 1; step <= 30; step++) {
        // Append one line a turn; trim the oldest past 6; fold (drop them all) every 11th step.
        const next = step % 11 === 0 ? [`fold ${step}`] : [...micro, `step ${step}: "quoted" \\ line\nwith newline`].slice(-6);
        if (step === 20) {
          // The general path (approvals, user messages) rewrites the lines whole.
          await updateSession(db, s.id, { context: { ...s.context, micro: next } });
          s = (await getSessionRow(db, s.id)) ?? s;
        } else {
          const context = { ...s.context, micro: next, goal: `goal at ${step}` };
          const delta = microDelta(s.contextFrom, micro, next);
          const row = await commitTurn(db, {
            sessionId: s.id,
            expectLen: s.historyLen,
            owner: "test",
            done: [],
            calls: [],
            history: [],
            lines: delta.lines,
            trace: { step, model: "m", latencyMs: 1, usage: { input: 1, output: 1, cached: 0, cost: 0 }, toolCalls: [], errors: [] },
            session: { step, context: contextRowJson(context), contextFrom: delta.from, trim: delta.trim, goal: context.goal, status: SessionStatus.RUNNING, stopGuard: false, leaseUntil: null, leaseOwner: undefined },
          });
          expect(row).toBeDefined();
          s = (await getSessionRow(db, s.id)) ?? s;
          expect(s.contextFrom).toBe(delta.from);
          expect(s.context.goal).toBe(`goal at ${step}`);
        }
        micro = next;
        expect(s.context.micro).toEqual(next);
        // Nothing is left below the live lines, and the live ones are numbered without gaps.
        const stored = await lines();
        expect(stored.map((l) => l.line)).toEqual(next);
        expect(stored.map((l) => l.seq)).toEqual(next.map((_, i) => s.contextFrom + i));
      }
      // The step read (the hot path's read) sees the same lines.
      const read = await readStepState(db, s.id, "");
      expect(read && sessionFromRow(read).context.micro).toEqual(micro);
      const [raw] = await db.query<{ context: string }>("select context from sessions where id = $1", [s.id]);
      expect(JSON.parse(String(raw?.context))).not.toHaveProperty("micro");
    });

    it("appends and reads history in order; calls move through their states; responses replay", async () => {
      const s = await newSession();
      const e = (step: number, text: string) => create(HistoryEntrySchema, { step, entry: { case: "userMessage", value: { text } } });
      let len = await db.transaction((tx) => appendHistory(tx, s.id, 0, [e(0, "a"), e(0, "b")]));
      len = await appendHistory(db, s.id, len, [e(1, "c")]);
      expect(len).toBe(3);
      const h = await readHistory(db, s.id);
      expect(h.map((x) => (x.entry.case === "userMessage" ? x.entry.value.text : ""))).toEqual(["a", "b", "c"]);
      // A second writer at the same position fails instead of interleaving.
      await expect(appendHistory(db, s.id, 2, [e(1, "dup")])).rejects.toThrow();

      await insertCalls(db, s.id, [
        { toolcallId: "call_1_0", step: 1, ord: 0, name: "navigate", arguments: "{}", side: "client", state: "pending", message: undefined, output: null },
        { toolcallId: "call_1_1", step: 1, ord: 1, name: "nope", arguments: "{}", side: "invalid", state: "done", message: undefined, output: "{\"error\":1}" },
      ]);
      await setCallState(db, s.id, "call_1_0", "done", "{\"ok\":1}");
      const calls = await callsOfStep(db, s.id, 1);
      expect(calls.map((c) => [c.toolcallId, c.state, c.output])).toEqual([
        ["call_1_0", "done", "{\"ok\":1}"],
        ["call_1_1", "done", "{\"error\":1}"],
      ]);
      expect([...(await callsById(db, s.id, ["call_1_1", "zzz"])).keys()]).toEqual(["call_1_1"]);

      const resp = create(StepResponseSchema, { session: { id: s.id, step: 1 } });
      await saveResponse(db, s.id, "res:r:call_1_0", resp);
      await saveResponse(db, s.id, "res:r:call_1_0", create(StepResponseSchema, { session: { id: s.id, step: 99 } }));
      expect((await findResponse(db, s.id, "res:r:call_1_0"))?.session?.step).toBe(1);
      expect(await findResponse(db, s.id, "other")).toBeUndefined();
      // Stored as the bytes the client received; a row stored as JSON before migration 8 still reads.
      const [raw] = await db.query<{ body: Uint8Array; response: unknown }>("select body, response from responses where session_id = $1", [s.id]);
      expect(Buffer.from(raw!.body)).toEqual(Buffer.from(toBinary(StepResponseSchema, resp)));
      expect(raw!.response).toBeNull();
      await db.query("insert into responses (session_id, input_key, response) values ($1, 'old', $2)", [s.id, JSON.stringify(toJson(StepResponseSchema, resp))]);
      expect(await findResponse(db, s.id, "old")).toEqual(resp);
      // The step read (the hot path's) finds both kinds.
      for (const key of ["old", "res:r:call_1_0"]) {
        const row = await readStepState(db, s.id, key);
        expect(row && storedResponse(row.stored_body, row.stored_response)).toEqual(resp);
      }
    });

    it("records one trace per step, merging a retried step into the same row", async () => {
      const s = await newSession();
      await insertTrace(db, s.id, { step: 1, model: "m", latencyMs: 5, usage: { input: 0, output: 0, cached: 0, cost: 0 }, toolCalls: [], errors: ["server: 500"] });
      await insertTrace(db, s.id, { step: 1, model: "m", latencyMs: 7, usage: { input: 10, output: 2, cached: 0, cost: 0 }, toolCalls: ["click"], errors: [] });
      await insertTrace(db, s.id, { step: 2, model: "m", latencyMs: 1, usage: { input: 3, output: 1, cached: 0, cost: 0 }, toolCalls: [], errors: [] });
      const t = await readTraces(db, s.id);
      expect(t.map((x) => [x.step, x.latencyMs, Number(x.usage?.inputTokens), x.toolCalls, x.errors])).toEqual([
        [1, 12, 10, ["click"], ["server: 500"]],
        [2, 1, 3, [], []],
      ]);
    });

    it("stores client logs as given (the agent redacts them before: faults/redaction.test.ts) and counts them", async () => {
      const s = await newSession();
      const n = await insertLogs(db, s.id, "u1", [
        create(LogEntrySchema, {
          level: LogLevel.ERROR,
          message: "click failed",
          step: 2,
          tool: "click",
          toolcallId: "call_2_0",
          time: timestampNow(),
          attributes: { api_key: "sk-live-123456789", note: "token Bearer abc.def.ghi leaked", ok: "fine" },
        }),
      ]);
      expect(n).toBe(1);
      const logs = await readLogs(db, s.id);
      expect(logs[0]).toMatchObject({ level: LogLevel.ERROR, message: "click failed", step: 2, tool: "click", toolcallId: "call_2_0" });
      expect(logs[0]?.attributes).toEqual({ api_key: "sk-live-123456789", note: "token Bearer abc.def.ghi leaked", ok: "fine" });
      expect(await countLogs(db, s.id)).toBe(1);
    });

    it("searches memory by full text, per user, best match first", async () => {
      await saveMemory(db, "u1", "Prefers window seats on long flights", ["travel"]);
      await saveMemory(db, "u1", "Home address: 4 Privet Drive, Little Whinging", ["address"]);
      await saveMemory(db, "u1", "Shipping address for work: 221B Baker Street", ["address", "work"]);
      await saveMemory(db, "u2", "Shipping address: somewhere else entirely", []);
      const r = await searchMemory(db, "u1", "what is my shipping address?", 5);
      expect(r.map((x) => x.text)).toEqual(["Shipping address for work: 221B Baker Street", "Home address: 4 Privet Drive, Little Whinging"]);
      expect(r[0]!.score).toBeGreaterThan(r[1]!.score);
      expect((await searchMemory(db, "u1", "flight", 5)).map((x) => x.text)).toEqual(["Prefers window seats on long flights"]);
      expect(await searchMemory(db, "u1", "?!", 5)).toEqual([]);
      expect((await searchMemory(db, "u2", "address", 5)).map((x) => x.text)).toEqual(["Shipping address: somewhere else entirely"]);
    });

    it("versions playbooks per user", async () => {
      const p = create(PlaybookSchema, { name: "checkout", instructions: "v1", keywords: ["buy"] });
      expect((await savePlaybookVersion(db, "u1", p, true))?.version).toBe(1);
      expect(await savePlaybookVersion(db, "u1", p, true)).toBeUndefined();
      expect(await savePlaybookVersion(db, "u1", create(PlaybookSchema, { name: "ghost", instructions: "x" }), false)).toBeUndefined();
      expect((await savePlaybookVersion(db, "u1", { ...p, instructions: "v2" }, false))?.version).toBe(2);
      expect((await getPlaybook(db, "u1", "checkout"))?.instructions).toBe("v2");
      expect((await getPlaybook(db, "u1", "checkout", 1))?.instructions).toBe("v1");
      expect(await getPlaybook(db, "u2", "checkout")).toBeUndefined();
      await savePlaybookVersion(db, "u1", create(PlaybookSchema, { name: "alpha", instructions: "a" }), true);
      expect((await listPlaybooks(db, "u1")).map((x) => `${x.name}@${x.version}`)).toEqual(["alpha@1", "checkout@2"]);
    });

    it("reaches a step's sessions through the primary key, however many sessions the store holds", async () => {
      // Planned as a join alone, the recordset (estimated at 100 rows) was hashed and every
      // session scanned (on PGlite and Postgres alike, for 3,000 small rows): a per-turn cost
      // that grew with the store.
      await ensureUser(db, "bulk");
      await db.exec(
        `insert into sessions (id, user_id, status, model, max_steps, context) select 'bulk_' || g, 'bulk', 0, 'm', 10, '{}' from generate_series(1, 3000) g`,
      );
      await db.exec("analyze sessions");
      const plans: Record<string, string> = {};
      for (const [name, sql] of Object.entries(turnStatements)) {
        // Every parameter is a JSON recordset; empty ones plan the same (the estimate is fixed).
        const params = Array.from({ length: Math.max(...[...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]))) }, () => "[]");
        const rows = await db.query(`explain ${inlineParams(sql, params)}`);
        plans[name] = rows.map((r) => String(Object.values(r)[0])).join("\n");
      }
      for (const plan of Object.values(plans)) {
        expect(plan).not.toMatch(/Seq Scan on sessions/);
        expect(plan).toMatch(/sessions_pkey/);
      }
    });

    it("runs the agent loop end to end on this engine", async () => {
      const { agent } = await scriptedAgent(
        { turns: [{ calls: [{ name: "save_memory", args: { text: "likes tea" } }] }, { calls: [{ name: "done", args: { answer: "ok" } }] }] },
        { db },
      );
      const s = await agent.createSession("alice", create(CreateSessionRequestSchema, { task: "remember tea" }));
      const r = await agent.step("alice", create(StepRequestSchema, { sessionId: s.id }));
      expect(r.session?.status).toBe(SessionStatus.COMPLETED);
      expect((await agent.getSession("alice", s.id)).traces).toHaveLength(2);
    });
  });
}
