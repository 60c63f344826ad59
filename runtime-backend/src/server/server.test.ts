import { create, fromBinary, fromJson, type JsonValue, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport, type Interceptor, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import {
  AgentService,
  CreateSessionRequestSchema,
  CreateSessionResponseSchema,
  Phase,
  SessionStatus,
  type StepRequest,
  StepRequestSchema,
  type StepResponse,
  StepResponseSchema,
  ToolcallResultSchema,
  ToolcallResultsSchema,
  UserMessageSchema,
} from "@baton/gen/baton/v1/agent_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../loop/agent.js";
import { ScriptProvider } from "../providers/script.js";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open.js";
import { SessionStore } from "../store/session-store.js";
import { createToken, ensureUser } from "../store/users.js";
import { bearerAuth } from "./auth.js";
import { agentRoutes } from "./routes.js";
import { type RunningServer, serve } from "./serve.js";

let db: Db;
let routes: ReturnType<typeof agentRoutes>;
let server: RunningServer;
let alice = "";
let bob = "";

const bearer =
  (token: string): Interceptor =>
  (next) =>
  (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };

beforeAll(async () => {
  db = await openDb({});
  await ensureUser(db, "alice");
  await ensureUser(db, "bob");
  alice = await createToken(db, "alice");
  bob = await createToken(db, "bob");
  const provider = new ScriptProvider({
    turns: [
      { text: "<goal>Open example.com</goal>Opening.", calls: [{ name: "navigate", args: { url: "https://example.com" } }] },
      { calls: [{ name: "done", args: { answer: "Done." } }] },
    ],
  });
  const agent = new Agent({ store: new SessionStore(db), resolveModel: () => ({ provider, model: "m" }) });
  routes = agentRoutes(agent, bearerAuth(db));
  server = await serve({ routes, cors: { extensionIds: ["abcdefghijklmnopabcdefghijklmnop"] } });
});

afterAll(async () => {
  await server?.close();
  await db?.close();
});

async function runTask(transport: Transport) {
  const client = createClient(AgentService, transport);
  const { session } = await client.createSession({ task: "open example.com" });
  const r1 = await client.step({ sessionId: session!.id });
  const call = r1.messages.find((m) => m.content.case === "functionCall");
  const id = call?.content.case === "functionCall" ? call.content.value.toolcallId : "";
  expect(id).not.toBe("");
  const r2 = await client.step({
    sessionId: session!.id,
    input: {
      case: "toolResults",
      value: { results: [create(ToolcallResultSchema, { toolcallId: id, outcome: { case: "result", value: { tool: { case: "navigate", value: { url: "https://example.com/" } } } } })] },
    },
  });
  return { client, sessionId: session!.id, r2 };
}

describe("AgentService over Connect", () => {
  it("runs a session in memory through the routes (createRouterTransport)", async () => {
    const { r2 } = await runTask(createRouterTransport(routes, { transport: { interceptors: [bearer(alice)] } }));
    expect(r2.session?.status).toBe(SessionStatus.COMPLETED);
    expect(r2.session?.answer).toBe("Done.");
  });

  it("rejects missing and unknown tokens, and another user's session", async () => {
    const anon = createClient(AgentService, createRouterTransport(routes));
    await expect(anon.createSession({})).rejects.toMatchObject({ code: Code.Unauthenticated });
    const wrong = createClient(AgentService, createRouterTransport(routes, { transport: { interceptors: [bearer("bt_nope")] } }));
    await expect(wrong.createSession({})).rejects.toMatchObject({ code: Code.Unauthenticated });
    const a = createClient(AgentService, createRouterTransport(routes, { transport: { interceptors: [bearer(alice)] } }));
    const b = createClient(AgentService, createRouterTransport(routes, { transport: { interceptors: [bearer(bob)] } }));
    const { session } = await a.createSession({ task: "mine" });
    const e = await b.getSession({ sessionId: session!.id }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConnectError);
    expect((e as ConnectError).code).toBe(Code.PermissionDenied);
  });

  it("serves HTTP/1.1 (Connect protocol) on a real socket", async () => {
    const transport = createConnectTransport({ baseUrl: server.url, httpVersion: "1.1", interceptors: [bearer(alice)] });
    const { r2 } = await runTask(transport);
    expect(r2.session?.status).toBe(SessionStatus.COMPLETED);
  });

  it("answers a retried step with the bytes it sent the first time, its stored messages and the session as it stands", async () => {
    const post = async (method: string, body: Uint8Array) => {
      const r = await fetch(`${server.url}/baton.v1.AgentService/${method}`, {
        method: "POST",
        headers: { "content-type": "application/proto", authorization: `Bearer ${alice}` },
        body: Buffer.from(body),
      });
      expect(r.status).toBe(200);
      return Buffer.from(await r.arrayBuffer());
    };
    const { session } = fromBinary(CreateSessionResponseSchema, await post("CreateSession", toBinary(CreateSessionRequestSchema, create(CreateSessionRequestSchema, { task: "open example.com" }))));
    const sessionId = session!.id;
    const first = fromBinary(StepResponseSchema, await post("Step", toBinary(StepRequestSchema, create(StepRequestSchema, { sessionId }))));
    const call = first.messages.find((m) => m.content.case === "functionCall");
    const toolcallId = call?.content.case === "functionCall" ? call.content.value.toolcallId : "";
    const results = toBinary(
      StepRequestSchema,
      create(StepRequestSchema, {
        sessionId,
        input: { case: "toolResults", value: { results: [{ toolcallId, outcome: { case: "result", value: { tool: { case: "navigate", value: { url: "https://example.com/" } } } } }] } },
      }),
    );
    const sent = await post("Step", results);
    expect(fromBinary(StepResponseSchema, sent).session?.status).toBe(SessionStatus.COMPLETED);
    expect(await post("Step", results)).toEqual(sent);
    const [row] = await db.query<{ response: string }>("select response from responses where session_id = $1", [sessionId]);
    expect(fromJson(StepResponseSchema, JSON.parse(row!.response) as JsonValue).messages).toEqual(fromBinary(StepResponseSchema, sent).messages);
  });

  it("serves h2c (gRPC over cleartext HTTP/2) on the same port", async () => {
    const transport = createGrpcTransport({ baseUrl: server.url, interceptors: [bearer(alice)] });
    const { r2 } = await runTask(transport);
    expect(r2.session?.status).toBe(SessionStatus.COMPLETED);
  });

  it("streams steps over HTTP/1.1 without waiting on delayed ACKs (TCP_NODELAY on every accepted socket)", async () => {
    // The port's protocol sniffer accepts the sockets itself, so Node's HTTP server never set
    // TCP_NODELAY on them: each streamed step's later messages waited for the client's delayed
    // ACK, 40 ms or more per step (median 45–48 ms here, against 7–10 ms with it set).
    const loop = new ScriptProvider({ turns: [{ calls: [{ name: "take_snapshot" }] }], loopFrom: 0 });
    const looping = new Agent({ store: new SessionStore(db), resolveModel: () => ({ provider: loop, model: "m" }), defaultMaxSteps: 1000 });
    const own = await serve({ routes: agentRoutes(looping, bearerAuth(db)) });
    try {
      const client = createClient(AgentService, createConnectTransport({ baseUrl: own.url, httpVersion: "1.1", useBinaryFormat: true, interceptors: [bearer(alice)] }));
      const { session } = await client.createSession({ task: "read the page" });
      let input: StepRequest["input"] = { case: "userMessage", value: create(UserMessageSchema, { text: "go" }) };
      const ms: number[] = [];
      for (let i = 0; i < 9; i++) {
        const t0 = performance.now();
        let done: StepResponse | undefined;
        for await (const ev of client.streamStep({ step: { sessionId: session!.id, input } })) if (ev.event.case === "done") done = ev.event.value;
        ms.push(performance.now() - t0);
        const call = done?.messages.find((m) => m.content.case === "functionCall");
        const toolcallId = call?.content.case === "functionCall" ? call.content.value.toolcallId : "";
        expect(toolcallId).not.toBe("");
        const result = create(ToolcallResultSchema, { toolcallId, outcome: { case: "result", value: { tool: { case: "takeSnapshot", value: { text: '[e1] button "Buy"' } } } } });
        input = { case: "toolResults", value: create(ToolcallResultsSchema, { results: [result] }) };
      }
      ms.sort((a, b) => a - b);
      // A delayed ACK costs every step ≥ 40 ms, so even the fastest of nine shows it; the
      // fastest is also the figure least moved by a loaded machine.
      expect(ms[0]).toBeLessThan(35);
    } finally {
      await own.close();
    }
  });

  it("streams progress and ends with the step's messages", async () => {
    const client = createClient(AgentService, createConnectTransport({ baseUrl: server.url, httpVersion: "2", interceptors: [bearer(alice)] }));
    const { session } = await client.createSession({ task: "open example.com" });
    const events = [];
    for await (const ev of client.streamStep({ step: { sessionId: session!.id } })) events.push(ev);
    expect(events[0]?.event.case === "progress" && events[0].event.value.phase).toBe(Phase.THINKING);
    expect(events.some((e) => e.event.case === "textDelta")).toBe(true);
    const last = events.at(-1);
    expect(last?.event.case).toBe("done");
    expect(last?.event.case === "done" && last.event.value.session?.status).toBe(SessionStatus.AWAITING_TOOLS);
  });

  it("answers CORS preflights for the allowed extension only", async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/baton.v1.AgentService/Step`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type,authorization" },
      });
    const ok = await preflight("chrome-extension://abcdefghijklmnopabcdefghijklmnop");
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("chrome-extension://abcdefghijklmnopabcdefghijklmnop");
    expect(ok.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    const other = await preflight("chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const evil = await preflight("https://evil.example");
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });
});
