import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { create, type Message } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import {
  AgentService,
  CreatePlaybookRequestSchema,
  CreateSessionRequestSchema,
  GetPlaybookRequestSchema,
  GetSessionRequestSchema,
  ListPlaybooksRequestSchema,
  LogLevel,
  ReportLogRequestSchema,
  StepRequestSchema,
  StopRequestSchema,
  StreamStepRequestSchema,
  ToolErrorCode,
  UpdatePlaybookRequestSchema,
} from "@baton/gen/baton/v1/agent_pb";
import { Risk } from "@baton/gen/baton/v1/options_pb";
import { type BackendProcess, restartTimeoutMs, startBackendProcess } from "@baton/cli/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BadInput, badInputs, corruptGzip, isServerFault } from "../testing/bad-inputs.js";
import { type RawAnswer, sendRaw } from "../testing/raw-rpc.js";
import { tempDirs } from "../testing/temp-dirs.js";

// Issue 18, hole 3 and the bad-input generator: every RPC, every request field, derived from
// the proto (testing/bad-inputs.ts), sent byte for byte over Connect binary,
// Connect JSON, gzip-compressed Connect and gRPC (h2c) to a real
// `baton serve`. A client's mistake must never be answered as a server fault.

const seed = 18;
const dirs = tempDirs("baton-bad-input-");
const token = "bt_bad_input_test_token_0123456789";
const bearer = `Bearer ${token}`;
let backend: BackendProcess;
let bases: Record<string, Message> = {};

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1] ?? 0);
}

beforeAll(async () => {
  const dir = dirs.fresh();
  writeFileSync(
    join(dir, "loop.json"),
    JSON.stringify({ turns: [{ text: "<goal>g</goal>", calls: [{ name: "take_snapshot" }] }, { calls: [{ name: "done", args: { answer: "a" } }] }], loopFrom: 0 }),
  );
  backend = await startBackendProcess(["--data-dir", join(dir, "data"), "--script-dir", dir, "--model", "script:loop.json"], {
    BATON_API_TOKEN: token,
    BATON_LOG_LEVEL: "warn",
  });
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", bearer);
    return next(req);
  };
  const c = createClient(AgentService, createConnectTransport({ baseUrl: backend.url, httpVersion: "1.1", interceptors: [auth] }));
  const { session } = await c.createSession({ task: "look", model: "script:loop.json" });
  const first = await c.step({ sessionId: session!.id });
  const call = first.messages.find((m) => m.content.case === "functionCall");
  const toolcallId = call?.content.case === "functionCall" ? call.content.value.toolcallId : "";
  const other = (await c.createSession({ task: "other" })).session!.id;
  await c.createPlaybook({ playbook: { name: "pb", instructions: "do it" } });
  const step = create(StepRequestSchema, {
    sessionId: session!.id,
    input: { case: "toolResults", value: { results: [{ toolcallId, outcome: { case: "error", value: { code: ToolErrorCode.INTERNAL, message: "m", tool: "take_snapshot" } } }] } },
  });
  bases = {
    CreateSession: create(CreateSessionRequestSchema, {
      task: "t",
      model: "script:loop.json",
      maxSteps: 5,
      idempotencyKey: "key-1",
      clientTools: [{ name: "my_tool", description: "d", parametersJson: '{"type":"object"}', risk: Risk.READ_ONLY }],
    }),
    Step: step,
    StreamStep: create(StreamStepRequestSchema, { step }),
    Stop: create(StopRequestSchema, { sessionId: other, reason: "r" }),
    GetSession: create(GetSessionRequestSchema, { sessionId: session!.id }),
    ReportLog: create(ReportLogRequestSchema, {
      sessionId: session!.id,
      entries: [{ level: LogLevel.INFO, message: "m", step: 1, tool: "click", toolcallId, time: timestampNow(), attributes: { a: "b" } }],
    }),
    CreatePlaybook: create(CreatePlaybookRequestSchema, {
      playbook: { name: "pb2", description: "d", instructions: "i", keywords: ["k"], urlPatterns: ["*x*"], createdAt: timestampNow() },
    }),
    UpdatePlaybook: create(UpdatePlaybookRequestSchema, { playbook: { name: "pb", instructions: "i2" } }),
    GetPlaybook: create(GetPlaybookRequestSchema, { name: "pb", version: 1 }),
    ListPlaybooks: create(ListPlaybooksRequestSchema, {}),
  };
}, restartTimeoutMs);

