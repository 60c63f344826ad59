import { Writable } from "node:stream";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { Code, createClient, createRouterTransport, type Interceptor } from "@connectrpc/connect";
import { AgentService, LogLevel, Phase, SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../loop/agent.js";
import { createLogger } from "../log/logger.js";
import { createModelResolver } from "../providers/registry.js";
import { RecordingProvider } from "../testing/harness.js";
import { ScriptProvider } from "../providers/script.js";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open.js";
import { SessionStore } from "../store/session-store.js";
import { createToken, ensureUser } from "../store/users.js";
import { chatWire, FakeLlmServer } from "../testing/fake-llm-server.js";
import { bearerAuth } from "./auth.js";
import { agentRoutes } from "./routes.js";

let db: Db;
let logLines: string[] = [];
const model = new RecordingProvider(
  new ScriptProvider({ turns: [{ calls: [{ name: "search_user_memory", args: { query: "sk-live-abcdefghijklmnop" } }] }, { calls: [{ name: "done", args: { answer: "ok" } }] }] }),
);
let fake: FakeLlmServer;
let client: ReturnType<typeof createClient<typeof AgentService>>;

beforeAll(async () => {
  db = await openDb({});
  await ensureUser(db, "carol");
  const token = await createToken(db, "carol");
  fake = await new FakeLlmServer(chatWire).start();
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  const resolve = createModelResolver({ BATON_CHAT_BASE_URL: `${fake.url}/v1`, BATON_CHAT_API_KEY: "sk-secret-key-123456" }, { script: model });
  const agent = new Agent({ store: new SessionStore(db), resolveModel: resolve, logger: createLogger({ level: "debug", destination: sink }), defaultModel: "script:x" });
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  client = createClient(AgentService, createRouterTransport(agentRoutes(agent, bearerAuth(db)), { transport: { interceptors: [auth] } }));
});

afterAll(async () => {
  await fake.stop();
  await db.close();
});

describe("playbooks", () => {
  it("creates, versions, lists and reads playbooks; rejects duplicates and unknown names", async () => {
    const v1 = await client.createPlaybook({ playbook: { name: "checkout", instructions: "Use the cart page.", keywords: ["buy", "order"], urlPatterns: ["shop.example/*"] } });
    expect(v1.playbook?.version).toBe(1);
    await expect(client.createPlaybook({ playbook: { name: "checkout", instructions: "x" } })).rejects.toMatchObject({ code: Code.AlreadyExists });
    const v2 = await client.updatePlaybook({ playbook: { name: "checkout", instructions: "Use the cart page, then pay with the saved card.", keywords: ["buy"] } });
    expect(v2.playbook?.version).toBe(2);
    await expect(client.updatePlaybook({ playbook: { name: "nope", instructions: "x" } })).rejects.toMatchObject({ code: Code.NotFound });
    await expect(client.createPlaybook({ playbook: { name: "bad name!", instructions: "x" } })).rejects.toMatchObject({ code: Code.InvalidArgument });
    expect((await client.getPlaybook({ name: "checkout", version: 1 })).playbook?.instructions).toBe("Use the cart page.");
    expect((await client.listPlaybooks({})).playbooks.map((p) => `${p.name}@${p.version}`)).toEqual(["checkout@2"]);
  });

  it("puts the best-matching playbook (or the named one) into the system instruction", async () => {
    await client.createPlaybook({ playbook: { name: "news", instructions: "Read headlines only.", keywords: ["news"] } });
    const { session } = await client.createSession({ task: "buy a mug on shop.example/mugs" });
    expect(session?.playbook).toBe("checkout@2");
    await client.step({ sessionId: session!.id });
    expect(model.requests.at(-1)?.system).toContain("pay with the saved card");
    const named = await client.createSession({ task: "buy a mug", playbook: "news@1" });
    expect(named.session?.playbook).toBe("news@1");
    const none = await client.createSession({ task: "what's the weather" });
    expect(none.session?.playbook).toBe("");
    await expect(client.createSession({ task: "x", playbook: "missing" })).rejects.toMatchObject({ code: Code.NotFound });
  });
});

describe("observability", () => {
  it("stores client logs (redacted) and returns them, with a trace per step, from GetSession", async () => {
    const { session } = await client.createSession({ task: "remember" });
    await client.step({ sessionId: session!.id });
    const stored = await client.reportLog({
      sessionId: session!.id,
      entries: [{ level: LogLevel.WARN, message: "slow page", step: 1, tool: "navigate", toolcallId: "call_1_0", time: timestampNow(), attributes: { cookie: "sid=1", url: "https://a.example" } }],
    });
    expect(stored.stored).toBe(1);
    const got = await client.getSession({ sessionId: session!.id });
    expect(got.logs[0]).toMatchObject({ message: "slow page", step: 1, tool: "navigate", attributes: { cookie: "[REDACTED]", url: "https://a.example" } });
    expect(got.traces.map((t) => [t.step, t.model, t.toolCalls])).toEqual([
      [1, "script:x", ["search_user_memory"]],
      [2, "script:x", ["done"]],
    ]);
  });

  it("streams TAKING_ACTION progress for backend tools", async () => {
    const { session } = await client.createSession({ task: "look it up" });
    const events = [];
    for await (const ev of client.streamStep({ step: { sessionId: session!.id } })) events.push(ev);
    const actions = events.flatMap((e) => (e.event.case === "progress" && e.event.value.phase === Phase.TAKING_ACTION ? [e.event.value] : []));
    expect(actions.map((a) => a.tool)).toEqual(["search_user_memory", "done"]);
    expect(actions[0]?.detail).toMatch(/^Searching memory for/);
    expect(events.at(-1)?.event.case).toBe("done");
  });

  it("logs JSON lines with session and step ids and never a secret", async () => {
    logLines = [];
    fake.script({ kind: "status", status: 401 });
    const { session } = await client.createSession({ task: "t", model: "chat:gpt-test" });
    const r = await client.step({ sessionId: session!.id });
    expect(r.session?.status).toBe(SessionStatus.FAILED);
    const records = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.some((x) => x.sessionId === session!.id && x.msg === "session created")).toBe(true);
    const failure = records.find((x) => x.sessionId === session!.id && String(x.msg).startsWith("model call failed"));
    expect(failure).toMatchObject({ step: 1, kind: "auth", status: 401 });
    expect(records.some((x) => x.rpc === "Step" && x.sessionId === session!.id && typeof x.ms === "number")).toBe(true);
    await client.getSession({ sessionId: "ses_nope" }).catch(() => undefined);
    expect(logLines.map((l) => JSON.parse(l) as Record<string, unknown>).some((x) => x.rpc === "GetSession" && x.code === "NotFound")).toBe(true);
    const all = logLines.join("\n");
    expect(all).not.toContain("sk-secret-key-123456");
    expect(all).not.toContain("sk-live-abcdefghijklmnop");
  });

  it("retries a provider 429 inside a session and carries on (loop + real HTTP provider)", async () => {
    fake.script({ kind: "status", status: 429, headers: { "retry-after": "0" } }, { kind: "calls", calls: [{ name: "done", args: '{"answer":"after retry"}' }] });
    const { session } = await client.createSession({ task: "t", model: "chat:gpt-test" });
    const r = await client.step({ sessionId: session!.id });
    expect(r.session?.status).toBe(SessionStatus.COMPLETED);
    expect(r.session?.answer).toBe("after retry");
    const got = await client.getSession({ sessionId: session!.id });
    expect(got.traces[0]?.errors.some((e) => e.includes("rate_limited"))).toBe(true);
  });

  it("rejects an unknown model at CreateSession with a helpful message", async () => {
    const e = await client.createSession({ task: "t", model: "gemini:x" }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: Code.InvalidArgument });
    expect(String((e as Error).message)).toContain("GEMINI_API_KEY");
  });
});
