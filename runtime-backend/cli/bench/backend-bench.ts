/**
 * `npm run bench:backend`: the backend in one process (`baton serve`, embedded store or
 * Postgres), the client in another, over real HTTP, every call through Connect's router.
 *   1. throughput: concurrent sessions against a zero-latency script model → turns/s, at 64
 *      and at 256 sessions, over h2c. The guard: at least 1,000 turns/s at 256 sessions;
 *   2. overhead: 1,000 concurrent sessions at 1 s simulated model latency → per-turn latency
 *      minus the 1 s, p50/p99: what orchestration (HTTP, store, loop) adds, next to a model
 *      call that takes seconds. Three scenarios:
 *      - "clients": each session its own keep-alive HTTP/1.1 connection, as each browser,
 *        extension or SDK client holds one, and the sessions started over the first second;
 *      - "lockstep": the same, but every session started in the same instant, so that all
 *        1,000 come back together every second — the worst case;
 *      - "h2c": the "clients" load multiplexed over 2 HTTP/2 connections (a gateway in front).
 * Options (env): BENCH_SESSIONS (64,256: one throughput run per value), BENCH_SECONDS (10),
 * BENCH_SLOW_SESSIONS (1000), BENCH_SLOW_SECONDS (15), BENCH_SCENARIOS (clients,lockstep,h2c;
 * "none" skips phase 2), BENCH_DATABASE_URL (run on Postgres instead of the embedded store),
 * BENCH_THINK_MS (a random pause of up to this long between a session's steps, outside the
 * timed round trip: phase 2 only), BENCH_CONNECTIONS (h2c connections), BENCH_BEFORE (another
 * checkout of the repository, e.g. a `git worktree` of main before a change: 3. before and
 * after, side by side: phase 1 at 256 sessions (or the last count) and the "clients" overhead,
 * each on a fresh backend of either checkout, alternating, BENCH_ROUNDS (1) times; on Postgres
 * the before side uses BENCH_BEFORE_DATABASE_URL, as its schema may be older).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startBackendProcess } from "../src/testing/backend-process.js";
import { benchToken, type ClientResult, clickScript, flatOut, pct, runClient, turnStats } from "./harness.js";

const dir = mkdtempSync(join(tmpdir(), "baton-bench-"));

/** The guard: flat-out turns per second at {@link guardSessions} sessions. */
const guardTurnsPerSecond = 1000;
const guardSessions = 256;

/** Server CPU per turn in µs, and its share of one core over the window. */
function cpuStats(r: ClientResult) {
  return {
    serverCpuUsPerTurn: Math.round((r.cpu.serverS * 1e6) / Math.max(1, r.turns)),
    serverCores: +(r.cpu.serverS / (r.elapsedMs / 1000)).toFixed(2),
    clientCores: +(r.cpu.clientS / (r.elapsedMs / 1000)).toFixed(2),
  };
}

const databaseUrl = process.env.BENCH_DATABASE_URL;
const sessionCounts = (process.env.BENCH_SESSIONS ?? "64,256").split(",").map(Number).filter((n) => n > 0);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const slowSessions = Number(process.env.BENCH_SLOW_SESSIONS ?? 1000);
const slowSeconds = Number(process.env.BENCH_SLOW_SECONDS ?? 15);

/** The overhead scenarios: how the client connects and starts its sessions. */
const scenarios = {
  clients: { BENCH_HTTP: "1.1", BENCH_STAGGER_MS: "1000" },
  lockstep: { BENCH_HTTP: "1.1", BENCH_STAGGER_MS: "0" },
  h2c: { BENCH_HTTP: "2", BENCH_STAGGER_MS: "1000" },
} as const;
type Scenario = keyof typeof scenarios;
const chosen = (process.env.BENCH_SCENARIOS ?? "clients,lockstep,h2c").split(",").filter((s): s is Scenario => s in scenarios);

/** A `baton serve` for the bench; on the embedded store, in its own data directory. */
const startBackend = (name: string, env: Record<string, string> = {}, bin?: string, url = databaseUrl) =>
  startBackendProcess(
    [...(url ? ["--database-url", url] : ["--data-dir", join(dir, name)]), "--script-dir", dir],
    {
      BATON_API_TOKEN: benchToken,
      BATON_LOG_LEVEL: "error",
      ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
      ...env,
    },
    undefined,
    bin,
  );

/** The other checkout of phase 4, and how many times each side runs. */
const before = process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE, "runtime-backend/cli/bin/baton.js") : undefined;
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));

/** Phase 1 against one backend: turns/s and latency at zero model latency (h2c, flat out). */
async function throughput(url: string, pid: number, sessions: number) {
  const r = await runClient(url, pid, clickScript(dir, 0), sessions, seconds, 2000, { ...flatOut, BENCH_HTTP: "2" });
  return { ...turnStats(r, sessions, seconds), ...cpuStats(r) };
}