afterAll(async () => {
  await backend?.kill("SIGTERM");
  dirs.removeAll();
});

describe("the bad-input generator against a real backend", () => {
  it("gets no server fault, no crash and bounded memory from every bad input, and the expected code where one is certain", async () => {
    const inputs: (BadInput & { authorization?: string; precompressed?: boolean })[] = badInputs(AgentService, { bases, seed, extra: 200 });
    for (const method of AgentService.methods) {
      const body = new Uint8Array([10, 3, 97, 98, 99]);
      inputs.push({ name: `${method.name}: corrupt gzip`, family: "corrupt-gzip", method, wire: "connect-proto-gzip", body: corruptGzip(body), precompressed: true, expect: ["invalid_argument"] });
      inputs.push({ name: `${method.name}: no token`, family: "auth", method, wire: "connect-proto", body, authorization: "", expect: ["unauthenticated"] });
      inputs.push({ name: `${method.name}: malformed token`, family: "auth", method, wire: "grpc", body, authorization: "Basic abc", expect: ["unauthenticated"] });
      inputs.push({ name: `${method.name}: unknown token`, family: "auth", method, wire: "connect-json", body: new TextEncoder().encode("{}"), authorization: "Bearer bt_not_a_real_token_123456", expect: ["unauthenticated"] });
    }
    expect(inputs.length).toBeGreaterThanOrEqual(500);

    const pid = backend.child.pid as number;
    const rssBefore = rssKb(pid);
    let rssPeak = rssBefore;
    const answers: { input: BadInput; answer: RawAnswer }[] = [];
    const queue = [...inputs];
    const worker = async () => {
      for (let input = queue.shift(); input; input = queue.shift()) {
        const answer = await sendRaw(backend.url, input.method, input.wire, input.body, {
          authorization: input.authorization ?? bearer,
          ...(input.precompressed ? { precompressed: true } : {}),
        });
        answers.push({ input, answer });
        rssPeak = Math.max(rssPeak, rssKb(pid));
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    const rssAfter = rssKb(pid);

    const count = (key: (a: { input: BadInput; answer: RawAnswer }) => string) => {
      const m: Record<string, number> = {};
      for (const a of answers) m[key(a)] = (m[key(a)] ?? 0) + 1;
      return Object.fromEntries(Object.entries(m).sort((x, y) => y[1] - x[1]));
    };
    const faults = answers.filter((a) => isServerFault(a.answer.code) || a.answer.code.startsWith("http_5"));
    const unexpected = answers.filter((a) => a.input.expect && !a.input.expect.includes(a.answer.code));
    console.log(
      [
        `bad inputs (seed ${seed}): ${answers.length} sent; server faults: ${faults.length}; unexpected codes: ${unexpected.length}`,
        `by code: ${JSON.stringify(count((a) => a.answer.code))}`,
        `by family: ${JSON.stringify(count((a) => a.input.family))}`,
        `by wire: ${JSON.stringify(count((a) => a.input.wire))}`,
        `server RSS: ${Math.round(rssBefore / 1024)} MB before, ${Math.round(rssPeak / 1024)} MB peak, ${Math.round(rssAfter / 1024)} MB after`,
      ].join("\n"),
    );
    expect(faults.map((a) => `${a.input.name} [${a.input.wire}] → ${a.answer.code}: ${a.answer.message}`)).toEqual([]);
    expect(unexpected.map((a) => `${a.input.name} [${a.input.wire}] → ${a.answer.code} (expected ${a.input.expect?.join("|")}): ${a.answer.message}`)).toEqual([]);
    // No crash: the same process still answers, and logged nothing at error level.
    expect(backend.child.exitCode).toBeNull();
    expect((await fetch(`${backend.url}/healthz`)).status).toBe(200);
    expect(backend.output()).not.toMatch(/"level":(50|60)/);
    // Bounded: no request's cost is kept.
    expect(rssPeak - rssBefore).toBeLessThan(300 * 1024);
  });
});
