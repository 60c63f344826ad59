/**
 * What the backend benchmarks share: script-model files, the client process (`client.ts`)
 * and percentiles.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const clientFile = fileURLToPath(new URL("./client.ts", import.meta.url));
const tsx = fileURLToPath(new URL("../../../node_modules/.bin/tsx", import.meta.url));

/** The bearer token every bench backend is started with (`BATON_API_TOKEN`). */
export const benchToken = "bt_bench_token_0123456789abcdefghij";

/** Writes a script model into `dir` that answers every turn with one `click` after `delayMs`; returns its `--model` value. */
export function clickScript(dir: string, delayMs: number): string {
  const f = join(dir, `script-${delayMs}.json`);
  writeFileSync(f, JSON.stringify({ turns: [{ calls: [{ name: "click", args: { ref: "e1" } }], delayMs }], loopFrom: 0 }));
  return `script:${f}`;
}

/** The p-th percentile of an ascending array. */
export function pct(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Client environment for throughput runs: sessions all start at once and never pause (see client.ts). */
export const flatOut: Record<string, string> = { BENCH_STAGGER_MS: "0", BENCH_THINK_MS: "0" };

/** What `client.ts` prints. */
export interface ClientResult {
  turns: number;
  errors: number;
  elapsedMs: number;
  /** CPU seconds used during the measured window by the client and by the backend. */
  cpu: { clientS: number; serverS: number };
  /** Steps sent per 10 ms window of the measured time: mean, median, p99, share of idle windows. */
  sendsPer10ms: { mean: number; p50: number; p99: number; idleShare: number };
  latencies: number[];
}

/** A client run's turns, rate and latency percentiles (ms), as both benches print them. */
export function turnStats(r: ClientResult, sessions: number, seconds: number) {
  const sorted = r.latencies.sort((a, b) => a - b);
  return {
    sessions,
    seconds,
    turns: r.turns,
    errors: r.errors,
    turnsPerSecond: Math.round(r.turns / (r.elapsedMs / 1000)),
    latencyP50Ms: +pct(sorted, 50).toFixed(2),
    latencyP99Ms: +pct(sorted, 99).toFixed(2),
    latencyP999Ms: +pct(sorted, 99.9).toFixed(2),
    latencyMaxMs: +(sorted.at(-1) ?? NaN).toFixed(2),
  };
}

/** Runs `client.ts` in its own process: `sessions` sessions for `seconds` after `warmupMs`; `env` adds to this process's environment. */
export async function runClient(
  url: string,
  serverPid: number,
  model: string,
  sessions: number,
  seconds: number,
  warmupMs: number,
  env: Record<string, string> = {},
): Promise<ClientResult> {
  const args = [clientFile, url, benchToken, model, String(sessions), String(seconds * 1000), String(warmupMs), String(serverPid)];
  const { stdout } = await run(tsx, args, { maxBuffer: 512 * 1024 * 1024, env: { ...process.env, ...env } });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as ClientResult;
}
