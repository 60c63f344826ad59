/**
 * `npm run bench:store`: what a long run does to the embedded store's data directory, and
 * what a crash then costs. `baton serve` (embedded store) carries the throughput load of
 * `bench:backend` (zero-latency script model) for BENCH_STORE_SECONDS (60), while this process
 * samples the size of the WAL (`pg_wal`) and of the whole directory every 250 ms. Then the
 * backend is killed with SIGKILL and started again on the same directory: the time until it
 * listens is crash recovery (WAL replay) plus start-up, against a fresh start measured first.
 * Options (env): BENCH_STORE_SESSIONS (64), BENCH_STORE_SECONDS (60), BENCH_SERVER_NODE_OPTIONS
 * (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", as in bench:backend).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { type BackendProcess, startBackendProcess } from "../src/testing/backend-process.js";
import { benchToken, clickScript, flatOut, runClient, turnStats } from "./harness.js";

/** Bytes under `path` (files only; missing entries count 0: the store deletes as we walk). */
function bytesUnder(path: string): number {
  let total = 0;
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(path, e.name);
    if (e.isDirectory()) total += bytesUnder(p);
    else {
      try {
        total += statSync(p).size;
      } catch {
        // removed meanwhile
      }
    }
  }
  return total;
}

const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(1);
const dir = mkdtempSync(join(tmpdir(), "baton-store-bench-"));
const data = join(dir, "data");
const env = {
  BATON_API_TOKEN: benchToken,
  BATON_LOG_LEVEL: "error",
  ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
};

/** Starts the backend on `data`; resolves with it and the milliseconds until it listened. */
async function start(): Promise<{ backend: BackendProcess; ms: number }> {
  const t0 = performance.now();
  const backend = await startBackendProcess(["--data-dir", data, "--script-dir", dir], env, 600_000);
  return { backend, ms: performance.now() - t0 };
}

let running: BackendProcess | undefined;
try {
  const sessions = Number(process.env.BENCH_STORE_SESSIONS ?? 64);
  const seconds = Number(process.env.BENCH_STORE_SECONDS ?? 60);
  const fresh = await start();
  running = fresh.backend;

  const samples: { t: number; wal: number; total: number }[] = [];
  const t0 = performance.now();
  const sampler = setInterval(() => samples.push({ t: performance.now() - t0, wal: bytesUnder(join(data, "pg_wal")), total: bytesUnder(data) }), 250);
  const load = await runClient(running.url, running.child.pid ?? 0, clickScript(dir, 0), sessions, seconds, 2000, flatOut);
  clearInterval(sampler);
  const before = { wal: bytesUnder(join(data, "pg_wal")), total: bytesUnder(data) };

  await running.kill("SIGKILL");
  running = undefined;
  const again = await start();
  running = again.backend;
  const after = { wal: bytesUnder(join(data, "pg_wal")), total: bytesUnder(data) };

  const result = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}`,
    loadAverage: loadavg().map((l) => +l.toFixed(2)),
    load: turnStats(load, sessions, seconds),
    walMB: { peak: mb(Math.max(...samples.map((s) => s.wal))), atKill: mb(before.wal), afterRecovery: mb(after.wal) },
    dataDirMB: { peak: mb(Math.max(...samples.map((s) => s.total))), atKill: mb(before.total), afterRecovery: mb(after.total) },
    startMs: { fresh: Math.round(fresh.ms), afterSigkill: Math.round(again.ms) },
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(
    `summary: ${result.load.turnsPerSecond} turns/s for ${seconds} s (latency p99 ${result.load.latencyP99Ms} / max ${result.load.latencyMaxMs} ms); ` +
      `WAL peak ${result.walMB.peak} MB, data dir peak ${result.dataDirMB.peak} MB; ` +
      `start after SIGKILL ${result.startMs.afterSigkill} ms (fresh ${result.startMs.fresh} ms)`,
  );
} finally {
  await running?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
