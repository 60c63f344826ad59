import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerProcess, httpServer } from "./mcp-testing.js";

// `baton mcp --http` as a network neighbour and a hostile page see it: a client on 127.0.0.2
// (another machine, as far as a listener on 0.0.0.0 can tell), a page of another 127.0.0.1
// port or of a rebound name. The Host and Origin rule is `server/allowed-hosts.ts`, shared
// with `baton serve`.

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "neighbour", version: "1" } },
});

/** POSTs an initialize request to `url` with extra headers; the HTTP status and body. */
function post(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => done({ status: res.statusCode ?? 0, body }));
    });
    req.once("error", fail).end(initialize);
  });
}

describe("baton mcp --http --host 0.0.0.0", () => {
  let server: HttpServerProcess;
  let token = "";
  let neighbourUrl = "";
  beforeAll(async () => {
    server = await httpServer(["--host", "0.0.0.0"]);
    token = /Bearer token \(send 'Authorization: Bearer …'\): (\S+)/.exec(server.output())?.[1] ?? "";
    neighbourUrl = server.url.replace("0.0.0.0", "127.0.0.2");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("warns at start and prints a generated bearer token", () => {
    expect(server.output()).toMatch(/warning: listening on 0\.0\.0\.0, not loopback/);
    expect(token).toMatch(/^bm_[\w-]{32}$/);
  });

  it("refuses a client on 127.0.0.2 without the token, or with a wrong one", async () => {
    const none = await post(neighbourUrl, {});
    expect(none.status).toBe(401);
    expect(none.body).toMatch(/Authorization: Bearer/);
    expect((await post(neighbourUrl, { authorization: "Bearer bm_not_the_token_at_all" })).status).toBe(401);
    await expect(server.connect({}, { url: neighbourUrl })).rejects.toThrow();
  });

  it("serves a client on 127.0.0.2 that sends the token", async () => {
    const client = await server.connect({}, { url: neighbourUrl, headers: { authorization: `Bearer ${token}` } });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("navigate");
    } finally {
      await client.close();
    }
  });

  it("refuses a bad Origin and a rebound Host even with the token", async () => {
    const auth = { authorization: `Bearer ${token}` };
    const port = new URL(server.url).port;
    expect((await post(neighbourUrl, { ...auth, origin: "http://evil.example" })).status).toBe(403);
    expect((await post(neighbourUrl, { ...auth, origin: "http://127.0.0.1:9" })).status).toBe(403);
    expect((await post(neighbourUrl, { ...auth, origin: "null" })).status).toBe(403);
    expect((await post(neighbourUrl, { ...auth, host: `rebind.example:${port}` })).status).toBe(403);
    // The server's own origin, as a page it served would send it.
    expect((await post(neighbourUrl, { ...auth, origin: `http://127.0.0.2:${port}` })).status).toBe(200);
  });
});

describe("baton mcp --http --host 127.0.0.2 --token", () => {
  it("requires the token given in BATON_MCP_TOKEN, and prints no token of its own", async () => {
    const server = await httpServer(["--host", "127.0.0.2"], { BATON_MCP_TOKEN: "operator-chosen-token-1234" });
    try {
      expect(server.output()).not.toMatch(/Bearer token/);
      expect((await post(server.url, {})).status).toBe(401);
      expect((await post(server.url, { authorization: "Bearer operator-chosen-token-1234" })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe("baton mcp --http on loopback (the default)", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await httpServer([]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("needs no token, but refuses a page of another port, a foreign Origin and a rebound name on its own port", async () => {
    const port = new URL(server.url).port;
    expect(server.output()).not.toMatch(/warning|Bearer token/);
    expect((await post(server.url, {})).status).toBe(200);
    expect((await post(server.url, { origin: "http://127.0.0.1:9" })).status).toBe(403);
    expect((await post(server.url, { origin: "http://evil.example" })).status).toBe(403);
    expect((await post(server.url, { host: `rebind.example:${port}` })).status).toBe(403);
    expect((await post(server.url, { origin: `http://localhost:${port}` })).status).toBe(200);
  });
});
