/**
 * Benchmark client, run in its own process: drives `sessions` concurrent sessions against a
 * backend over real HTTP for `durationMs`, answering every tool call at once, and prints one
 * JSON line: turns, elapsed, CPU used, how bursty the sends were, and per-turn latencies (ms).
 * BENCH_HTTP=1.1 gives each session its own keep-alive HTTP/1.1 connection; otherwise the
 * sessions share a few h2c connections. BENCH_STAGGER_MS and BENCH_THINK_MS (below) spread
 * the sessions out.
 *
 * It speaks the Connect protocol (unary, binary protobuf) directly — on a socket per session
 * (`h1-connection.ts`) or on `node:http2` — rather than through `createClient`: the generic
 * client's per-call machinery (interceptors, abort signals, header objects) cost about as
 * much CPU per turn as the server's HTTP layer, and on a 2-core machine the client must not
 * take the server's core. Every response is still decoded in full and checked.
 */
import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import http2 from "node:http2";
import { readFileSync } from "node:fs";
import {
  CreateSessionRequestSchema,
  CreateSessionResponseSchema,
  StepRequestSchema,
  type StepResponse,
  StepResponseSchema,
} from "@baton/gen/baton/v1/agent_pb";
import { H1Connection, type H1Response } from "./h1-connection.js";

const [url = "", token = "", model = "", sessionsArg = "16", durationArg = "10000", warmupArg = "2000", serverPid = ""] = process.argv.slice(2);
const sessions = Number(sessionsArg);
const durationMs = Number(durationArg);
const warmupMs = Number(warmupArg);
/** Connections: HTTP/2 multiplexes every session's requests over these few. */
const poolSize = Number(process.env.BENCH_CONNECTIONS ?? 2);

/**
 * BENCH_HTTP=1.1: keep-alive HTTP/1.1, one connection per session (what each browser, the
 * extension or an SDK client holds; `h1-connection.ts`); otherwise h2c over `poolSize` connections.
 */
