import { create, toBinary, toJson } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { LogLevel, MessageStatus, SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { AgentMessageSchema, LogEntrySchema, PlaybookSchema, StepResponseSchema } from "@baton/gen/baton/v1/descriptors";
import { emptyContext } from "../context/state.js";
import { nextTurn } from "./turn-writes.js";
import { commitSql, readStepSql } from "../store/commit-sql.js";
import type { Db } from "../store/db.js";
import { newId } from "../store/ids.js";
import { migrate, migrations } from "../store/migrations.js";
import { SessionConflict, SessionStore } from "../store/session-store.js";
import type { SessionRow } from "../store/sessions.js";
import { createToken, ensureUser, registerToken, userForToken } from "../store/users.js";

/**
 * Chai-style `expect`, as both runners have it: vitest's (which extends chai) in Node, chai's
 * own in the browser test page (`browser/`).
 */
export type SuiteExpect = (value: unknown, message?: string) => Chai;

/** The part of a chai assertion the suite uses. */
interface Chai {
  readonly to: Chai;
  readonly be: Chai;
  readonly not: Chai;
  readonly deep: Chai;
  readonly have: Chai;
  readonly undefined: Chai;
  readonly true: Chai;
  readonly false: Chai;
  equal(v: unknown): Chai;
  property(name: string): Chai;
  include(v: unknown): Chai;
  match(re: RegExp): Chai;
  instanceOf(c: new (...args: never[]) => unknown): Chai;
  above(n: number): Chai;
}

/** What the suite runs on: a test runner's registration functions, and chai-style `expect`. */
export interface SuiteRunner {
  readonly it: (name: string, fn: () => Promise<void>) => void;
  readonly beforeAll: (fn: () => Promise<void>) => void;
  readonly afterAll: (fn: () => Promise<void>) => void;
  readonly expect: SuiteExpect;
}

/**
 * The store suite: what every engine must do the same way — PGlite in a worker thread or on the
 * calling thread (Node), PGlite on IndexedDB in a browser page, Postgres. Registered with `t`,
 * on a fresh database that `open` returns.
 */
export function storeSuite(t: SuiteRunner, open: () => Promise<Db>): void {
  const { it, expect } = t;
  let db: Db;
  let store: SessionStore;
  t.beforeAll(async () => {
    db = await open();
    store = new SessionStore(db);
    await ensureUser(db, "u1");
    await ensureUser(db, "u2");
  });
  t.afterAll(async () => {
    await db?.close();
  });

  const newSession = (userId = "u1", idempotencyKey?: string) =>
    store.createSession({ id: newId("ses"), userId, idempotencyKey, task: "t", model: "script:x", maxSteps: 10, playbook: "", playbookInstructions: "", context: emptyContext("t") });
  const conflict = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

  it("migrates idempotently to the latest version", async () => {
    const v = await migrate(db);
    expect(v).to.equal(migrations.at(-1)?.version);
    expect(await migrate(db)).to.equal(v);
    const rows = await db.query<{ n: number }>("select count(*)::int as n from schema_migrations");
    expect(Number(rows[0]?.n)).to.equal(migrations.length);
  });

  it("keeps session and call rows updatable in place: half-empty pages, context inline up to a page", async () => {
    const [s] = await db.query<{ reloptions: unknown }>("select reloptions from pg_class where relname = 'sessions'");
    expect(String(s?.reloptions)).to.include("fillfactor=50");
    expect(String(s?.reloptions)).to.include("toast_tuple_target=8160");
    const [c] = await db.query<{ reloptions: unknown }>("select reloptions from pg_class where relname = 'calls'");
    expect(String(c?.reloptions)).to.include("fillfactor=50");
  });

  it("stores API tokens hashed and resolves them", async () => {
    const token = await createToken(db, "u1", "test");
    expect(await userForToken(db, token)).to.equal("u1");
    expect(await userForToken(db, `${token}x`)).to.be.undefined;
    const raw = await db.query("select token_hash from api_tokens");
    expect(raw.some((r) => r.token_hash === token)).to.be.false;
    await registerToken(db, "u2", "bt_fixed_token_for_tests_000");
    await registerToken(db, "u2", "bt_fixed_token_for_tests_000");
    expect(await userForToken(db, "bt_fixed_token_for_tests_000")).to.equal("u2");
  });

  it("creates sessions idempotently per user and key", async () => {
    const a = await newSession("u1", "k");
    const b = await newSession("u1", "k");
    const c = await newSession("u2", "k");
    expect(b.id).to.equal(a.id);
    expect(c.id).not.to.equal(a.id);
    expect((await store.readSession(a.id))?.userId).to.equal("u1");
    expect(await store.readSession("ses_none")).to.be.undefined;
  });

  it("commits turns: history, calls, trace, usage, context lines and the stored response, as the next read sees them", async () => {
    let s: SessionRow = await newSession();
    const responses: { key: string; ids: string[] }[] = [];
    for (let i = 0; i < 3; i++) {
      const c = nextTurn(s, { lease: new Date(Date.now() + 60_000), owner: "me" });
      s = await store.commit(c);
      responses.push({ key: c.response!.key, ids: c.response!.messages.map((m) => m.id) });
    }
    for (const r of responses) expect((await store.readStep(s.id, r.key))?.stored?.messages.map((m) => m.id)).to.deep.equal(r.ids);
    expect(s.step).to.equal(3);
    expect(s.historyLen).to.equal(5);
    expect(s.usage).to.deep.equal({ input: 1500, output: 60, cached: 0, cost: 0.75 });
    expect(s.leaseOwner).to.equal("me");
    const at = await store.readStep(s.id, "res:r:call_2_0");
    expect(at?.session.historyLen).to.equal(5);
    expect(at?.session.context.micro).to.deep.equal(s.context.micro);
    expect(at?.session.usage).to.deep.equal(s.usage);
    expect(at?.calls.map((x) => [x.toolcallId, x.state])).to.deep.equal([["call_3_0", "pending"]]);
    expect(at?.stored?.messages[0]?.id).to.equal("msg_3_1");
    expect(Number(at?.stored?.session?.usage?.inputTokens)).to.equal(1500);
    expect((await store.callsOfStep(s.id, 2)).map((x) => [x.state, x.output])).to.deep.equal([["done", '{"click":{}}']]);
    expect((await store.history(s.id)).map((h) => h.entry.case)).to.deep.equal(["agentMessage", "toolResult", "agentMessage", "toolResult", "agentMessage"]);
    expect((await store.traces(s.id)).map((x) => x.step)).to.deep.equal([1, 2, 3]);
  });

  it("refuses a commit from a stale version or against another instance's live lease, writing nothing", async () => {
    const s0 = await newSession();
    const s1 = await store.commit(nextTurn(s0, { owner: "a", lease: new Date(Date.now() + 60_000) }));
    // Computed from the version before s1: lost.
    expect(await conflict(store.commit(nextTurn(s0, { owner: "a" })))).to.be.instanceOf(SessionConflict);
    // Another instance, while a's lease is live: lost; a itself goes on.
    expect(await conflict(store.commit(nextTurn(s1, { owner: "b" })))).to.be.instanceOf(SessionConflict);
    const s2 = await store.commit(nextTurn(s1, { owner: "a" }));
    expect(s2.leaseUntil).to.equal(null);
    // Released: anyone may commit now.
    const s3 = await store.commit(nextTurn(s2, { owner: "b" }));
    expect(s3.step).to.equal(3);
    expect((await store.history(s0.id)).length).to.equal(s3.historyLen);
    expect((await store.traces(s0.id)).length).to.equal(3);
  });

  it("applies the stop guard in the commit: a stop set meanwhile makes the status STOPPED and stores no response", async () => {
    const s0 = await newSession();
    const s1 = await store.commit(nextTurn(s0));
    await store.requestStop(s0.id, "user pressed stop");
    const guardedTurn = nextTurn(s1);
    const guarded = await store.commit(guardedTurn);
    expect(guarded.status).to.equal(SessionStatus.STOPPED);
    expect(guarded.stopRequested).to.be.true;
    expect(guarded.reason).to.equal("user pressed stop");
    expect((await store.readStep(s0.id, guardedTurn.response!.key))?.stored).to.be.undefined;
    // Unguarded (the stop's own closing commit), and a new message clearing the flag.
    const closingTurn = { ...nextTurn(guarded, { stopGuard: false }), set: { status: SessionStatus.STOPPED } };
    const closing = await store.commit(closingTurn);
    expect((await store.readStep(s0.id, closingTurn.response!.key))?.stored).not.to.be.undefined;
    const cleared = await store.commit({ from: closing, owner: "x", lease: null, set: { clearStop: true, status: SessionStatus.RUNNING, reason: "" } });
    expect([cleared.stopRequested, cleared.status, cleared.reason]).to.deep.equal([false, SessionStatus.RUNNING, ""]);
  });

  it("keeps the context's summaries as lines: appended, trimmed, folded, and read back the same", async () => {
    let s: SessionRow = await newSession();
    for (let step = 1; step <= 30; step++) {
      // One line a turn; the oldest dropped past 6; a fold every 11th step drops them all.
      const micro = step % 11 === 0 ? [`fold ${step}`] : [...s.context.micro, `step ${step}: "quoted" \\ line\nwith newline`].slice(-6);
      const context = { ...s.context, micro, goal: `goal at ${step}` };
      s = await store.commit({ from: s, owner: "x", lease: null, set: { step, context, goal: context.goal } });
      const stored = await db.query<{ seq: number; line: string }>("select seq, line from context_lines where session_id = $1 order by seq", [s.id]);
      expect(stored.map((l) => l.line)).to.deep.equal(micro);
      expect(stored.map((l) => Number(l.seq))).to.deep.equal(micro.map((_, i) => s.contextFrom + i));
    }
    const read = await store.readSession(s.id);
    expect(read?.context.micro).to.deep.equal(s.context.micro);
    expect(read?.context.goal).to.equal("goal at 30");
    const [raw] = await db.query<{ context: string }>("select context from sessions where id = $1", [s.id]);
    expect(JSON.parse(String(raw?.context))).not.to.have.property("micro");
  });

  it("answers a retried input with its stored messages and the session as it stands, also for whole responses stored as JSON or protobuf bytes", async () => {
    const s = await newSession();
    const message = create(AgentMessageSchema, { id: "msg_1_1", step: 1 });
    await store.commit({ from: s, owner: "x", lease: null, set: { step: 1 }, response: { key: "res:r:a", messages: [message] } });
    expect((await store.readStep(s.id, "other"))?.stored).to.be.undefined;
    // Rows as earlier versions stored them: a whole response, its session as it was then.
    const old = create(StepResponseSchema, { messages: [message], session: { id: s.id, step: 7 } });
    await db.query("insert into responses (session_id, input_key, response) values ($1, 'old', $2)", [s.id, JSON.stringify(toJson(StepResponseSchema, old))]);
    await db.query("insert into responses (session_id, input_key, body) values ($1, 'bytes', $2)", [s.id, toBinary(StepResponseSchema, old)]);
    for (const key of ["res:r:a", "old", "bytes"]) {
      const stored = (await store.readStep(s.id, key))?.stored;
      expect([stored?.messages.map((m) => m.id), stored?.session?.step], key).to.deep.equal([["msg_1_1"], 1]);
    }
    expect(await store.keyUsed(s.id, "res:r:")).to.be.true;
    expect(await store.keyUsed(s.id, "msg:")).to.be.false;
  });

  it("moves calls by session, step and id: results, approvals with a new message", async () => {
    let s: SessionRow = await newSession();
    s = await store.commit(nextTurn(s));
    const [call] = await store.callsOfStep(s.id, 1);
    // A result filed under another step moves nothing.
    s = await store.commit({ from: s, owner: "x", lease: null, callUpdates: [{ id: "call_1_0", step: 2, state: "done", output: "{}" }] });
    expect((await store.callsOfStep(s.id, 1)).map((c) => c.state)).to.deep.equal(["pending"]);
    const message = create(AgentMessageSchema, { ...call!.message!, status: MessageStatus.AWAITING_APPROVAL });
    s = await store.commit({ from: s, owner: "x", lease: null, callUpdates: [{ id: "call_1_0", step: 1, state: "awaiting_approval", message }] });
    const [moved] = await store.callsOfStep(s.id, 1);
    expect([moved?.state, moved?.message?.status, moved?.output]).to.deep.equal(["awaiting_approval", MessageStatus.AWAITING_APPROVAL, null]);
    expect([...(await store.callsById(s.id, ["call_1_0", "zzz"])).keys()]).to.deep.equal(["call_1_0"]);
  });

  it("renews a lease only for its holder or a free session, and settles a stop only when no step holds it", async () => {
    const s = await newSession();
    const soon = new Date(Date.now() + 60_000);
    expect(await store.renewLease(s.id, "a", soon)).to.deep.equal({ stopRequested: false });
    expect(await store.renewLease(s.id, "b", soon)).to.be.undefined;
    await store.requestStop(s.id, "why");
    expect(await store.renewLease(s.id, "a", soon)).to.deep.equal({ stopRequested: true });
    await store.settleStop(s.id, SessionStatus.STOPPED);
    expect((await store.readSession(s.id))?.status).to.equal(SessionStatus.IDLE);
    await store.releaseLease(s.id, "b");
    expect((await store.readSession(s.id))?.leaseOwner).to.equal("a");
    await store.releaseLease(s.id, "a");
    await store.settleStop(s.id, SessionStatus.STOPPED);
    expect((await store.readSession(s.id))?.status).to.equal(SessionStatus.STOPPED);
  });

  it("merges a retried step's traces into one row", async () => {
    let s: SessionRow = await newSession();
    const trace = (latencyMs: number, input: number, errors: string[]) => ({ step: 1, model: "m", latencyMs, usage: { input, output: 0, cached: 0, cost: 0 }, toolCalls: [], errors });
    s = await store.commit({ from: s, owner: "x", lease: null, trace: trace(5, 0, ["server: 500"]) });
    s = await store.commit({ from: s, owner: "x", lease: null, trace: trace(7, 10, []) });
    const [t1] = await store.traces(s.id);
    expect([t1?.latencyMs, Number(t1?.usage?.inputTokens), t1?.errors]).to.deep.equal([12, 10, ["server: 500"]]);
    expect(s.usage.input).to.equal(10);
  });

  it("stores client logs as given (the agent redacts them before: faults/redaction.test.ts) and counts them", async () => {
    const s = await newSession();
    const entry = create(LogEntrySchema, { level: LogLevel.ERROR, message: "click failed", step: 2, tool: "click", toolcallId: "call_2_0", time: timestampNow(), attributes: { api_key: "sk-live-123456789", ok: "fine" } });
    expect(await store.addLogs(s.id, "u1", [entry, entry])).to.equal(2);
    expect(await store.countLogs(s.id)).to.equal(2);
    const [log] = await store.logs(s.id);
    expect([log?.message, log?.tool, log?.attributes]).to.deep.equal(["click failed", "click", { api_key: "sk-live-123456789", ok: "fine" }]);
  });

  it("searches memory by full text, per user, best match first; a save keyed by its call is stored once, with where it came from", async () => {
    await store.saveMemory("u1", "Prefers window seats on long flights", ["travel"], { byUser: true });
    await store.saveMemory("u1", "Home address: 4 Privet Drive, Little Whinging", ["address"], {});
    const from = { sessionId: "ses_1", pageUrl: "https://shop.example/account", key: "call_1_0" };
    const id = await store.saveMemory("u1", "Shipping address for work: 221B Baker Street", ["address", "work"], from);
    expect(await store.saveMemory("u1", "Shipping address for work: 221B Baker Street", ["address", "work"], from)).to.equal(id);
    await store.saveMemory("u2", "Shipping address: somewhere else entirely", [], {});
    const r = await store.searchMemory("u1", "what is my shipping address?", 5);
    expect(r.map((x) => x.text)).to.deep.equal(["Shipping address for work: 221B Baker Street", "Home address: 4 Privet Drive, Little Whinging"]);
    // The agent's record names its session and page and is not the user's; the user's own is pinned.
    expect([r[0]?.sessionId, r[0]?.pageUrl, r[0]?.byUser, r[0]?.pinned]).to.deep.equal(["ses_1", "https://shop.example/account", false, false]);
    const [mine] = await store.searchMemory("u1", "window", 5);
    expect([mine?.sessionId, mine?.pageUrl, mine?.byUser, mine?.pinned]).to.deep.equal(["", "", true, true]);
    expect((await store.searchMemory("u1", "flight", 5)).map((x) => x.text)).to.deep.equal(["Prefers window seats on long flights"]);
    expect(await store.searchMemory("u1", "?!", 5)).to.deep.equal([]);
  });

  it("versions playbooks per user", async () => {
    const p = create(PlaybookSchema, { name: "checkout", instructions: "v1", keywords: ["buy"] });
    expect((await store.savePlaybook("u1", p, true))?.version).to.equal(1);
    expect(await store.savePlaybook("u1", p, true)).to.be.undefined;
    expect(await store.savePlaybook("u1", create(PlaybookSchema, { name: "ghost", instructions: "x" }), false)).to.be.undefined;
    expect((await store.savePlaybook("u1", { ...p, instructions: "v2" }, false))?.version).to.equal(2);
    expect((await store.playbook("u1", "checkout", 0))?.instructions).to.equal("v2");
    expect((await store.playbook("u1", "checkout", 1))?.instructions).to.equal("v1");
    expect(await store.playbook("u2", "checkout", 0)).to.be.undefined;
  });

  it("reaches a step's sessions through the primary key, however many sessions the store holds", async () => {
    // Planned as a join alone, the recordset (estimated at 100 rows) was hashed and every
    // session scanned: a per-turn cost that grew with the store.
    await ensureUser(db, "bulk");
    await db.exec(`insert into sessions (id, user_id, status, model, max_steps, context) select 'bulk_' || g, 'bulk', 0, 'm', 10, '{}' from generate_series(1, 3000) g`);
    await db.exec("analyze sessions");
    for (const sql of [readStepSql, commitSql]) {
      // Every parameter is a JSON recordset: an empty one each.
      const plan = (await db.query(`explain ${sql.replace(/\$\d+/g, "'[]'")}`)).map((r) => String(Object.values(r)[0])).join("\n");
      expect(plan).not.to.match(/Seq Scan on sessions/);
      expect(plan).to.match(/sessions_pkey/);
    }
  });
}
