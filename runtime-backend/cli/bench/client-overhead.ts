/**
 * `npm run bench:client`: the per-step overhead of the whole client path, model time excluded.
 * One process runs the backend (embedded store on disk, so every step is persisted) behind real
 * HTTP, and the client: runTask driving real headless Chromium on a realistic shop listing
 * (some 300 controls, most below the fold). The model is a script with zero latency; each step
 * it clicks a wishlist toggle found by role + name and reads the page again (take_snapshot).
 *
 * A step is measured from one click's start to the next: click (hit test, input events,
 * settle, evidence) + snapshot + posting the results over HTTP + the backend's step (apply,
 * zero-latency model turn, persist, respond). Target: p50 ≤ 100 ms per step, snapshot included.
 * The take_snapshot right after a click is served from the click's evidence snapshot when the
 * page has not changed since (the engine's snapshot reuse). The read-only scenario turns reuse
 * off: with a real model's think time between steps every read is older than the reuse max age,
 * so each one is a real snapshot, and a zero-latency loop would otherwise measure reuses.
 * Options (env): BENCH_STEPS (60), BENCH_WARMUP (5), BENCH_QUIET_MS (the engine's settle quiet
 * window after actions; its default when unset), BENCH_REUSE=0 (no snapshot reuse anywhere).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createBatonClient, type RunEvent, runTask } from "@baton/sdk/client";
import { refsInText } from "@baton/sdk/contract";
import { defaultQuietWindowMs, type Engine, engineHandlers } from "@baton/sdk/engine";
import { launchChromium, nodeTransport, openPage, WebSocketTransport } from "@baton/sdk/node";
import { startSite } from "@baton/backend/e2e/fixtures/site";
import { ScriptProvider, createModelResolver } from "@baton/backend/providers";
import { startBackend } from "@baton/backend/server";
import { createLogger } from "@baton/backend/log";
import { createToken, ensureUser } from "@baton/backend/store";

const steps = Number(process.env.BENCH_STEPS ?? 60);
const warmup = Number(process.env.BENCH_WARMUP ?? 5);
const target = { p50Ms: 100 };
const quietMs = process.env.BENCH_QUIET_MS ? Number(process.env.BENCH_QUIET_MS) : undefined;
const reuseAllowed = process.env.BENCH_REUSE !== "0";

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const fmt = (n: number): string => n.toFixed(1).padStart(7);

interface Scenario {
  readonly name: string;
  /** The looped turn's calls; a step is measured from one `anchor` tool start to the next. */
  readonly calls: { name: string; args?: Record<string, unknown> }[];
  readonly anchor: string;
  /** Whether the engine may reuse an unchanged snapshot in this scenario. */
  readonly reuse: boolean;
}

const scenarios: Scenario[] = [
  {
    name: "act + read (click a wishlist toggle, then take_snapshot)",
    calls: [{ name: "click", args: { ref: { role: "button", name: "Save Trail Runner to wishlist" } } }, { name: "take_snapshot" }],
    anchor: "click",
    reuse: reuseAllowed,
  },
  { name: "read only (take_snapshot, every one fresh: reuse off)", calls: [{ name: "take_snapshot" }], anchor: "take_snapshot", reuse: false },
];

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "baton-bench-client-"));
  const site = await startSite();
  const browser = await launchChromium();
  const transport = await WebSocketTransport.connect(browser.wsEndpoint);
  const open = (reuseSnapshots: boolean): Promise<Engine> =>
    openPage(transport, { viewport: { width: 1280, height: 800 }, reuseSnapshots, ...(quietMs !== undefined ? { settle: { quietWindowMs: quietMs } } : {}) });
  let engine: Engine | undefined;
  const models = new Map(scenarios.map((sc, i) => [`s${i}`, new ScriptProvider({ turns: [{ calls: [{ name: "take_snapshot" }] }, { calls: sc.calls }], loopFrom: 1 })]));
  const backend = await startBackend({
    port: 0,
    host: "127.0.0.1",
    dataDir: join(dir, "data"),
    resolveModel: createModelResolver(process.env, Object.fromEntries(models)),
    logger: createLogger({ level: "warn" }),
  });
  const lines: string[] = [];
  try {
    await ensureUser(backend.db, "local");
    const token = await createToken(backend.db, "local", "bench");
    const client = createBatonClient({
      transport: nodeTransport({ baseUrl: backend.server.url, token }),
    });
    let text = "";
    for (const [i, sc] of scenarios.entries()) {
      engine?.dispose();
      engine = await open(sc.reuse);
      const scenarioEngine = engine;
      // Per step: when its anchor tool started, and how long each tool took.
      const starts: number[] = [];
      const toolMs = new Map<string, number[]>();
      const onEvent = (e: RunEvent): void => {
        if (e.type === "tool_start" && e.tool.name === sc.anchor) starts.push(performance.now());
        if (e.type === "tool_end" && starts.length > 0) {
          if (e.error) throw new Error(`${e.tool.name} failed: ${e.error.message}`);
          toolMs.set(e.tool.name, [...(toolMs.get(e.tool.name) ?? []), e.ms]);
        }
      };
      const outcome = await runTask(client, {
        task: "Benchmark steps",
        model: `s${i}:zero-latency`,
        startUrl: `${site.a}/catalog`,
        maxSteps: warmup + steps + 2,
        handlers: { ...engineHandlers(scenarioEngine), askUser: async () => ({ answer: "" }) },
        onEvent,
      });
      const from = Math.min(warmup, starts.length - 2);
      const step = starts.slice(from + 1).map((t, k) => t - (starts[from + k] as number));
      const per = (name: string) => (toolMs.get(name) ?? []).slice(from, from + step.length);
      const tools = sc.calls.map((c) => c.name);
      const rest = step.map((st, k) => tools.reduce((left, name) => left - (per(name)[k] ?? 0), st));
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      const row = (label: string, xs: number[], note = "") => `  ${label.padEnd(16)}${fmt(pct(xs, 50))}  ${fmt(pct(xs, 95))}  ${fmt(sum(xs) / xs.length)}   ms${note}`;
      const snaps = per("take_snapshot");
      lines.push(
        `${sc.name}: ${step.length} steps after ${from} warm-up (${/step limit/.test(outcome.reason) ? "the run ends at its step limit, as planned" : `${outcome.status}: ${outcome.reason}`})`,
        "                    p50      p95     mean",
        row("step", step),
        ...tools.map((name) => row(name, per(name), name === "click" ? "  (hit test, input, settle, evidence snapshot)" : "")),
        row("HTTP + backend", rest, "  (post results, persist, model turn, respond)"),
        `  snapshot share of a step: ${((100 * sum(snaps)) / sum(step)).toFixed(0)}% (take_snapshot only)`,
        `  target p50 ≤ ${target.p50Ms} ms per step: ${pct(step, 50) <= target.p50Ms ? "MET" : "NOT MET"}`,
        "",
      );
      text = (await scenarioEngine.snapshot({ fresh: true })).text ?? "";
    }
    console.log(
      [
        "baton client overhead (model time excluded: zero-latency script model)",
        `page: ${site.a}/catalog at 1280×800, ${refsInText(text).length} refs in view, snapshot ${text.length} chars`,
        `machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}; settle quiet window ${quietMs ?? `${defaultQuietWindowMs} (default)`} ms; snapshot reuse after actions ${reuseAllowed ? "on" : "off"}`,
        "",
        ...lines,
      ].join("\n"),
    );
  } finally {
    engine?.dispose();
    await transport.close().catch(() => undefined);
    await browser.close();
    await backend.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
