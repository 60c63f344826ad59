import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type AgentMessage,
  CreateSessionRequestSchema,
  MessageStatus,
  SessionStatus,
  type StepRequest,
  StepRequestSchema,
  type ToolcallResult,
  ToolcallResultSchema,
} from "@baton/gen/baton/v1/agent_pb";
import { ToolResultSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, describe, expect, it } from "vitest";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open.js";
import { riskPolicy } from "./approval.js";
import { scriptedAgent } from "../testing/harness.js";
import type { Script } from "../providers/script.js";

// One store for the file: sessions are independent, and opening PGlite costs ~1.5 s.
let shared: Db | undefined;
afterAll(async () => {
  await shared?.close();
});

async function setup(script: Parameters<typeof scriptedAgent>[0], opts: Parameters<typeof scriptedAgent>[1] = {}) {
  shared ??= await openDb({});
  return scriptedAgent(script, { db: shared, ...opts });
}

const start = (task: string, extra: Record<string, unknown> = {}) => create(CreateSessionRequestSchema, { task, ...extra });
const resume = (sessionId: string): StepRequest => create(StepRequestSchema, { sessionId });
const say = (sessionId: string, text: string, idempotencyKey = ""): StepRequest =>
  create(StepRequestSchema, { sessionId, idempotencyKey, input: { case: "userMessage", value: { text } } });
const results = (sessionId: string, rs: ToolcallResult[]): StepRequest =>
  create(StepRequestSchema, { sessionId, input: { case: "toolResults", value: { results: rs } } });

function callsIn(messages: AgentMessage[]) {
  return messages.flatMap((m) => (m.content.case === "functionCall" ? [{ id: m.content.value.toolcallId, call: m.content.value.call, status: m.status }] : []));
}

function navigated(toolcallId: string): ToolcallResult {
  return create(ToolcallResultSchema, {
    toolcallId,
    outcome: { case: "result", value: create(ToolResultSchema, { tool: { case: "navigate", value: { url: "https://example.com/", title: "Example" } } }) },
  });
}

const browse: Script = {
  turns: [
    { text: "<goal>Open example.com and report its title</goal>Opening the page.", calls: [{ name: "navigate", args: { url: "https://example.com" } }] },
    { calls: [{ name: "done", args: { answer: "The title is Example." } }], context: "navigated; title Example" },
  ],
};

