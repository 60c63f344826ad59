import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { gunzipSync } from "node:zlib";
import { create, toBinary } from "@bufbuild/protobuf";
import type { ConnectRouter, HandlerContext, Interceptor } from "@connectrpc/connect";
import { AgentService, GetSessionRequestSchema } from "@baton/gen/baton/v1/agent_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../loop/agent.js";
import { ScriptProvider } from "../providers/script.js";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open.js";
import { SessionStore } from "../store/session-store.js";
import { createToken, ensureUser } from "../store/users.js";
import { bearerAuth } from "./auth.js";
import { fastUnary } from "./fast-unary.js";
import { agentRoutes } from "./routes.js";
import { type RunningServer, serve } from "./serve.js";

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** Headers a client sees, less the ones that vary per response (date) or per connection. */
function stable(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (k === "date" || k === "connection" || k === "keep-alive" || k.startsWith(":") || v === undefined) continue;
    out[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

/** One raw HTTP/1.1 POST: status, headers and body bytes exactly as the server sent them. */
function post(url: string, path: string, body: Uint8Array, headers: Record<string, string>, chunked = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method: "POST", headers: chunked ? headers : { ...headers, "content-length": String(body.byteLength) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: stable(res.headers), body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(Buffer.from(body));
  });
}

/** The same over HTTP/2 (h2c). */
function post2(url: string, path: string, body: Uint8Array, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url);
    session.on("error", reject);
    const req = session.request({ ":method": "POST", ":path": path, ...headers, "content-length": String(body.byteLength) });
    let status = 0;
    let head: http.IncomingHttpHeaders = {};
    req.on("response", (h) => {
      status = Number(h[":status"]);
      head = h as http.IncomingHttpHeaders;
    });
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      session.close();
      resolve({ status, headers: stable(head), body: Buffer.concat(chunks) });
    });
    req.on("error", reject);
    req.end(Buffer.from(body));
  });
}

const getSessionPath = "/baton.v1.AgentService/GetSession";
const proto = { "content-type": "application/proto", "connect-protocol-version": "1" };
/** Routes without an authenticator still need a well-formed bearer header: the edge refuses a request without one unread. */
const anyBearer = { authorization: "Bearer any-well-formed-token" };

