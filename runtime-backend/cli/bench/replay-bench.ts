/**
 * `npm run bench:replay`: a recorded 10-step task replayed without the model, against the
 * model-driven run on the same fixture. Each round runs `baton run` in this process three
 * times on the Mugshop fixture (`examples/replay`), with real headless Chromium:
 *   model   — the model-driven run (the run's own backend, a model behind the real `openai` SDK
 *             against a local server), saved with --save-script;
 *   replay  — that script replayed with --heal on the same shop;
 *   healed  — the script replayed with --heal on the redesigned shop (one step goes to the model).
 * Wall time is the whole command, start to exit (Chromium, and for runs that need one the
 * backend, included); model calls are the requests the model server answered. The model server
 * answers instantly, or after BENCH_LATENCY_MS (default 0,1500: both) — a stand-in for a real
 * model's time per call, not a measurement of one. Options: BENCH_ROUNDS (3).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FakeLlmServer, responsesWire } from "@baton/backend/testing/fake-llm-server";
import { shopModel, shopTask } from "@baton/backend/testing/shop-model";
import { exitCodes, runCommand } from "../src/run/run-command.js";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const latencies = (process.env.BENCH_LATENCY_MS ?? "0,1500").split(",").map(Number);
const root = fileURLToPath(new URL("../../../", import.meta.url));
process.chdir(root);

interface Measured {
  readonly ms: number;
  readonly modelCalls: number;
}

async function run(fake: FakeLlmServer, dataDir: string, site: string, extra: string[]): Promise<Measured> {
  fake.script(shopModel());
  let err = "";
  const t0 = performance.now();
  const code = await runCommand(
    [shopTask, "--serve", `examples/replay/${site}`, "--start-url", "/index.html", "--data-dir", dataDir, "--model", "openai:gpt-4o-mini", "--json", ...extra],
    {
      out: { write: () => true },
      err: { write: (t: string) => (err += t) },
      env: { ...process.env, OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: `${fake.url}/v1` },
      ask: async () => undefined,
      onInterrupt: () => () => undefined,
    },
  );
  const ms = performance.now() - t0;
  if (code !== exitCodes.done) throw new Error(`baton run ${extra.join(" ")} on ${site} exited ${code}: ${err}`);
  return { ms, modelCalls: fake.bodies.length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const s = (ms: number) => (ms / 1000).toFixed(1);

console.log(`bench:replay · ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(" ")} · ${rounds} rounds`);
for (const latencyMs of latencies) {
  const fake = await new FakeLlmServer(responsesWire, undefined, { latencyMs }).start();
  const dir = mkdtempSync(join(tmpdir(), "baton-bench-replay-"));
  const results: Record<"model" | "replay" | "healed", Measured[]> = { model: [], replay: [], healed: [] };
  try {
    for (let r = 0; r < rounds; r++) {
      const script = join(dir, `run-${r}.json`);
      results.model.push(await run(fake, join(dir, "data"), "shop", ["--save-script", script]));
      results.replay.push(await run(fake, join(dir, "data"), "shop", ["--script", script, "--heal"]));
      results.healed.push(await run(fake, join(dir, "data"), "shop-v2", ["--script", script, "--heal"]));
    }
  } finally {
    await fake.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nmodel latency ${latencyMs} ms per call (simulated)`);
  console.log("run                      wall time (median; all rounds)        model calls");
  for (const [name, label] of [
    ["model", "model-driven (recorded)"],
    ["replay", "replay --heal, same shop"],
    ["healed", "replay --heal, redesign "],
  ] as const) {
    const xs = results[name];
    console.log(`${label}  ${s(median(xs.map((x) => x.ms))).padStart(5)} s  (${xs.map((x) => s(x.ms)).join(", ")} s)`.padEnd(64) + `${xs.map((x) => x.modelCalls).join(", ")}`);
  }
  const ratio = median(results.model.map((x) => x.ms)) / median(results.replay.map((x) => x.ms));
  console.log(`replay vs model-driven: ${ratio.toFixed(1)}× faster, ${median(results.model.map((x) => x.modelCalls))} → 0 model calls`);
}
