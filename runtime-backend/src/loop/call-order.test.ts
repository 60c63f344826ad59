/**
 * Calls run in the model's order across an approval: through the real path (the SDK's
 * runTask over Connect, the agent's routes, the loop, the real store — PGlite, and Postgres
 * when BATON_TEST_DATABASE_URL is set), with a client that records what it executes.
 */
import { createClient, createRouterTransport, type Interceptor } from "@connectrpc/connect";
import { AgentService, ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import { type ApprovalDecision, runTask } from "@baton/sdk/client";
import { afterAll, describe, expect, it } from "vitest";
import type { Script } from "../providers/script.js";
import { callsOfStep, type CallRow, readHistory } from "../store/records.js";
import { bearerAuth } from "../server/auth.js";
import { agentRoutes } from "../server/routes.js";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open.js";
import { createToken } from "../store/users.js";
import { scriptedAgent } from "../testing/harness.js";
import { recordingHandlers } from "../testing/recording-handlers.js";
import { nextCalls, openAfter } from "./call-order.js";

const pgUrl = process.env.BATON_TEST_DATABASE_URL;
const engines = [
  { name: "embedded store", open: () => openDb({}), skip: false },
  { name: "Postgres", open: () => openDb({ databaseUrl: pgUrl }), skip: !pgUrl },
];

// One store per engine for the file: sessions are independent, and opening one costs seconds.
const dbs = new Map<string, Promise<Db>>();
afterAll(async () => {
  for (const db of dbs.values()) await (await db).close();
});

/** Type a name, place the order (irreversible: waits for approval), then type a note. */
const order = (after: Script["turns"]): Script => ({
  turns: [
    {
      calls: [
        { name: "type_text", args: { ref: "e1", text: "Ada" } },
        { name: "click", args: { ref: "e9", irreversible: true } },
        { name: "type_text", args: { ref: "e3", text: "leave at the door" } },
      ],
    },
    ...after,
  ],
});

describe.each(engines)("tool-call order across an approval, $name", ({ name, open, skip }) => {
  async function run(script: Script, decide: () => ApprovalDecision = () => ({ approved: true }), sessionId?: string) {
    if (!dbs.has(name)) dbs.set(name, open());
    const db = await dbs.get(name)!;
    const { agent, model } = await scriptedAgent(script, { db });
    const token = await createToken(db, "alice");
    const bearer: Interceptor = (next) => (req) => (req.header.set("authorization", `Bearer ${token}`), next(req));
    const client = createClient(AgentService, createRouterTransport(agentRoutes(agent, bearerAuth(db)), { transport: { interceptors: [bearer] } }));
    const log: string[] = [];
    const outcome = await runTask(client, {
      task: sessionId ? "and the saucer?" : "order the mug",
      ...(sessionId ? { sessionId } : {}),
      handlers: recordingHandlers(log),
      onApproval: (req) => {
        const d = decide();
        log.push(`${d.approved ? "approve" : "deny"} ${req.tool.name}`);
        return d;
      },
    });
    return { outcome, log, model, db, client };
  }

  it.skipIf(skip)("approved: the calls after the approved one wait for it, then run, in the model's order", async () => {
    const { outcome, log } = await run(order([{ calls: [{ name: "done", args: { answer: "ordered" } }] }]), () => ({ approved: true }));
    expect(outcome.status).toBe("completed");
    // The approval is asked before anything after the click runs; the click runs before the note.
    expect(log).toEqual(["type e1", "approve click", "click e9", "type e3"]);
  });

  it.skipIf(skip)("refused: the refusal is the call's result, and the calls after it are closed unrun with a clear result", async () => {
    const { outcome, log, model } = await run(order([{ calls: [{ name: "done", args: { answer: "not ordered" } }] }]), () => ({ approved: false, reason: "too expensive" }));
    expect(outcome.status).toBe("completed");
    expect(outcome.answer).toBe("not ordered");
    expect(log).toEqual(["type e1", "deny click"]);
    // The model's next prompt reads all three results: done, refused, not run.
    const results = (model.requests[1]?.items ?? []).flatMap((i) => (i.type === "tool_result" ? [i.output] : []));
    expect(results).toHaveLength(3);
    expect(results[1]).toContain("too expensive");
    expect(results[2]).toContain("not run: the user denied an earlier call of the same turn (click");
  });

  it.skipIf(skip)("a backend call after a refused one does not run: `done` does not report an order nobody placed", async () => {
    const script: Script = {
      turns: [
        { calls: [{ name: "click", args: { ref: "e9", irreversible: true } }, { name: "done", args: { answer: "order placed" } }] },
        { calls: [{ name: "done", args: { answer: "the user declined the order" } }] },
      ],
    };
    const { outcome, log } = await run(script, () => ({ approved: false }));
    expect(log).toEqual(["deny click"]);
    expect(outcome.answer).toBe("the user declined the order");
  });

  /** The error code of a call's result in the session's history (undefined: no error result). */
  async function errorCodeOf(db: Db, sessionId: string, toolcallId: string): Promise<ToolErrorCode | undefined> {
    for (const e of await readHistory(db, sessionId)) {
      if (e.entry.case === "toolResult" && e.entry.value.toolcallId === toolcallId && e.entry.value.outcome.case === "error") return e.entry.value.outcome.value.code;
    }
    return undefined;
  }

  /** Every call of the session's `step` is closed, and the history holds one result per call. */
  async function expectAllClosed(db: Db, sessionId: string, step: number) {
    const rows = await callsOfStep(db, sessionId, step);
    expect(rows.map((c) => c.state)).toEqual(rows.map(() => "done"));
    const results = new Set((await readHistory(db, sessionId)).flatMap((e) => (e.entry.case === "toolResult" ? [e.entry.value.toolcallId] : [])));
    expect(rows.filter((c) => !results.has(c.toolcallId)).map((c) => c.name)).toEqual([]);
    return rows;
  }

  it.skipIf(skip)("a client call after `done` is not handed out: it is closed unrun with `done`, and a follow-up continues cleanly", async () => {
    const script: Script = {
      turns: [
        { calls: [{ name: "done", args: { answer: "ordered" } }, { name: "click", args: { ref: "e9" } }] },
        { calls: [{ name: "done", args: { answer: "saucer too" } }] },
      ],
    };
    const { outcome, log, db, client } = await run(script);
    expect(outcome).toMatchObject({ status: "completed", answer: "ordered" });
    expect(log).toEqual([]);
    const rows = await expectAllClosed(db, outcome.sessionId, outcome.session.step);
    expect(rows.map((c) => c.name)).toEqual(["done", "click"]);
    expect(rows[1]?.output).toContain("The session already completed; this call was not run.");
    expect(await errorCodeOf(db, outcome.sessionId, rows[1]!.toolcallId)).toBe(ToolErrorCode.NOT_RUN);
    // A client reading the session back (a reconnect, the side panel) is handed no call to run.
    expect((await client.getSession({ sessionId: outcome.sessionId })).pendingCalls).toEqual([]);

    // A follow-up message starts a new step on a closed one: no "stopped" wording, the click's result is the done's.
    const next = await run(script, undefined, outcome.sessionId);
    expect(next.outcome).toMatchObject({ status: "completed", answer: "saucer too" });
    const prompt = (next.model.requests.at(-1)?.items ?? []).map((i) => ("text" in i ? i.text : "")).join("\n");
    expect(prompt).not.toContain("stopped");
    expect(prompt).toMatch(/click\(\{"ref":"e9"\}\) → error not_run/);
  });

  it.skipIf(skip)("a client call before `done` runs first, in the model's order; the one after it is closed unrun", async () => {
    const script: Script = {
      turns: [
        {
          calls: [
            { name: "click", args: { ref: "e9" } },
            { name: "done", args: { answer: "clicked" } },
            { name: "type_text", args: { ref: "e3", text: "late" } },
          ],
        },
      ],
    };
    const { outcome, log, db } = await run(script);
    expect(outcome).toMatchObject({ status: "completed", answer: "clicked" });
    expect(log).toEqual(["click e9"]);
    const rows = await expectAllClosed(db, outcome.sessionId, outcome.session.step);
    expect(rows.map((c) => c.name)).toEqual(["click", "done", "type_text"]);
    expect(rows[0]?.output).not.toContain("not run");
    expect(rows[2]?.output).toContain("The session already completed; this call was not run.");
    expect(await errorCodeOf(db, outcome.sessionId, rows[2]!.toolcallId)).toBe(ToolErrorCode.NOT_RUN);
  });
});

describe("nextCalls, the rule alone", () => {
  const row = (ord: number, side: CallRow["side"], state: CallRow["state"]): CallRow => ({
    toolcallId: `call_1_${ord}`,
    step: 1,
    ord,
    name: side === "backend" ? "save_memory" : "click",
    arguments: "{}",
    side,
    state,
    message: undefined,
    output: state === "done" ? "{}" : null,
  });
  const ids = (calls: CallRow[]) => nextCalls(calls).calls.map((c) => c.ord);

  it("hands out consecutive client calls up to and including the first awaiting approval", () => {
    expect(ids([row(0, "client", "pending"), row(1, "client", "awaiting_approval"), row(2, "client", "pending")])).toEqual([0, 1]);
    expect(ids([row(0, "client", "awaiting_approval"), row(1, "client", "awaiting_approval")])).toEqual([0]);
  });

  it("skips what is done; a backend call waits for the client calls before it, and the other way round", () => {
    expect(nextCalls([row(0, "client", "done"), row(1, "backend", "pending"), row(2, "client", "pending")])).toMatchObject({ actor: "backend", calls: [{ ord: 1 }] });
    expect(nextCalls([row(0, "client", "pending"), row(1, "backend", "pending")])).toMatchObject({ actor: "client", calls: [{ ord: 0 }] });
    // A backend call awaiting approval goes to the client (the user decides there).
    expect(nextCalls([row(0, "backend", "awaiting_approval"), row(1, "backend", "pending")])).toMatchObject({ actor: "client", calls: [{ ord: 0 }] });
    expect(nextCalls([row(0, "invalid", "done"), row(1, "client", "done")])).toEqual({ actor: undefined, calls: [] });
  });

  it("openAfter: the step's calls after one, not yet done, whatever their side", () => {
    const calls = [row(0, "client", "done"), row(1, "backend", "pending"), row(2, "client", "done"), row(3, "client", "pending"), row(4, "backend", "pending")];
    expect(openAfter(calls[1]!, calls).map((c) => c.ord)).toEqual([3, 4]);
    expect(openAfter(calls[4]!, calls)).toEqual([]);
  });
});
