/**
 * `npm run bench:backend`: the backend in one process (`baton serve`, embedded store), the
 * client in another, over real HTTP.
 *   1. throughput: concurrent sessions against a zero-latency script model → turns/s;
 *   2. overhead: 1,000 concurrent sessions at 1 s simulated model latency → per-turn latency
 *      minus the 1 s, p50/p99: what orchestration (HTTP, store, loop) adds.
 * Options (env): BENCH_SESSIONS (64), BENCH_SECONDS (10), BENCH_SLOW_SESSIONS (1000),
 * BENCH_SLOW_SECONDS (15), BENCH_DATABASE_URL (run on Postgres instead of the embedded store).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startBackendProcess } from "../src/testing/backend-process.js";
import { benchToken, type ClientResult, clickScript, pct, runClient } from "./harness.js";

const dir = mkdtempSync(join(tmpdir(), "baton-bench-"));

/** Targets of issue 4. */
const targets = { turnsPerSecond: 1500, overheadP50Ms: 25, overheadP99Ms: 25 };

/** Server CPU per turn in µs, and its share of one core over the window. */
function cpuStats(r: ClientResult) {
  return {
    serverCpuUsPerTurn: Math.round((r.cpu.serverS * 1e6) / Math.max(1, r.turns)),
    serverCores: +(r.cpu.serverS / (r.elapsedMs / 1000)).toFixed(2),
    clientCores: +(r.cpu.clientS / (r.elapsedMs / 1000)).toFixed(2),
  };
}

const databaseUrl = process.env.BENCH_DATABASE_URL;
const backend = await startBackendProcess(databaseUrl ? ["--database-url", databaseUrl] : ["--data-dir", join(dir, "data")], {
  BATON_API_TOKEN: benchToken,
  BATON_LOG_LEVEL: "error",
  ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
});
try {
  const sessions = Number(process.env.BENCH_SESSIONS ?? 64);
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const fast = await runClient(backend.url, backend.child.pid ?? 0, clickScript(dir, 0), sessions, seconds, 2000);
  const fastSorted = fast.latencies.sort((a, b) => a - b);
  const turnsPerSecond = fast.turns / (fast.elapsedMs / 1000);

  const slowSessions = Number(process.env.BENCH_SLOW_SESSIONS ?? 1000);
  const slowSeconds = Number(process.env.BENCH_SLOW_SECONDS ?? 15);
  const slow = await runClient(backend.url, backend.child.pid ?? 0, clickScript(dir, 1000), slowSessions, slowSeconds, 3000);
  const overhead = slow.latencies.map((l) => l - 1000).sort((a, b) => a - b);

  const load = loadavg().map((l) => +l.toFixed(2));
  const result = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}`,
    loadAverage: load,
    store: databaseUrl ? "postgres" : "embedded (PGlite)",
    throughput: {
      sessions,
      seconds,
      turns: fast.turns,
      errors: fast.errors,
      turnsPerSecond: Math.round(turnsPerSecond),
      latencyP50Ms: +pct(fastSorted, 50).toFixed(2),
      latencyP99Ms: +pct(fastSorted, 99).toFixed(2),
      ...cpuStats(fast),
    },
    overhead: {
      sessions: slowSessions,
      seconds: slowSeconds,
      turns: slow.turns,
      errors: slow.errors,
      p50Ms: +pct(overhead, 50).toFixed(2),
      p99Ms: +pct(overhead, 99).toFixed(2),
      maxMs: +(overhead.at(-1) ?? NaN).toFixed(2),
      turnsPerSecond: Math.round(slow.turns / (slow.elapsedMs / 1000)),
      ...cpuStats(slow),
    },
  };
  console.log(JSON.stringify(result, null, 2));
  const ok = (v: boolean) => (v ? "met" : "NOT met");
  const { p50Ms, p99Ms } = result.overhead;
  console.log(
    `summary: ${result.throughput.turnsPerSecond} turns/s (target ≥ ${targets.turnsPerSecond}: ${ok(result.throughput.turnsPerSecond >= targets.turnsPerSecond)}, ` +
      `${(result.throughput.turnsPerSecond / targets.turnsPerSecond).toFixed(2)}×); ` +
      `overhead at ${slowSessions} sessions × 1 s p50 ${p50Ms} ms / p99 ${p99Ms} ms (target ≤ ${targets.overheadP99Ms}: ${ok(p50Ms <= targets.overheadP50Ms && p99Ms <= targets.overheadP99Ms)}); ` +
      `load average ${load.join(" ")} on ${cpus().length} cores`,
  );
} finally {
  await backend.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
