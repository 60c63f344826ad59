import http2 from "node:http2";
import net from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import { AgentService, GetSessionRequestSchema } from "@baton/gen/baton/v1/agent_pb";
import { describe, expect, it } from "vitest";
import { serve } from "./serve.js";

const getSessionPath = "/baton.v1.AgentService/GetSession";
const proto = { "content-type": "application/proto", "connect-protocol-version": "1" };
/** Routes without an authenticator still need a well-formed bearer header: the edge refuses a request without one unread. */
const anyBearer = { authorization: "Bearer any-well-formed-token" };
const body = toBinary(GetSessionRequestSchema, create(GetSessionRequestSchema, { sessionId: "s" }));

describe("a client that goes away", () => {
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
    try {
      const { port } = new URL(server.url);
      // A whole message (it parses), sent as the start of a 100-byte body that never completes.
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
      // Node ends such a request as if it were complete, and the reset is known only later.)
      await new Promise<void>((resolve, reject) => {
        const session = http2.connect(server.url);
        session.on("error", reject);
        const req = session.request({ ":method": "POST", ":path": getSessionPath, ...proto, ...anyBearer, "content-length": "100" });
        req.on("error", () => undefined);
        req.write(body);
        setTimeout(() => {
          req.close(http2.constants.NGHTTP2_CANCEL);
          session.close();
          resolve();
        }, 50);
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(calls).toBe(0);
      const r = await fetch(`${server.url}${getSessionPath}`, { method: "POST", headers: { ...proto, ...anyBearer }, body });
      expect(r.status).toBe(200);
      expect(calls).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("aborts the request signal when the client goes away mid-call", async () => {
    const seen: AbortSignal[] = [];
    const routes = (router: ConnectRouter) =>
      router.service(AgentService, {
        async getSession(_req, ctx: HandlerContext) {
          seen.push(ctx.signal);
          await new Promise<void>((r) => ctx.signal.addEventListener("abort", () => r()));
          return {};
        },
      });
    const server = await serve({ routes });
    try {
      const controller = new AbortController();
      const first = fetch(`${server.url}${getSessionPath}`, { method: "POST", headers: { ...proto, ...anyBearer }, body, signal: controller.signal }).catch((e: unknown) => e);
      await expect.poll(() => seen.length).toBe(1);
      controller.abort();
      await first;
      await expect.poll(() => seen[0]?.aborted).toBe(true);
    } finally {
      await server.close();
    }
  });
});