describe("agent loop", () => {
  it("runs a task: client tool call, result, done; persists history, traces, usage and goal", async () => {
    const { agent, model } = await setup(browse);
    const s = await agent.createSession("alice", start("What is the title of example.com?"));
    const r1 = await agent.step("alice", resume(s.id));
    const calls = callsIn(r1.messages);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.call?.tool.case).toBe("navigate");
    expect(r1.messages.some((m) => m.content.case === "text" && m.content.value.text === "Opening the page.")).toBe(true);
    expect(r1.session?.status).toBe(SessionStatus.AWAITING_TOOLS);
    expect(r1.session?.goal).toBe("Open example.com and report its title");

    const r2 = await agent.step("alice", results(s.id, [navigated(calls[0]!.id)]));
    expect(r2.session?.status).toBe(SessionStatus.COMPLETED);
    expect(r2.session?.answer).toBe("The title is Example.");
    expect(model.requests).toHaveLength(2);
    // The second prompt replays the call and its result, and keeps the goal.
    const second = model.requests[1]!;
    expect(second.items.some((i) => i.type === "tool_result" && i.output.includes("Example"))).toBe(true);
    expect(second.items[0]?.type === "user" && second.items[0].text.includes("Open example.com and report its title")).toBe(true);

    const got = await agent.getSession("alice", s.id);
    expect(got.traces.map((t) => t.step)).toEqual([1, 2]);
    expect(got.traces[0]?.toolCalls).toEqual(["navigate"]);
    expect(Number(got.session?.usage?.inputTokens)).toBeGreaterThan(0);
    const kinds = got.history.map((h) => h.entry.case);
    expect(kinds).toEqual(["userMessage", "agentMessage", "agentMessage", "toolResult", "agentMessage", "toolResult"]);
    expect(got.pendingCalls).toHaveLength(0);
  });

  it("treats a retried or duplicate ToolcallResult as the same request: no second model turn", async () => {
    const { agent, model } = await setup(browse);
    const s = await agent.createSession("alice", start("task"));
    const r1 = await agent.step("alice", resume(s.id));
    const id = callsIn(r1.messages)[0]!.id;
    const a = await agent.step("alice", results(s.id, [navigated(id)]));
    const b = await agent.step("alice", results(s.id, [navigated(id)]));
    expect(b).toEqual(a);
    expect(model.requests).toHaveLength(2);
    const got = await agent.getSession("alice", s.id);
    expect(got.history.filter((h) => h.entry.case === "toolResult")).toHaveLength(2); // navigate + done, once each
  });

  it("runs concurrent duplicates once (the second joins the first)", async () => {
    const { agent, model } = await setup({ turns: [browse.turns[0]!, { ...browse.turns[1]!, delayMs: 100 }] });
    const s = await agent.createSession("alice", start("task"));
    const id = callsIn((await agent.step("alice", resume(s.id))).messages)[0]!.id;
    const [a, b] = await Promise.all([agent.step("alice", results(s.id, [navigated(id)])), agent.step("alice", results(s.id, [navigated(id)]))]);
    expect(a.session?.status).toBe(SessionStatus.COMPLETED);
    expect(b).toEqual(a);
    expect(model.requests).toHaveLength(2);
  });

  it("ignores a late result for an earlier step's call", async () => {
    const { agent, model } = await setup({
      turns: [
        { calls: [{ name: "navigate", args: { url: "https://a.example" } }] },
        { calls: [{ name: "navigate", args: { url: "https://b.example" } }] },
        { calls: [{ name: "done", args: { answer: "ok" } }] },
      ],
    });
    const s = await agent.createSession("alice", start("task"));
    const first = callsIn((await agent.step("alice", resume(s.id))).messages)[0]!.id;
    const r2 = await agent.step("alice", results(s.id, [navigated(first)]));
    const second = callsIn(r2.messages)[0]!.id;
    // The same result again, plus nothing new: the session stays where it is.
    const late = await agent.step("alice", results(s.id, [navigated(first), create(ToolcallResultSchema, { toolcallId: first, outcome: { case: "error", value: { message: "late" } } })]));
    expect(late.session?.status).toBe(SessionStatus.AWAITING_TOOLS);
    expect(callsIn(late.messages).map((c) => c.id)).toEqual([second]);
    expect(model.requests).toHaveLength(2);
    const done = await agent.step("alice", results(s.id, [navigated(second)]));
    expect(done.session?.status).toBe(SessionStatus.COMPLETED);
  });

  it("rejects a result for a toolcall id the session never issued", async () => {
    const { agent } = await setup(browse);
    const s = await agent.createSession("alice", start("task"));
    await agent.step("alice", resume(s.id));
    await expect(agent.step("alice", results(s.id, [navigated("call_99_0")]))).rejects.toMatchObject({ code: Code.InvalidArgument });
  });

  it("returns unknown tools, invalid params and malformed JSON to the model as errors, not crashes", async () => {
    const { agent, model } = await setup({
      turns: [
        {
          calls: [
            { name: "teleport", args: { to: "mars" } },
            { name: "navigate", args: { url: 42, bogus: true } },
            { name: "click", args: '{"ref": "e1",' },
          ],
        },
        { calls: [{ name: "done", args: { answer: "recovered" } }] },
      ],
    });
    const s = await agent.createSession("alice", start("task"));
    const r = await agent.step("alice", resume(s.id));
    expect(r.session?.status).toBe(SessionStatus.COMPLETED);
    const outputs = model.requests[1]!.items.filter((i) => i.type === "tool_result").map((i) => (i.type === "tool_result" ? i.output : ""));
    expect(outputs).toHaveLength(3);
    expect(outputs[0]).toContain("unknown_tool");
    expect(outputs[0]).toContain("teleport");
    expect(outputs[1]).toContain("invalid_arguments");
    expect(outputs[2]).toContain("not valid JSON");
    const got = await agent.getSession("alice", s.id);
    expect(got.traces[0]?.errors.length).toBe(3);
  });

  it("holds irreversible (here: policy-selected) calls for approval; approve runs, deny tells the model", async () => {
    const { agent, model } = await setup(
      {
        turns: [
          { calls: [{ name: "click", args: { ref: "e1" } }] },
          { calls: [{ name: "click", args: { ref: "e2" } }] },
          { calls: [{ name: "done", args: { answer: "ok" } }] },
        ],
      },
      { approval: riskPolicy({ always: ["click"] }) },
    );
    const s = await agent.createSession("alice", start("task"));
    const r1 = await agent.step("alice", resume(s.id));
    const c1 = callsIn(r1.messages)[0]!;
    expect(c1.status).toBe(MessageStatus.AWAITING_APPROVAL);
    expect(r1.session?.status).toBe(SessionStatus.AWAITING_APPROVAL);
    // A result before the approval is refused.
    await expect(
      agent.step("alice", results(s.id, [create(ToolcallResultSchema, { toolcallId: c1.id, outcome: { case: "result", value: { tool: { case: "click", value: {} } } } })])),
    ).rejects.toMatchObject({ code: Code.FailedPrecondition });
    const approve = create(ToolcallResultSchema, { toolcallId: c1.id, outcome: { case: "approval", value: { approved: true } } });
    const r2 = await agent.step("alice", results(s.id, [approve]));
    expect(callsIn(r2.messages)[0]).toMatchObject({ id: c1.id, status: MessageStatus.COMPLETED });
    expect(r2.session?.status).toBe(SessionStatus.AWAITING_TOOLS);
    expect(model.requests).toHaveLength(1);
    const r3 = await agent.step("alice", results(s.id, [create(ToolcallResultSchema, { toolcallId: c1.id, outcome: { case: "result", value: { tool: { case: "click", value: {} } } } })]));
    const c2 = callsIn(r3.messages)[0]!;
    expect(c2.status).toBe(MessageStatus.AWAITING_APPROVAL);
    const deny = create(ToolcallResultSchema, { toolcallId: c2.id, outcome: { case: "approval", value: { approved: false, reason: "not that one" } } });
    const r4 = await agent.step("alice", results(s.id, [deny]));
    expect(r4.session?.status).toBe(SessionStatus.COMPLETED);
    const denied = model.requests[2]!.items.find((i) => i.type === "tool_result");
    expect(denied?.type === "tool_result" && denied.output).toContain("denied");
    expect(denied?.type === "tool_result" && denied.output).toContain("not that one");
  });

  it("by default gates only irreversible calls: a click flagged irreversible waits, a plain click does not", async () => {
    const { agent } = await setup({
      turns: [
        {
          calls: [
            { name: "click", args: { ref: "e1" } },
            { name: "click", args: { ref: "e9", irreversible: true } },
          ],
        },
      ],
    });
    const s = await agent.createSession("alice", start("place the order"));
    const r = await agent.step("alice", resume(s.id));
    expect(callsIn(r.messages).map((c) => c.status)).toEqual([MessageStatus.COMPLETED, MessageStatus.AWAITING_APPROVAL]);
    expect(r.session?.status).toBe(SessionStatus.AWAITING_APPROVAL);
  });

  it("stops during a model call: the step returns STOPPED and no tool call leaks out", async () => {
    const { agent } = await setup({ turns: [{ calls: [{ name: "navigate", args: { url: "https://x.example" } }], delayMs: 30_000 }] });
    const s = await agent.createSession("alice", start("task"));
    const running = agent.step("alice", resume(s.id));
    await new Promise((r) => setTimeout(r, 50));
    await agent.stop("alice", s.id, "changed my mind");
    const r = await running;
    expect(r.session?.status).toBe(SessionStatus.STOPPED);
    expect(callsIn(r.messages)).toHaveLength(0);
    expect(r.messages.at(-1)?.status).toBe(MessageStatus.STOPPED);
  });

  it("stops a session waiting for tools; late results are recorded but run nothing", async () => {
    const { agent, model } = await setup(browse);
    const s = await agent.createSession("alice", start("task"));
    const id = callsIn((await agent.step("alice", resume(s.id))).messages)[0]!.id;
    const stopped = await agent.stop("alice", s.id, "");
    expect(stopped.status).toBe(SessionStatus.STOPPED);
    const r = await agent.step("alice", results(s.id, [navigated(id)]));
    expect(r.session?.status).toBe(SessionStatus.STOPPED);
    expect(model.requests).toHaveLength(1);
    // A new user message clears the stop and continues.
    const again = await agent.step("alice", say(s.id, "go on"));
    expect(again.session?.status).toBe(SessionStatus.COMPLETED);
  });

  it("enforces max steps", async () => {
    const { agent } = await setup({ turns: [{ calls: [{ name: "search_user_memory", args: { query: "x" } }] }], loopFrom: 0 });
    const s = await agent.createSession("alice", start("task", { maxSteps: 3 }));
    const r = await agent.step("alice", resume(s.id));
    expect(r.session?.status).toBe(SessionStatus.FAILED);
    expect(r.session?.step).toBe(3);
    expect(r.session?.reason).toContain("step limit");
  });

  it("fails the step cleanly when the model errors, and a new message continues", async () => {
    let calls = 0;
    const { agent } = await setup(() => (calls++ === 0 ? { error: { status: 500 } } : { calls: [{ name: "done", args: { answer: "ok" } }] }));
    const s = await agent.createSession("alice", start("task"));
    const r = await agent.step("alice", resume(s.id));
    expect(r.session?.status).toBe(SessionStatus.FAILED);
    expect(r.session?.reason).toContain("Model call failed");
    const got = await agent.getSession("alice", s.id);
    expect(got.traces[0]?.errors[0]).toContain("server");
    const r2 = await agent.step("alice", say(s.id, "try again"));
    expect(r2.session?.status).toBe(SessionStatus.COMPLETED);
  });

  it("answers a non-task in text and waits for the user", async () => {
    const { agent } = await setup({ turns: [{ text: "<non-task></non-task>Hello! What can I do for you?" }] });
    const s = await agent.createSession("alice", start(""));
    const r = await agent.step("alice", say(s.id, "hi"));
    expect(r.session?.status).toBe(SessionStatus.IDLE);
    expect(r.messages[0]?.content.case === "text" && r.messages[0].content.value.text).toBe("Hello! What can I do for you?");
  });

  it("deduplicates user messages by idempotency key", async () => {
    const { agent, model } = await setup({ turns: [{ text: "hello" }, { text: "again" }] });
    const s = await agent.createSession("alice", start(""));
    const a = await agent.step("alice", say(s.id, "hi", "k1"));
    const b = await agent.step("alice", say(s.id, "hi", "k1"));
    expect(b).toEqual(a);
    expect(model.requests).toHaveLength(1);
  });

  it("scopes sessions to their user and creates sessions idempotently", async () => {
    const { agent } = await setup(browse);
    const a = await agent.createSession("alice", start("t", { idempotencyKey: "same" }));
    const b = await agent.createSession("alice", start("t", { idempotencyKey: "same" }));
    expect(b.id).toBe(a.id);
    const c = await agent.createSession("bob", start("t", { idempotencyKey: "same" }));
    expect(c.id).not.toBe(a.id);
    for (const call of [() => agent.getSession("bob", a.id), () => agent.step("bob", resume(a.id)), () => agent.stop("bob", a.id, "")]) {
      const e = await call().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ConnectError);
      expect((e as ConnectError).code).toBe(Code.PermissionDenied);
    }
    await expect(agent.getSession("alice", "ses_missing")).rejects.toMatchObject({ code: Code.NotFound });
  });

  it("runs memory tools on the backend, per user", async () => {
    // The model saves on "remember" tasks and searches otherwise.
    const { agent } = await setup((req) => {
      const task = req.items[0]?.type === "user" ? req.items[0].text : "";
      if (req.callIndex > 0) return { calls: [{ name: "done", args: { answer: "ok" } }] };
      return task.includes("remember")
        ? { calls: [{ name: "save_memory", args: { text: "My shipping address is 12 Rue de Rivoli, Paris", tags: ["address"] } }] }
        : { calls: [{ name: "search_user_memory", args: { query: "shipping address" } }] };
    });
    const s1 = await agent.createSession("alice", start("remember my address"));
    expect((await agent.step("alice", resume(s1.id))).session?.status).toBe(SessionStatus.COMPLETED);
    const found = async (user: string) => {
      const s = await agent.createSession(user, start("where do I live?"));
      await agent.step(user, resume(s.id));
      const h = (await agent.getSession(user, s.id)).history.find((e) => e.entry.case === "toolResult");
      const r = h?.entry.case === "toolResult" ? h.entry.value.outcome : undefined;
      return r?.case === "result" && r.value.tool.case === "searchUserMemory" ? r.value.tool.value.records.map((x) => x.text) : undefined;
    };
    expect(await found("alice")).toEqual(["My shipping address is 12 Rue de Rivoli, Paris"]);
    expect(await found("bob")).toEqual([]);
  });

});