/** Phase 2, one scenario: sessions against a script model that answers in 1 s; the overhead is each round trip minus that second. */
async function overhead(url: string, pid: number, scenario: Scenario) {
  const r = await runClient(url, pid, clickScript(dir, 1000), slowSessions, slowSeconds, 3000, { ...scenarios[scenario] });
  const o = r.latencies.map((l) => l - 1000).sort((a, b) => a - b);
  return {
    scenario,
    sessions: slowSessions,
    seconds: slowSeconds,
    turns: r.turns,
    errors: r.errors,
    p50Ms: +pct(o, 50).toFixed(2),
    p99Ms: +pct(o, 99).toFixed(2),
    maxMs: +(o.at(-1) ?? NaN).toFixed(2),
    turnsPerSecond: Math.round(r.turns / (r.elapsedMs / 1000)),
    sendsPer10ms: r.sendsPer10ms,
    ...cpuStats(r),
  };
}


const backend = await startBackend("data");
try {
  const runs = [];
  for (const n of sessionCounts) runs.push(await throughput(backend.url, backend.child.pid ?? 0, n));
  const guarded = runs.find((r) => r.sessions === guardSessions) ?? runs.at(-1);
  await backend.kill("SIGTERM");

  // Each scenario on a fresh backend, so none inherits the sessions or heap of another.
  const overheads = [];
  for (const s of chosen) {
    const b = await startBackend(`data-${s}`);
    try {
      overheads.push(await overhead(b.url, b.child.pid ?? 0, s));
    } finally {
      await b.kill("SIGTERM");
    }
  }

  // Phase 3: before and after on fresh backends, alternating, so both see the same machine.
  const sides: { side: string; round: number; turnsPerSecond: number; serverCpuUsPerTurn: number; p50Ms: number; p99Ms: number; loadAverage: number }[] = [];
  if (before && guarded) {
    for (let round = 1; round <= rounds; round++) {
      for (const [side, bin] of [["before", before], ["after", undefined]] as const) {
        const loadAverage = +(loadavg()[0] ?? 0).toFixed(1);
        const url = side === "before" ? (process.env.BENCH_BEFORE_DATABASE_URL ?? databaseUrl) : databaseUrl;
        const a = await startBackend(`data-${side}-${round}`, {}, bin, url);
        let t: Awaited<ReturnType<typeof throughput>>;
        try {
          t = await throughput(a.url, a.child.pid ?? 0, guarded.sessions);
        } finally {
          await a.kill("SIGTERM");
        }
        const b = await startBackend(`data-${side}-${round}-clients`, {}, bin, url);
        try {
          const o = await overhead(b.url, b.child.pid ?? 0, "clients");
          sides.push({ side, round, turnsPerSecond: t.turnsPerSecond, serverCpuUsPerTurn: t.serverCpuUsPerTurn, p50Ms: o.p50Ms, p99Ms: o.p99Ms, loadAverage });
        } finally {
          await b.kill("SIGTERM");
        }
      }
    }
  }

  const load = loadavg().map((l) => +l.toFixed(2));
  const result = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}`,
    loadAverage: load,
    store: databaseUrl ? "postgres" : "embedded (PGlite)",
    throughput: runs,
    overhead: overheads,
    ...(sides.length ? { beforeAndAfter: sides } : {}),
  };
  console.log(JSON.stringify(result, null, 2));
  const parts: string[] = [];
  if (guarded) {
    const held = guarded.turnsPerSecond >= guardTurnsPerSecond;
    parts.push(
      `${guarded.turnsPerSecond} turns/s at ${guarded.sessions} sessions (guard ≥ ${guardTurnsPerSecond}: ${held ? "held" : "NOT held"}; ` +
        `${runs.map((r) => `${r.sessions} sessions ${r.turnsPerSecond}`).join(", ")})`,
    );
  }
  for (const o of overheads) {
    parts.push(
      `overhead at ${o.sessions} sessions × 1 s, ${o.scenario}: p50 ${o.p50Ms} ms / p99 ${o.p99Ms} ms (` +
        `steps sent per 10 ms p50 ${o.sendsPer10ms.p50} / p99 ${o.sendsPer10ms.p99}, ${Math.round(o.sendsPer10ms.idleShare * 100)}% of windows idle)`,
    );
  }
  parts.push(`load average ${load.join(" ")} on ${cpus().length} cores`);
  console.log(`summary: ${parts.join("; ")}`);
  if (sides.length) {
    console.log(`before (${process.env.BENCH_BEFORE}) and after, ${guarded?.sessions} sessions flat out / clients overhead at ${slowSessions} sessions × 1 s:`);
    console.log("| side | round | load (1 min) | turns/s | server CPU per turn | overhead p50 / p99 |");
    console.log("|---|---|---|---|---|---|");
    for (const r of sides) console.log(`| ${r.side} | ${r.round} | ${r.loadAverage} | ${r.turnsPerSecond} | ${r.serverCpuUsPerTurn} µs | ${r.p50Ms} / ${r.p99Ms} ms |`);
  }
} finally {
  await backend.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
