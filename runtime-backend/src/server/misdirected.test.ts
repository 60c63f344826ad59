import http from "node:http";
import http2 from "node:http2";
import { createHash, randomBytes } from "node:crypto";
import { create, toBinary } from "@bufbuild/protobuf";
import { StartDeviceLinkRequestSchema, StartDeviceLinkResponseSchema } from "@baton/gen/baton/v1/console_pb";
import { fromBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelResolver } from "../providers/registry.js";
import { type Backend, startBackend } from "./app.js";

// `baton serve` answers only the hosts it is: a page on a rebound name (DNS rebinding) calls it
// with its own name in Host and gets 421, on RPCs, console pages and assets alike; and the links
// it hands out are built from its listen address or public URL, never from a request's Host.

let backend: Backend;
let port = 0;
let asset = "";

beforeAll(async () => {
  backend = await startBackend({ port: 0, resolveModel: createModelResolver({}), console: true, allowedHosts: ["baton.lan"] });
  port = backend.server.port;
  const page = await fetch(`${backend.server.url}/sessions`);
  asset = /src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1] ?? "";
});

afterAll(async () => {
  await backend?.close();
});

const startLink = toBinary(
  StartDeviceLinkRequestSchema,
  create(StartDeviceLinkRequestSchema, {
    codeChallenge: createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url"),
    codeChallengeMethod: "S256",
    deviceName: "Chrome on ada-laptop",
    client: "baton-extension",
  }),
);

/** One HTTP/1.1 request with the Host header given; its status and body. */
function send(method: string, path: string, host: string, body?: Uint8Array): Promise<{ status: number; body: Buffer }> {
  return new Promise((done, fail) => {
    const headers: Record<string, string> = { host };
    if (body) Object.assign(headers, { "content-type": "application/proto", "connect-protocol-version": "1", "content-length": String(body.length) });
    const req = http.request(`http://127.0.0.1:${port}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.once("error", fail).end(body ? Buffer.from(body) : undefined);
  });
}

describe("baton serve answers only its own host names", () => {
  it("refuses a spoofed or rebound Host with 421 on RPCs, console pages and assets", async () => {
    expect(asset).not.toBe("");
    for (const host of ["evil.example", `evil.example:${port}`, `rebind.example:${port}`, `127.0.0.1:${port + 1}`]) {
      const rpc = await send("POST", "/baton.v1.ConsoleService/StartDeviceLink", host, startLink);
      expect({ host, status: rpc.status }).toEqual({ host, status: 421 });
      expect(rpc.body.toString()).toMatch(/^Misdirected Request: this server does not answer for/);
      for (const path of ["/", "/sign-in", asset]) expect({ host, path, status: (await send("GET", path, host)).status }).toEqual({ host, path, status: 421 });
    }
    // Its own names are answered.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "baton.lan"]) {
      expect({ host, status: (await send("GET", "/sessions", host)).status }).toEqual({ host, status: 200 });
    }
  });

  it("refuses a rebound :authority over h2c too", async () => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    try {
      const status = await new Promise<number>((done, fail) => {
        const req = session.request({ ":method": "GET", ":path": "/sessions", ":authority": `rebind.example:${port}` });
        req.on("response", (h) => done(Number(h[":status"])));
        req.on("error", fail);
        req.end();
      });
      expect(status).toBe(421);
    } finally {
      session.close();
    }
  });

  it("builds the approve link from its listen address, whichever of its names the request used", async () => {
    for (const host of [`localhost:${port}`, "baton.lan"]) {
      const r = await send("POST", "/baton.v1.ConsoleService/StartDeviceLink", host, startLink);
      expect(r.status).toBe(200);
      const { approveUrl } = fromBinary(StartDeviceLinkResponseSchema, r.body);
      expect(approveUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/link/dl_`));
    }
  });
});
