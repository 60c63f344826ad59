/**
 * Benchmark client, run in its own process: drives `sessions` concurrent sessions against a
 * backend over real HTTP/2 (h2c) for `durationMs`, answering every tool call at once, and
 * prints one JSON line: turns, elapsed, and per-turn latencies (ms).
 */
import { create } from "@bufbuild/protobuf";
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { readFileSync } from "node:fs";
import { AgentService, StepRequestSchema, type StepResponse } from "@baton/gen/baton/v1/agent_pb";

const [url = "", token = "", model = "", sessionsArg = "16", durationArg = "10000", warmupArg = "2000", serverPid = ""] = process.argv.slice(2);
const sessions = Number(sessionsArg);
const durationMs = Number(durationArg);
const warmupMs = Number(warmupArg);

const auth: Interceptor = (next) => (req) => {
  req.header.set("authorization", `Bearer ${token}`);
  return next(req);
};
const client = createClient(AgentService, createConnectTransport({ baseUrl: url, httpVersion: "2", interceptors: [auth] }));

function answer(sessionId: string, r: StepResponse) {
  const results = r.messages.flatMap((m) =>
    m.content.case === "functionCall"
      ? [{ toolcallId: m.content.value.toolcallId, outcome: { case: "result" as const, value: { tool: { case: "click" as const, value: {} } } } }]
      : [],
  );
  return create(StepRequestSchema, { sessionId, input: { case: "toolResults", value: { results } } });
}

const latencies: number[] = [];
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
async function open(i: number): Promise<{ id: string; r: StepResponse }> {
  const { session } = await client.createSession({ task: `bench ${i}`, model, maxSteps: 10_000 });
  const id = session?.id ?? "";
  return { id, r: await client.step({ sessionId: id }) };
}

async function loop(id: string, r: StepResponse, stopAt: number): Promise<void> {
  while (performance.now() < stopAt) {
    const start = performance.now();
    try {
      r = await client.step(answer(id, r));
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

// Setup (not measured): sessions are opened in waves of 100, so a 1,000-session run measures
// steady-state turns rather than a burst of session creation.
const opened: { id: string; r: StepResponse }[] = [];
for (let i = 0; i < sessions; i += 100) {
  opened.push(...(await Promise.all(Array.from({ length: Math.min(100, sessions - i) }, (_, k) => open(i + k)))));
}
const t0 = performance.now();
const stopAt = t0 + warmupMs + durationMs;
let cpu0 = { client: process.cpuUsage(), server: NaN };
setTimeout(() => {
  measuring = true;
  cpu0 = { client: process.cpuUsage(), server: serverCpu() };
}, warmupMs).unref();
const runs = opened.map((o) => loop(o.id, o.r, stopAt));
const measureStart = t0 + warmupMs;
await Promise.all(runs);
const elapsed = performance.now() - measureStart;
const used = process.cpuUsage(cpu0.client);
// CPU seconds each process spent during the measured window: shows which side is the limit.
const cpu = { clientS: (used.user + used.system) / 1e6, serverS: serverCpu() - cpu0.server };
// Exit only once the line is flushed: stdout to a pipe is asynchronous, and a large latency
// array would otherwise be cut off.
process.stdout.write(`${JSON.stringify({ turns, errors, elapsedMs: elapsed, cpu, latencies })}\n`, () => process.exit(0));
