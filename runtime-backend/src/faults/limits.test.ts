import http from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import {
  AgentService,
  CreatePlaybookRequestSchema,
  CreateSessionRequestSchema,
  ReportLogRequestSchema,
} from "@baton/gen/baton/v1/agent_pb";
import { type BackendProcess, restartTimeoutMs, startBackendProcess } from "@baton/cli/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendRaw } from "../testing/raw-rpc.js";
import { tempDirs } from "../testing/temp-dirs.js";

// Issue 18, holes 6 and 7: a 20 MB task, playbook or log batch was accepted and its memory
// never returned (+380–590 MiB RSS for one request); bodies were read, decompressed and parsed
// before the token was looked at.

const dirs = tempDirs("baton-limits-");
const token = "bt_limits_test_token_0123456789abc";
let backend: BackendProcess;

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
}

/** POSTs `length` bytes of a body without reading ahead; resolves with the status and how much was sent when it came. */
function postBomb(url: string, path: string, length: number, headers: Record<string, string>): Promise<{ status: number; sentMb: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let sent = 0;
    const chunk = Buffer.alloc(1 << 20, 0x41);
    const req = http.request(`${url}${path}`, { method: "POST", headers: { ...headers, "content-length": String(length) } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, sentMb: sent / (1 << 20), ms: performance.now() - t0 }));
    });
    req.on("error", (e) => (sent < length ? undefined : reject(e)));
    const pump = () => {
      while (sent < length) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

beforeAll(async () => {
  backend = await startBackendProcess(["--data-dir", join(dirs.fresh(), "data")], { BATON_API_TOKEN: token });
}, restartTimeoutMs);

afterAll(async () => {
  await backend?.kill("SIGTERM");
  dirs.removeAll();
});

describe("payload limits", () => {
  it("refuse a 20 MB task, playbook and log batch before doing any work, and keep no memory for them", async () => {
    const pid = backend.child.pid as number;
    const before = rssMb(pid);
    const big = "x".repeat(20_000_000);
    const requests = [
      [AgentService.method.createSession, toBinary(CreateSessionRequestSchema, create(CreateSessionRequestSchema, { task: big }))],
      [AgentService.method.createPlaybook, toBinary(CreatePlaybookRequestSchema, create(CreatePlaybookRequestSchema, { playbook: { name: "p", instructions: big } }))],
      [AgentService.method.reportLog, toBinary(ReportLogRequestSchema, create(ReportLogRequestSchema, { sessionId: "s", entries: [{ message: big }] }))],
    ] as const;
    for (let round = 0; round < 3; round++) {
      for (const [method, body] of requests) {
        for (const wire of ["connect-proto", "connect-json", "connect-proto-gzip", "grpc"] as const) {
          const answer = await sendRaw(backend.url, method, wire, wire === "connect-json" ? new TextEncoder().encode(JSON.stringify({ task: big })) : body, {
            authorization: `Bearer ${token}`,
          });
          expect(answer.code, `${method.name} over ${wire}`).toMatch(/^(resource_exhausted|invalid_argument)$/);
        }
      }
    }
    const after = rssMb(pid);
    console.log(`36 requests of 20 MB refused; server RSS ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after`);
    expect(after - before).toBeLessThan(150);
  });

  it("refuse an unauthenticated 200 MB body at once, without reading it", async () => {
    const pid = backend.child.pid as number;
    const before = rssMb(pid);
    for (const authorization of [undefined, "Basic x", "Bearer"]) {
      const r = await postBomb(backend.url, "/baton.v1.AgentService/CreateSession", 200 << 20, {
        "content-type": "application/proto",
        ...(authorization ? { authorization } : {}),
      });
      expect(r.status).toBe(401);
      // The answer came long before 200 MB could be sent, read or parsed.
      expect(r.ms).toBeLessThan(5_000);
    }
    expect(rssMb(pid) - before).toBeLessThan(50);
  });
});
