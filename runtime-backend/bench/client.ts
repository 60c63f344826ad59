/**
 * Benchmark client, run in its own process: drives `sessions` concurrent sessions against a
 * backend over real HTTP/2 (h2c) for `durationMs`, answering every tool call at once, and
 * prints one JSON line: turns, elapsed, and per-turn latencies (ms).
 */
import { create } from "@bufbuild/protobuf";
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService, StepRequestSchema, type StepResponse } from "@baton/gen/baton/v1/agent_pb";

const [url = "", token = "", model = "", sessionsArg = "16", durationArg = "10000", warmupArg = "2000"] = process.argv.slice(2);
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
const t0 = performance.now();
const stopAt = t0 + warmupMs + durationMs;

async function one(i: number): Promise<void> {
  const { session } = await client.createSession({ task: `bench ${i}`, model, maxSteps: 10_000 });
  const id = session?.id ?? "";
  let r = await client.step({ sessionId: id });
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

setTimeout(() => {
  measuring = true;
}, warmupMs).unref();
const runs = Array.from({ length: sessions }, (_, i) => one(i));
const measureStart = t0 + warmupMs;
await Promise.all(runs);
const elapsed = performance.now() - measureStart;
process.stdout.write(`${JSON.stringify({ turns, errors, elapsedMs: elapsed, latencies })}\n`);
process.exit(0);
