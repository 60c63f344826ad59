/**
 * `npm run bench:backend`: the backend in one process (`baton serve`, embedded store), the
 * client in another, over real HTTP.
 *   1. throughput: concurrent sessions against a zero-latency script model → turns/s, at 64
 *      and at 256 sessions (the server's capacity is the larger: at 64 the grouped commit
 *      alternates between two groups and both threads wait on each other part of the time);
 *   2. overhead: 1,000 concurrent sessions at 1 s simulated model latency → per-turn latency
 *      minus the 1 s, p50/p99: what orchestration (HTTP, store, loop) adds;
 *   3. the peer: phase 1 at its best concurrency again, on a fresh backend that serves every
 *      call through Connect's generic handler (BATON_CONNECT_GENERIC=1), so the fast unary
 *      path's gain is measured in the same run.
 * Options (env): BENCH_SESSIONS (64,256: one throughput run per value), BENCH_SECONDS (10),
 * BENCH_SLOW_SESSIONS (1000), BENCH_SLOW_SECONDS (15), BENCH_DATABASE_URL (run on Postgres
 * instead of the embedded store), BENCH_PEER=0 (skip phase 3); for the client (client.ts):
 * BENCH_STAGGER_MS (start sessions spread over this long), BENCH_THINK_MS (a random pause of up
 * to this long between a session's steps, outside the timed round trip): phase 2 only;
 * BENCH_CONNECTIONS (h2c connections), BENCH_HTTP=1.1 (keep-alive HTTP/1.1 instead of h2c).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startBackendProcess } from "../src/testing/backend-process.js";
import { benchToken, type ClientResult, clickScript, flatOut, pct, runClient, turnStats } from "./harness.js";

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
/** The client's decorrelation knobs, named in the summary when set. */
const knobs = (["BENCH_STAGGER_MS", "BENCH_THINK_MS"] as const).filter((k) => Number(process.env[k] ?? 0) > 0);
const decorrelated = knobs.length ? `; with ${knobs.map((k) => `${k}=${process.env[k]}`).join(" ")}` : "";
const sessionCounts = (process.env.BENCH_SESSIONS ?? "64,256").split(",").map(Number);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

/** A `baton serve` for the bench; on the embedded store, in its own data directory. */
const startBackend = (name: string, env: Record<string, string> = {}) =>
  startBackendProcess(databaseUrl ? ["--database-url", databaseUrl] : ["--data-dir", join(dir, name)], {
    BATON_API_TOKEN: benchToken,
    BATON_LOG_LEVEL: "error",
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
    ...env,
  });

/** Phase 1 against one backend: turns/s and latency at zero model latency. */
async function throughput(url: string, pid: number, sessions: number) {
  // The decorrelation knobs are for the overhead phase: throughput is measured flat out.
  const r = await runClient(url, pid, clickScript(dir, 0), sessions, seconds, 2000, flatOut);
  return { ...turnStats(r, sessions, seconds), ...cpuStats(r) };
}

const backend = await startBackend("data");
try {
  const runs = [];
  for (const n of sessionCounts) runs.push(await throughput(backend.url, backend.child.pid ?? 0, n));
  const fast = runs.reduce((a, b) => (b.turnsPerSecond > a.turnsPerSecond ? b : a));

  const slowSessions = Number(process.env.BENCH_SLOW_SESSIONS ?? 1000);
  const slowSeconds = Number(process.env.BENCH_SLOW_SECONDS ?? 15);
  const slow = await runClient(backend.url, backend.child.pid ?? 0, clickScript(dir, 1000), slowSessions, slowSeconds, 3000);
  const overhead = slow.latencies.map((l) => l - 1000).sort((a, b) => a - b);
  await backend.kill("SIGTERM");

  let peer: Awaited<ReturnType<typeof throughput>> | undefined;
  if (process.env.BENCH_PEER !== "0") {
    const generic = await startBackend("data-generic", { BATON_CONNECT_GENERIC: "1" });
    try {
      peer = await throughput(generic.url, generic.child.pid ?? 0, fast.sessions);
    } finally {
      await generic.kill("SIGTERM");
    }
  }

  const load = loadavg().map((l) => +l.toFixed(2));
  const result = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}`,
    loadAverage: load,
    store: databaseUrl ? "postgres" : "embedded (PGlite)",
    throughput: runs,
    overhead: {
      sessions: slowSessions,
      seconds: slowSeconds,
      turns: slow.turns,
      errors: slow.errors,
      p50Ms: +pct(overhead, 50).toFixed(2),
      p99Ms: +pct(overhead, 99).toFixed(2),
      maxMs: +(overhead.at(-1) ?? NaN).toFixed(2),
      turnsPerSecond: Math.round(slow.turns / (slow.elapsedMs / 1000)),
      sendsPer10ms: slow.sendsPer10ms,
      ...cpuStats(slow),
    },
    ...(peer ? { genericConnect: peer, fastOverGeneric: +(fast.turnsPerSecond / Math.max(1, peer.turnsPerSecond)).toFixed(2) } : {}),
  };
  console.log(JSON.stringify(result, null, 2));
  const ok = (v: boolean) => (v ? "met" : "NOT met");
  const { p50Ms, p99Ms } = result.overhead;
  console.log(
    `summary: ${fast.turnsPerSecond} turns/s at ${fast.sessions} sessions (target ≥ ${targets.turnsPerSecond}: ${ok(fast.turnsPerSecond >= targets.turnsPerSecond)}, ` +
      `${(fast.turnsPerSecond / targets.turnsPerSecond).toFixed(2)}×; ${runs.map((r) => `${r.sessions} sessions ${r.turnsPerSecond}`).join(", ")}); ` +
      `overhead at ${slowSessions} sessions × 1 s p50 ${p50Ms} ms / p99 ${p99Ms} ms (target ≤ ${targets.overheadP99Ms}: ${ok(p50Ms <= targets.overheadP50Ms && p99Ms <= targets.overheadP99Ms)}; ` +
      `steps sent per 10 ms p50 ${slow.sendsPer10ms.p50} / p99 ${slow.sendsPer10ms.p99}, ${Math.round(slow.sendsPer10ms.idleShare * 100)}% of windows idle${decorrelated}); ` +
      (peer ? `Connect's generic path ${peer.turnsPerSecond} turns/s at ${peer.sessions} sessions (fast path ${result.fastOverGeneric}×); ` : "") +
      `load average ${load.join(" ")} on ${cpus().length} cores`,
  );
} finally {
  await backend.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
