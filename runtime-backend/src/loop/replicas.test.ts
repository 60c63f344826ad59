/**
 * Two agents on one store behave like two stateless replicas behind a load balancer: the stop
 * flag, leases and the version guard live in the store, not in either process.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { CreateSessionRequestSchema, SessionStatus, type StepRequest, StepRequestSchema, type StepResponse } from "@baton/gen/baton/v1/agent_pb";
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptSource } from "../providers/script.js";
import { scriptedAgent } from "../testing/harness.js";
import { openDb } from "../store/open.js";
import type { Db } from "../store/db.js";

const dbs: Db[] = [];
afterEach(async () => {
  while (dbs.length) await dbs.pop()?.close();
});

async function replicas(script: ScriptSource, heartbeatMs = 5_000) {
  const db = await openDb({});
  dbs.push(db);
  const a = await scriptedAgent(script, { db, heartbeatMs });
  const b = await scriptedAgent(script, { db, heartbeatMs });
  return { a, b };
}

function resultsFor(sessionId: string, r: StepResponse): StepRequest {
  const results = r.messages.flatMap((m) =>
    m.content.case === "functionCall" ? [{ toolcallId: m.content.value.toolcallId, outcome: { case: "result" as const, value: { tool: { case: "click" as const, value: {} } } } }] : [],
  );
  return create(StepRequestSchema, { sessionId, input: { case: "toolResults", value: { results } } });
}

describe("replicas sharing a store", () => {
  it("a stop set through another replica ends a model call in progress", async () => {
    const { a, b } = await replicas((req) => ({ calls: [{ name: "click", args: { ref: "e1" } }], delayMs: req.callIndex === 0 ? 0 : 30_000 }), 50);
    const s = await a.agent.createSession("alice", create(CreateSessionRequestSchema, { task: "t" }));
    const r1 = await a.agent.step("alice", create(StepRequestSchema, { sessionId: s.id }));
    const running = a.agent.step("alice", resultsFor(s.id, r1));
    await new Promise((r) => setTimeout(r, 100));
    await b.agent.stop("alice", s.id, "from the other replica");
    const r2 = await running;
    expect(r2.session?.status).toBe(SessionStatus.STOPPED);
    expect(r2.messages.some((m) => m.content.case === "functionCall")).toBe(false);
    // The results the client sent before the stop are kept.
    const got = await b.agent.getSession("alice", s.id);
    expect(got.history.filter((h) => h.entry.case === "toolResult")).toHaveLength(1);
  });

  it("the same input on two replicas at once commits one turn; the loser gets the answer or Aborted", async () => {
    const { a, b } = await replicas(() => ({ calls: [{ name: "click", args: { ref: "e1" } }], delayMs: 150 }));
    const s = await a.agent.createSession("alice", create(CreateSessionRequestSchema, { task: "t" }));
    const r1 = await a.agent.step("alice", create(StepRequestSchema, { sessionId: s.id }));
    const req = resultsFor(s.id, r1);
    const [x, y] = await Promise.allSettled([a.agent.step("alice", req), b.agent.step("alice", req)]);
    const ok = [x, y].filter((p) => p.status === "fulfilled");
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const p of [x, y]) {
      if (p.status === "rejected") {
        expect(p.reason).toBeInstanceOf(ConnectError);
        expect((p.reason as ConnectError).code).toBe(Code.Aborted);
      }
    }
    // A retry of the loser returns the stored answer.
    const again = await b.agent.step("alice", req);
    expect(again.session?.step).toBe(2);
    const got = await a.agent.getSession("alice", s.id);
    expect(got.traces.map((t) => t.step)).toEqual([1, 2]);
    expect(got.history.filter((h) => h.entry.case === "toolResult")).toHaveLength(1);
  });

  it("a stop that lands while the model answers keeps its calls from the client; a new message starts fresh", async () => {
    // Heartbeat far away: replica A only sees the stop when it commits the turn.
    const { a, b } = await replicas((req) => ({ calls: [{ name: "click", args: { ref: `e${req.callIndex}` } }], delayMs: req.callIndex === 1 ? 400 : 0 }), 60_000);
    const s = await a.agent.createSession("alice", create(CreateSessionRequestSchema, { task: "t" }));
    const r1 = await a.agent.step("alice", create(StepRequestSchema, { sessionId: s.id }));
    const running = a.agent.step("alice", resultsFor(s.id, r1));
    await new Promise((r) => setTimeout(r, 100));
    await b.agent.stop("alice", s.id, "stop");
    const r2 = await running;
    expect(r2.session?.status).toBe(SessionStatus.STOPPED);
    expect(r2.messages.some((m) => m.content.case === "functionCall")).toBe(false);
    const r3 = await a.agent.step("alice", create(StepRequestSchema, { sessionId: s.id, input: { case: "userMessage", value: { text: "carry on" } } }));
    // The model ran again (step 3) rather than the stopped step's call being handed out.
    expect(r3.session?.step).toBe(3);
    const calls = r3.messages.flatMap((m) => (m.content.case === "functionCall" && m.content.value.call?.tool.case === "click" ? [m.content.value.call.tool.value.ref] : []));
    expect(calls).toEqual(["e2"]);
    // …and the model was told the stopped call never ran.
    expect(a.model.requests.at(-1)?.items.some((i) => i.type === "user" && i.text.includes("stopped"))).toBe(true);
  });

  it("a model call longer than the heartbeat still commits (a replica's own lease never blocks it)", async () => {
    const { a } = await replicas(() => ({ calls: [{ name: "click", args: { ref: "e1" } }], delayMs: 200 }), 20);
    const s = await a.agent.createSession("alice", create(CreateSessionRequestSchema, { task: "t" }));
    let r = await a.agent.step("alice", create(StepRequestSchema, { sessionId: s.id }));
    r = await a.agent.step("alice", resultsFor(s.id, r));
    expect(r.session?.status).toBe(SessionStatus.AWAITING_TOOLS);
    expect(r.session?.step).toBe(2);
  });
});