const h1 = process.env.BENCH_HTTP === "1.1";
const pool = h1 ? [] : Array.from({ length: poolSize }, () => http2.connect(url));
for (const s of pool) s.on("error", () => undefined);
let rr = 0;
const target = new URL(url);
const headers = { "content-type": "application/proto", "connect-protocol-version": "1", authorization: `Bearer ${token}` };
const h1Headers = [`host: ${target.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];

/** How one session reaches the server: its own HTTP/1.1 connection, or the shared h2c pool. */
type Send = (path: string, body: Uint8Array) => Promise<H1Response>;

function h2Send(path: string, body: Uint8Array): Promise<H1Response> {
  return new Promise((resolve, reject) => {
    let status = 0;
    const chunks: Buffer[] = [];
    const session = pool[rr++ % pool.length] as http2.ClientHttp2Session;
    const req = session.request({ ":method": "POST", ":path": path, ...headers });
    req.on("response", (h) => (status = Number(h[":status"])));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", reject);
    req.on("end", () => resolve({ status, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) }));
    req.end(body);
  });
}

/** A sender for one session. */
function connect(): { send: Send; close: () => void } {
  if (!h1) return { send: h2Send, close: () => undefined };
  const c = new H1Connection(target.hostname, Number(target.port), h1Headers);
  return { send: (path, body) => c.post(path, body), close: () => c.close() };
}

/** One Connect unary call: POST the binary request, decode the binary response. */
async function unary<I extends DescMessage, O extends DescMessage>(
  send: Send,
  method: string,
  inSchema: I,
  outSchema: O,
  message: MessageShape<I>,
): Promise<MessageShape<O>> {
  const { status, body } = await send(`/baton.v1.AgentService/${method}`, toBinary(inSchema, message));
  if (status !== 200) throw new Error(`${method}: HTTP ${status} ${body.toString()}`);
  return fromBinary(outSchema, body);
}

function answer(sessionId: string, r: StepResponse) {
  const results = r.messages.flatMap((m) =>
    m.content.case === "functionCall"
      ? [{ toolcallId: m.content.value.toolcallId, outcome: { case: "result" as const, value: { tool: { case: "click" as const, value: {} } } } }]
      : [],
  );
  if (results.length === 0) throw new Error(`session ${sessionId}: no tool call to answer`);
  return create(StepRequestSchema, { sessionId, input: { case: "toolResults", value: { results } } });
}

const latencies: number[] = [];
/** When each measured step was sent (ms), for how bursty the load was. */
const sends: number[] = [];
let turns = 0;
let errors = 0;
let measuring = false;

/** CPU seconds (user + system) the backend process used so far, from /proc; NaN elsewhere. */
function serverCpu(): number {
  try {
    const fields = readFileSync(`/proc/${serverPid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Creates a session and runs its first step (the task message) before any clock starts. */
async function open(i: number): Promise<{ id: string; r: StepResponse; send: Send; close: () => void }> {
  const { send, close } = connect();
  const created = await unary(send, "CreateSession", CreateSessionRequestSchema, CreateSessionResponseSchema, create(CreateSessionRequestSchema, { task: `bench ${i}`, model, maxSteps: 10_000 }));
  const id = created.session?.id ?? "";
  return { id, send, close, r: await unary(send, "Step", StepRequestSchema, StepResponseSchema, create(StepRequestSchema, { sessionId: id })) };
}

/** BENCH_THINK_MS: a random pause of up to this long before each step, outside the timed round trip (a client running the tool). */
const thinkMs = Number(process.env.BENCH_THINK_MS ?? 0);

async function loop(send: Send, id: string, r: StepResponse, stopAt: number): Promise<void> {
  while (performance.now() < stopAt) {
    if (thinkMs > 0) await new Promise((done) => setTimeout(done, Math.random() * thinkMs));
    const start = performance.now();
    if (measuring) sends.push(start);
    try {
      r = await unary(send, "Step", StepRequestSchema, StepResponseSchema, answer(id, r));
    } catch {
      errors++;
      continue;
    }
    if (measuring) {
      turns++;
      latencies.push(performance.now() - start);
    }
  }
}

// Setup (not measured): sessions are opened 200 at a time, so a 1,000-session run measures
// steady-state turns rather than a burst of session creation.
const opened: Awaited<ReturnType<typeof open>>[] = new Array(sessions);
let nextOpen = 0;
await Promise.all(
  Array.from({ length: Math.min(200, sessions) }, async () => {
    while (nextOpen < sessions) {
      const i = nextOpen++;
      opened[i] = await open(i);
    }
  }),
);
const t0 = performance.now();
const stopAt = t0 + warmupMs + durationMs;
let cpu0 = { client: process.cpuUsage(), server: NaN };
setTimeout(() => {
  measuring = true;
  cpu0 = { client: process.cpuUsage(), server: serverCpu() };
}, warmupMs).unref();
// BENCH_STAGGER_MS: sessions start spread over this long instead of all at once.
const staggerMs = Number(process.env.BENCH_STAGGER_MS ?? 0);
const runs = opened.map((o, i) =>
  staggerMs > 0
    ? new Promise<void>((done) => setTimeout(done, (i / opened.length) * staggerMs)).then(() => loop(o.send, o.id, o.r, stopAt))
    : loop(o.send, o.id, o.r, stopAt),
);
const measureStart = t0 + warmupMs;
await Promise.all(runs);
const elapsed = performance.now() - measureStart;
const used = process.cpuUsage(cpu0.client);
// CPU seconds each process spent during the measured window: shows which side is the limit.
const cpu = { clientS: (used.user + used.system) / 1e6, serverS: serverCpu() - cpu0.server };
for (const s of pool) s.close();
for (const o of opened) o.close();
// Exit only once the line is flushed: stdout to a pipe is asynchronous, and a large latency
// array would otherwise be cut off.
// Steps sent per 10 ms window: how evenly the sessions spread their load.
const windows = new Array<number>(Math.max(1, Math.ceil(elapsed / 10))).fill(0);
for (const t of sends) {
  const w = Math.floor((t - measureStart) / 10);
  if (w >= 0 && w < windows.length) windows[w] = (windows[w] ?? 0) + 1;
}
windows.sort((a, b) => a - b);
const burst = {
  mean: +(sends.length / windows.length).toFixed(1),
  p50: windows[Math.floor(windows.length / 2)] ?? 0,
  p99: windows[Math.floor(windows.length * 0.99)] ?? 0,
  idleShare: +(windows.filter((n) => n === 0).length / windows.length).toFixed(2),
};
process.stdout.write(`${JSON.stringify({ turns, errors, elapsedMs: elapsed, cpu, sendsPer10ms: burst, latencies })}\n`, () => process.exit(0));