describe("the fast unary path answers as Connect's generic path does", () => {
  let db: Db;
  let fast: RunningServer;
  let generic: RunningServer;
  let token = "";
  let sessionId = "";
  const calls: string[] = [];

  beforeAll(async () => {
    db = await openDb({});
    await ensureUser(db, "alice");
    token = await createToken(db, "alice");
    const provider = new ScriptProvider({ turns: [{ calls: [{ name: "done", args: { answer: "ok" } }] }] });
    const agent = new Agent({ store: new SessionStore(db), resolveModel: () => ({ provider, model: "m" }) });
    const routes = agentRoutes(agent, bearerAuth(db));
    // A second interceptor beside the service's own rpcLogger, to see which calls reach the implementation.
    const counting: Interceptor = (next) => (req) => {
      calls.push(req.method.name);
      return next(req);
    };
    const withCount = (router: ConnectRouter) =>
      routes({
        ...router,
        handlers: router.handlers,
        service: (s, impl, o) => router.service(s, impl, { ...o, interceptors: [counting, ...(o?.interceptors ?? [])] }),
        rpc: router.rpc.bind(router),
      } as ConnectRouter);
    fast = await serve({ routes: withCount, readMaxBytes: 4096 });
    generic = await serve({ routes: withCount, readMaxBytes: 4096, fastUnary: false });
    // A session whose GetSession answer is over 1 KB, so that compression applies to it.
    const created = await post(fast.url, "/baton.v1.AgentService/CreateSession", Buffer.from(JSON.stringify({ task: "x".repeat(1500) })), {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
    });
    expect(created.status).toBe(200);
    sessionId = JSON.parse(created.body.toString()).session.id;
  });

  afterAll(async () => {
    await fast?.close();
    await generic?.close();
    await db?.close();
  });

  const both = async (body: Uint8Array, headers: Record<string, string>, send = post) => {
    const before = calls.length;
    const a = await send(fast.url, getSessionPath, body, headers);
    const b = await send(generic.url, getSessionPath, body, headers);
    return { fast: a, generic: b, reached: calls.length - before };
  };
  const getSession = (id: string) => toBinary(GetSessionRequestSchema, create(GetSessionRequestSchema, { sessionId: id }));

  it("a successful call: same status, headers and bytes, through the service's interceptors", async () => {
    const r = await both(getSession(sessionId), { ...proto, authorization: `Bearer ${token}` });
    expect(r.fast.status).toBe(200);
    expect(r.fast.headers["content-type"]).toBe("application/proto");
    expect(r.fast.body.byteLength).toBeGreaterThan(1500);
    expect(r.fast).toEqual(r.generic);
    expect(r.reached).toBe(2);
  });

  it("the same over HTTP/2", async () => {
    const r = await both(getSession(sessionId), { ...proto, authorization: `Bearer ${token}` }, post2);
    expect(r.fast.status).toBe(200);
    expect(r.fast).toEqual(r.generic);
  });

  it("compresses a large answer for a client that accepts gzip, as the generic path does", async () => {
    const r = await both(getSession(sessionId), { ...proto, authorization: `Bearer ${token}`, "accept-encoding": "gzip" });
    expect(r.fast.headers["content-encoding"]).toBe("gzip");
    expect(r.fast.headers).toEqual(r.generic.headers);
    expect(gunzipSync(r.fast.body)).toEqual(gunzipSync(r.generic.body));
    const plain = await post(fast.url, getSessionPath, getSession(sessionId), { ...proto, authorization: `Bearer ${token}` });
    expect(gunzipSync(r.fast.body)).toEqual(plain.body);
  });

  it("errors: no token, an unknown session, a body that is not the message", async () => {
    const cases: [string, Uint8Array, Record<string, string>, number][] = [
      ["no token", getSession(sessionId), proto, 401],
      ["unknown session", getSession("s_nope"), { ...proto, authorization: `Bearer ${token}` }, 404],
      // The client's mistake, not a server fault (Connect's own parser said Internal; the edge says InvalidArgument).
      ["garbage body", Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), { ...proto, authorization: `Bearer ${token}` }, 400],
    ];
    for (const [what, body, headers, status] of cases) {
      const r = await both(body, headers);
      expect(r.fast.status, what).toBe(status);
      expect(r.fast.headers["content-type"], what).toBe("application/json");
      expect(JSON.parse(r.fast.body.toString()).message, what).toBeTruthy();
      expect(r.fast, what).toEqual(r.generic);
    }
  });

  it("refuses a body over the method's limit (its proto's max_request_bytes), declared or streamed, before running the call", async () => {
    const big = new Uint8Array(70_000);
    for (const chunked of [false, true]) {
      const before = calls.length;
      const send = (url: string, path: string, body: Uint8Array, headers: Record<string, string>) => post(url, path, body, headers, chunked);
      const r = await both(big, { ...proto, authorization: `Bearer ${token}` }, send);
      expect(r.fast.status).toBe(429);
      expect(JSON.parse(r.fast.body.toString())).toMatchObject({ code: "resource_exhausted" });
      expect(r.fast).toEqual(r.generic);
      expect(calls.length).toBe(before);
    }
  });

  it("leaves JSON, timeouts and unknown paths to Connect, with the same answers", async () => {
    const json = await both(Buffer.from(JSON.stringify({ sessionId })), { "content-type": "application/json", authorization: `Bearer ${token}` });
    expect(json.fast.status).toBe(200);
    expect(json.fast).toEqual(json.generic);
    const timed = await both(getSession(sessionId), { ...proto, authorization: `Bearer ${token}`, "connect-timeout-ms": "5000" });
    expect(timed.fast.status).toBe(200);
    expect(timed.fast).toEqual(timed.generic);
    const a = await post(fast.url, "/baton.v1.AgentService/Nope", new Uint8Array(), proto);
    const b = await post(generic.url, "/baton.v1.AgentService/Nope", new Uint8Array(), proto);
    expect(a.status).toBe(404);
    expect(a).toEqual(b);
  });
});

