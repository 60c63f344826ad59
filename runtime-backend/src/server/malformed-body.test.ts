import http from "node:http";
import { gzipSync } from "node:zlib";
import { create, toBinary } from "@bufbuild/protobuf";
import { StreamStepRequestSchema } from "@baton/gen/baton/v1/agent_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelResolver } from "../providers/registry.js";
import { createToken, ensureUser } from "../store/users.js";
import { type Backend, startBackend } from "./app.js";

// Bodies a client got wrong, sent byte for byte over raw HTTP: each is `invalid_argument`,
// never `internal` (Connect's own reader calls a truncated gzip body and a message flagged
// compressed without an encoding `internal`).

let backend: Backend;
let bearer = "";

beforeAll(async () => {
  backend = await startBackend({ port: 0, resolveModel: createModelResolver({}) });
  await ensureUser(backend.db, "ada");
  bearer = `Bearer ${await createToken(backend.db, "ada")}`;
});

afterAll(async () => {
  await backend?.close();
});

/** POSTs a body as given and reads the Connect or gRPC code of the answer. */
function post(path: string, headers: Record<string, string>, body: Uint8Array): Promise<{ status: number; code: string; message: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${backend.server.url}${path}`, { method: "POST", headers: { ...headers, "content-length": String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const status = res.statusCode ?? 0;
        const type = String(res.headers["content-type"] ?? "");
        if (type.startsWith("application/grpc-web")) {
          // A gRPC-Web error comes as a trailer frame (or headers, trailers-only).
          const text = raw.toString("latin1");
          const code = String(res.headers["grpc-status"] ?? /grpc-status: ?(\d+)/.exec(text)?.[1] ?? "");
          const message = decodeURIComponent(String(res.headers["grpc-message"] ?? /grpc-message: ?([^\r\n]*)/.exec(text)?.[1] ?? ""));
          resolve({ status, code: code === "3" ? "invalid_argument" : code === "13" ? "internal" : `grpc_${code}`, message });
          return;
        }
        if (type.startsWith("application/connect+")) {
          // The last envelope of a Connect stream (flag 2) is its end: JSON with the error.
          let end: { error?: { code: string; message: string } } = {};
          for (let at = 0; at + 5 <= raw.length; at += 5 + raw.readUInt32BE(at + 1)) {
            if ((raw[at] ?? 0) & 2) end = JSON.parse(raw.subarray(at + 5, at + 5 + raw.readUInt32BE(at + 1)).toString("utf8")) as typeof end;
          }
          resolve({ status, code: end.error?.code ?? "ok", message: end.error?.message ?? "" });
          return;
        }
        const j = JSON.parse(raw.toString("utf8")) as { code?: string; message?: string };
        resolve({ status, code: j.code ?? "ok", message: j.message ?? "" });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(Buffer.from(body));
  });
}

function envelope(flags: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + data.length);
  out[0] = flags;
  new DataView(out.buffer).setUint32(1, data.length);
  out.set(data, 5);
  return out;
}

/** gzip of `bytes` with its last bytes (part of the deflate stream and the trailer) cut off. */
function truncatedGzip(bytes: Uint8Array): Uint8Array {
  const z = gzipSync(bytes);
  return z.subarray(0, z.length - 6);
}

const poll = "/baton.v1.ConsoleService/PollDeviceLink";
const streamStep = "/baton.v1.AgentService/StreamStep";
const getSession = "/baton.v1.AgentService/GetSession";
const stepBytes = toBinary(StreamStepRequestSchema, create(StreamStepRequestSchema, { step: { sessionId: "s_1" } }));

describe("malformed request bodies are the client's fault", () => {
  it("a truncated gzip body, binary or JSON, unary or streamed, is invalid_argument", async () => {
    const json = truncatedGzip(new TextEncoder().encode('{"linkId":"dl_nothing"}'));
    for (const [type, body] of [
      ["application/json", json],
      ["application/proto", truncatedGzip(new Uint8Array([10, 3, 97, 98, 99]))],
    ] as const) {
      const r = await post(poll, { "content-type": type, "content-encoding": "gzip", "connect-protocol-version": "1" }, body);
      expect({ type, ...r }).toMatchObject({ type, status: 400, code: "invalid_argument", message: expect.stringMatching(/not valid gzip/) });
    }
    const streamed = await post(
      streamStep,
      { "content-type": "application/connect+json", "connect-content-encoding": "gzip", "connect-protocol-version": "1", authorization: bearer },
      envelope(1, truncatedGzip(new TextEncoder().encode('{"step":{"sessionId":"s_1"}}'))),
    );
    expect(streamed).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/not valid gzip/) });
  });

  it("a stream envelope flagged compressed with no encoding is invalid_argument, in Connect JSON and binary and gRPC-Web", async () => {
    const json = await post(
      streamStep,
      { "content-type": "application/connect+json", "connect-protocol-version": "1", authorization: bearer },
      envelope(1, new TextEncoder().encode('{"step":{"sessionId":"s_1"}}')),
    );
    expect(json).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/flagged compressed, but the request names no encoding/) });
    const binary = await post(streamStep, { "content-type": "application/connect+proto", "connect-protocol-version": "1", authorization: bearer }, envelope(1, stepBytes));
    expect(binary).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/flagged compressed/) });
    const grpcWeb = await post(getSession, { "content-type": "application/grpc-web+proto", authorization: bearer }, envelope(1, new Uint8Array([10, 3, 115, 95, 49])));
    expect(grpcWeb).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/grpc-encoding/) });
  });
});
