import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, createClient, type Interceptor, type Transport } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { createConnectTransport } from "@connectrpc/connect-web";
import { ToolErrorSchema } from "@baton/gen/baton/v1/agent_pb";
import { AgentService } from "@baton/gen/baton/v1/descriptors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binaryTransport } from "./binary-transport.js";

// binaryTransport against a real Connect server on 127.0.0.1, with the same assertions as
// connect-web's own transport: what it leaves out (JSON) must change nothing a client sees.

const seen: { auth: string | null; contentType: string | null; timeout: string | null }[] = [];

function routes(router: ConnectRouter): void {
  router.service(AgentService, {
    createSession(req, ctx) {
      seen.push({ auth: ctx.requestHeader.get("authorization"), contentType: ctx.requestHeader.get("content-type"), timeout: ctx.requestHeader.get("connect-timeout-ms") });
      ctx.responseHeader.set("x-answer", "42");
      ctx.responseTrailer.set("x-trailer", "t");
      return { session: { id: `ses_${req.task}`, task: req.task, maxSteps: req.maxSteps } };
    },
    getSession(req) {
      throw new ConnectError(`session ${req.sessionId} not found`, Code.NotFound, { "x-why": "gone" }, [
        { desc: ToolErrorSchema, value: create(ToolErrorSchema, { message: "detail" }) },
      ]);
    },
    async step(_req, ctx) {
      await new Promise((r) => setTimeout(r, 2_000));
      ctx.signal.throwIfAborted();
      return {};
    },
    async *streamStep(req) {
      yield { event: { case: "textDelta", value: "Hel" } };
      yield { event: { case: "textDelta", value: "lo" } };
      if (req.step?.sessionId === "fail") throw new ConnectError("the model is down", Code.Unavailable);
      yield { event: { case: "done", value: { messages: [] } } };
    },
  });
}

let server: Server;
let baseUrl = "";

beforeAll(async () => {
  server = createServer(connectNodeAdapter({ routes }));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const bearer: Interceptor = (next) => (req) => {
  req.header.set("authorization", "Bearer t0k");
  return next(req);
};

const transports: [string, (url?: string) => Transport][] = [
  ["binaryTransport", (url = baseUrl) => binaryTransport({ baseUrl: url, interceptors: [bearer] })],
  ["connect-web (binary)", (url = baseUrl) => createConnectTransport({ baseUrl: url, useBinaryFormat: true, interceptors: [bearer] })],
];

describe.each(transports)("%s", (_name, make) => {
  it("sends a unary call in the binary codec with the interceptors' headers, and reads headers and trailers", async () => {
    seen.length = 0;
    const client = createClient(AgentService, make());
    let header: Headers | undefined;
    let trailer: Headers | undefined;
    const res = await client.createSession({ task: "t1", maxSteps: 7 }, { onHeader: (h) => (header = h), onTrailer: (t) => (trailer = t), timeoutMs: 5_000 });
    expect(res.session?.id).toBe("ses_t1");
    expect(res.session?.maxSteps).toBe(7);
    expect(seen[0]?.auth).toBe("Bearer t0k");
    expect(seen[0]?.contentType).toBe("application/proto");
    expect(Number(seen[0]?.timeout)).toBeGreaterThan(4_000);
    expect(header?.get("x-answer")).toBe("42");
    expect(trailer?.get("x-trailer")).toBe("t");
  });

  it("turns a unary error into a ConnectError with its code, message, metadata and details", async () => {
    const client = createClient(AgentService, make());
    const err = await client.getSession({ sessionId: "s9" }).catch((e: unknown) => ConnectError.from(e));
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.NotFound);
    expect((err as ConnectError).rawMessage).toBe("session s9 not found");
    expect((err as ConnectError).metadata.get("x-why")).toBe("gone");
    expect((err as ConnectError).findDetails(ToolErrorSchema)[0]?.message).toBe("detail");
  });

  it("streams server messages in order and ends cleanly", async () => {
    const client = createClient(AgentService, make());
    const events: string[] = [];
    for await (const res of client.streamStep({ step: { sessionId: "ok" } })) events.push(res.event.case ?? "");
    expect(events).toEqual(["textDelta", "textDelta", "done"]);
  });

  it("throws the end-stream error after the messages that came before it", async () => {
    const client = createClient(AgentService, make());
    const deltas: string[] = [];
    const err = await (async () => {
      for await (const res of client.streamStep({ step: { sessionId: "fail" } })) {
        if (res.event.case === "textDelta") deltas.push(res.event.value);
      }
    })().catch((e: unknown) => ConnectError.from(e));
    expect(deltas.join("")).toBe("Hello");
    expect((err as ConnectError).code).toBe(Code.Unavailable);
    expect((err as ConnectError).rawMessage).toBe("the model is down");
  });

  it("ends a call at its deadline and at an abort", async () => {
    const client = createClient(AgentService, make());
    const late = await client.step({}, { timeoutMs: 100 }).catch((e: unknown) => ConnectError.from(e));
    expect((late as ConnectError).code).toBe(Code.DeadlineExceeded);
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 50);
    const aborted = await client.step({}, { signal: abort.signal }).catch((e: unknown) => ConnectError.from(e));
    expect((aborted as ConnectError).code).toBe(Code.Canceled);
  });

  it("reports an unreachable server as the network failure it is", async () => {
    const client = createClient(AgentService, make("http://127.0.0.1:9"));
    const err = await client.createSession({ task: "x" }).catch((e: unknown) => ConnectError.from(e));
    expect((err as ConnectError).code).toBe(Code.Unknown);
    expect((err as ConnectError).message).toMatch(/fetch failed/);
  });
});