describe("the fast unary path when writing its answer fails", () => {
  it("ends that exchange with a 500 and keeps serving (no unhandled rejection)", async () => {
    const routes = (router: ConnectRouter) => router.service(AgentService, { getSession: async () => ({}) });
    let failing = true;
    const handle = fastUnary(routes, {
      readMaxBytes: 1024,
      compressMinBytes: 0,
      acceptCompression: [
        {
          name: "gzip",
          compress: async (b: Uint8Array) => {
            if (failing) throw new Error("compressor failed");
            return new Uint8Array(b);
          },
          decompress: async (b: Uint8Array) => new Uint8Array(b),
        },
      ],
    });
    const server = http.createServer((req, res) => {
      if (!handle(req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    try {
      const body = toBinary(GetSessionRequestSchema, create(GetSessionRequestSchema, { sessionId: "s" }));
      const bad = await post(url, getSessionPath, body, { ...proto, ...anyBearer, "accept-encoding": "gzip" });
      expect(bad.status).toBe(500);
      failing = false;
      const good = await post(url, getSessionPath, body, { ...proto, ...anyBearer, "accept-encoding": "gzip" });
      expect(good.status).toBe(200);
      expect(good.headers["content-encoding"]).toBe("gzip");
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe("the fast unary path and a client that goes away", () => {
  it("a body cut off mid-way never reaches the implementation, even when what came parses, and the server serves the next call", async () => {
    let calls = 0;
    const routes = (router: ConnectRouter) =>
      router.service(AgentService, {
        async getSession() {
          calls++;
          return {};
        },
      });
    const server = await serve({ routes });
    // A whole message (it parses), sent as the start of a 100-byte body that never completes.
    const body = toBinary(GetSessionRequestSchema, create(GetSessionRequestSchema, { sessionId: "s" }));
    try {
      const { port } = new URL(server.url);
      await new Promise<void>((resolve, reject) => {
        const s = net.connect(Number(port), "127.0.0.1", () => {
          s.write(`POST ${getSessionPath} HTTP/1.1\r\nhost: x\r\ncontent-type: application/proto\r\nauthorization: ${anyBearer.authorization}\r\ncontent-length: 100\r\n\r\n`);
          s.write(body);
          setTimeout(() => {
            s.destroy();
            resolve();
          }, 50);
        });
        s.on("error", reject);
      });
      // The same over HTTP/2: a stream reset after part of the body. (Without a content-length,
      // Node ends such a request as if it were complete, and the reset is known only later:
      // neither this path nor Connect's can tell it from a whole body.)
      for (const length of [{ "content-length": "100" }]) {
        await new Promise<void>((resolve, reject) => {
          const session = http2.connect(server.url);
          session.on("error", reject);
          const req = session.request({ ":method": "POST", ":path": getSessionPath, ...proto, ...anyBearer, ...length });
          req.on("error", () => undefined);
          req.write(body);
          setTimeout(() => {
            req.close(http2.constants.NGHTTP2_CANCEL);
            session.close();
            resolve();
          }, 50);
        });
      }
      await new Promise((r) => setTimeout(r, 50));
      expect(calls).toBe(0);
      const r = await post(server.url, getSessionPath, body, { ...proto, ...anyBearer });
      expect(r.status).toBe(200);
      expect(calls).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe("the fast unary path's request signal", () => {
  it("aborts when the client goes away mid-call, and not when the call finishes", async () => {
    const seen: AbortSignal[] = [];
    let release: () => void = () => {};
    const routes = (router: ConnectRouter) =>
      router.service(AgentService, {
        async getSession(_req, ctx: HandlerContext) {
          seen.push(ctx.signal);
          if (seen.length === 1) await new Promise<void>((r) => ctx.signal.addEventListener("abort", () => r()));
          else await new Promise<void>((r) => (release = r));
          return {};
        },
      });
    const server = await serve({ routes });
    try {
      const controller = new AbortController();
      const body = toBinary(GetSessionRequestSchema, create(GetSessionRequestSchema, { sessionId: "s" }));
      const first = fetch(`${server.url}${getSessionPath}`, { method: "POST", headers: { ...proto, ...anyBearer }, body, signal: controller.signal }).catch((e: unknown) => e);
      await expect.poll(() => seen.length).toBe(1);
      controller.abort();
      await first;
      await expect.poll(() => seen[0]?.aborted).toBe(true);
      expect(String(seen[0]?.reason)).toContain("client closed");

      const second = fetch(`${server.url}${getSessionPath}`, { method: "POST", headers: { ...proto, ...anyBearer }, body });
      await expect.poll(() => seen.length).toBe(2);
      release();
      expect((await second).status).toBe(200);
      expect(seen[1]?.aborted).toBe(false);
    } finally {
      await server.close();
    }
  });
});
