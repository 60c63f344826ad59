/**
 * `npm run bench:extension`: what the extension costs, measured on the built extension in
 * headless Chromium.
 *
 * 1. Bundle sizes: every file of `dist/` raw and gzipped, and what the side panel loads.
 * 2. The UI library: the same timeline micro-app (mount, then 300 appends, each re-rendering
 *    the list) in Preact (the panel's), lit-html and plain DOM: gzipped size and time.
 * 3. Panel time to interactive: the panel page opened `BENCH_PANEL_RUNS` times (default 15),
 *    signed in; the time from navigation start to the `baton:interactive` mark (the app is
 *    rendered and its stored state read).
 * 4. Per-step overhead of the engine over `chrome.debugger` against the Node CDP path: the
 *    same scripted task (click a product and read the page, `BENCH_ROUNDS` rounds, default 12;
 *    then type into the checkout's email field and read the page, as many times) run through
 *    the real side panel and through `runTask` in Node with the engine over a WebSocket, in the
 *    same browser on the same pages, alternating `BENCH_RUNS` times (default 2). Per tool: the
 *    handler's time (runTask's `tool_end` ms) at p50 and p90, and the ratio (target ≤ 1.5×).
 */
import { createBatonClient, runTask } from "@baton/sdk/client";
import { Engine, engineHandlers } from "@baton/sdk/engine";
import { nodeTransport } from "@baton/sdk/node";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { rollup } from "rollup";
import esbuild from "rollup-plugin-esbuild";
import { distDir, startWorld, until, type World } from "../e2e/harness.js";

const panelRuns = Number(process.env.BENCH_PANEL_RUNS ?? 15);
const rounds = Number(process.env.BENCH_ROUNDS ?? 12);
const runs = Number(process.env.BENCH_RUNS ?? 2);

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const gz = (b: Buffer | string) => gzipSync(b, { level: 9 }).length;
const pct = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
};

/** 1. Every file of dist/, and what each context loads. */
function bundleSizes(): void {
  console.log("\n## Bundle sizes (dist/, gzip -9)\n");
  const files: { path: string; raw: number; gzip: number }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.endsWith(".png") && !name.endsWith(".svg")) files.push({ path: relative(distDir, path), raw: statSync(path).size, gzip: gz(readFileSync(path)) });
    }
  };
  walk(distDir);
  for (const f of files) console.log(`${f.path.padEnd(32)} ${kb(f.raw).padStart(10)} ${kb(f.gzip).padStart(10)} gz`);
  const sum = (pred: (p: string) => boolean) => files.filter((f) => pred(f.path)).reduce((n, f) => n + f.gzip, 0);
  // What an entry loads: itself and the chunks it imports statically (or also dynamically), transitively.
  const loads = (entry: string, dynamic = false): Set<string> => {
    const seen = new Set<string>();
    const pattern = dynamic ? /(?:from|import\()\s*"(\.\.?\/[\w./-]+\.js)"/g : /from\s*"(\.\.?\/[\w./-]+\.js)"/g;
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const m of readFileSync(join(distDir, file), "utf8").matchAll(pattern)) visit(posix.join(posix.dirname(file), m[1] ?? ""));
    };
    visit(entry);
    return seen;
  };
  const panel = loads("panel.js");
  const worker = loads("service-worker.js");
  // The standalone mode: what the panel imports on its first task without a backend, and the files PGlite fetches.
  const standalone = new Set([...loads("panel.js", true)].filter((f) => !panel.has(f)));
  for (const f of ["pglite.wasm", "pglite.data", "initdb.wasm"]) standalone.add(`chunks/${f}`);
  console.log(`\nside panel (panel.html, .css, .js, its chunks):  ${kb(sum((p) => p.startsWith("panel.") || panel.has(p)))} gz`);
  console.log(`service worker (+ its chunks):                   ${kb(sum((p) => worker.has(p)))} gz`);
  console.log(`standalone mode (first task without a backend):  ${kb(sum((p) => standalone.has(p)))} gz, ${kb(files.filter((f) => standalone.has(f.path)).reduce((n, f) => n + f.raw, 0))} raw`);
  console.log(`content script (every agent tab):                ${kb(sum((p) => p === "content-script.js"))} gz`);
  console.log(`DOM-fallback agent (only where needed):          ${kb(sum((p) => p === "dom-agent.js"))} gz`);
  const zip = join(distDir, "..", "baton-extension.zip");
  console.log(`Web Store zip:                                   ${kb(statSync(zip).size)}`);
}

/** 2. The same micro-app with each UI library: size and speed. */
async function uiLibraries(world: World): Promise<void> {
  console.log("\n## UI library: the timeline micro-app (mount, then 300 appends re-rendering the list)\n");
  const dir = mkdtempSync(join(tmpdir(), "baton-ui-bench-"));
  try {
    const apps = [
      ["preact 11.2.0", "preact.tsx"],
      ["lit 3.3.3 (lit-html)", "lit.ts"],
      ["plain DOM", "vanilla.ts"],
    ] as const;
    const rows: string[] = [];
    for (const [name, file] of apps) {
      const bundle = await rollup({
        input: join(import.meta.dirname, "ui-libs", file),
        plugins: [nodeResolve({ browser: true, extensions: [".ts", ".tsx", ".js"] }), esbuild({ target: "chrome125", minify: true, jsx: "automatic", jsxImportSource: "preact" })],
        onwarn: () => undefined,
      });
      const { output } = await bundle.generate({ format: "iife" });
      await bundle.close();
      const code = output[0].code;
      const base = file.replace(/\.tsx?$/, "");
      writeFileSync(join(dir, `${base}.js`), code);
      writeFileSync(join(dir, `${base}.html`), `<!doctype html><meta charset="utf-8"><div id="app"></div><script src="${base}.js"></script>`);
      const mounts: number[] = [];
      const appends: number[] = [];
      for (let i = 0; i < 7; i++) {
        const tab = await world.openTab(`file://${join(dir, `${base}.html`)}`);
        const r = await until(`${name} to finish`, () => tab.eval<{ mountMs: number; appendMs: number; count: number } | undefined>("window.__bench"), 10_000);
        await tab.close();
        if (r.count !== 300) throw new Error(`${name} rendered ${r.count} entries, not 300`);
        if (i > 0) {
          mounts.push(r.mountMs);
          appends.push(r.appendMs);
        }
      }
      rows.push(`${name.padEnd(22)} ${kb(gz(code)).padStart(9)} gz   mount p50 ${pct(mounts, 50).toFixed(2)} ms   300 appends p50 ${pct(appends, 50).toFixed(0)} ms (p90 ${pct(appends, 90).toFixed(0)})`);
    }
    for (const r of rows) console.log(r);
    console.log("(6 measured runs each after a warm-up; each append re-renders the whole list and forces a layout)");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 3. Time from navigation start to the panel's interactive mark. */
async function panelTimeToInteractive(world: World): Promise<void> {
  console.log(`\n## Panel time to interactive (${panelRuns} loads, signed in)\n`);
  await world.signIn("script:none.json");
  const times: number[] = [];
  const url = `chrome-extension://${world.extensionId}/panel.html`;
  let lost = 0;
  for (let i = 0; i < panelRuns + 1; i++) {
    const tab = await world.openTab(url);
    // A load whose page went away before it answered (Chromium replaced the context) is retried.
    const ms = await until("the interactive mark", () =>
      tab.eval<number | undefined>(`performance.getEntriesByName("baton:interactive")[0]?.startTime`).catch(() => {
        lost++;
        return undefined;
      }),
    );
    await tab.close();
    if (i > 0) times.push(ms);
  }
  if (lost > 0) console.log(`(${lost} reads retried: the page's context was replaced)`);
  console.log(`panel.html → interactive: p50 ${pct(times, 50).toFixed(0)} ms, p90 ${pct(times, 90).toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms (first load not counted)`);
}

/** The scripted task both paths run: click and read, then type and read. */
function stepScript(world: World, shopUrl: string) {
  const products = ["Add Blue mug to cart", "Add Red mug to cart", "Add Canvas tote to cart", "Add Dot notebook to cart"];
  const turns: unknown[] = [{ text: "<goal>Bench</goal>", calls: [{ name: "take_snapshot" }] }];
  for (let i = 0; i < rounds; i++) turns.push({ calls: [{ name: "click", args: { ref: { role: "button", name: products[i % products.length] } } }, { name: "take_snapshot" }] });
  turns.push({ calls: [{ name: "navigate", args: { url: `${shopUrl}/checkout` } }, { name: "take_snapshot" }] });
  for (let i = 0; i < rounds; i++) turns.push({ calls: [{ name: "type_text", args: { ref: { role: "textbox", name: "Email" }, text: `ada${i}@example.com` } }, { name: "take_snapshot" }] });
  turns.push({ calls: [{ name: "done", args: { answer: "bench done" } }] });
  return world.script("bench-steps.json", { turns });
}

type Times = Record<string, number[]>;

const add = (t: Times, tool: string, ms: number) => void (t[tool] ??= []).push(ms);

/** The task through the real side panel: the engine over chrome.debugger. */
async function viaExtension(world: World, times: Times): Promise<void> {
  const tab = await world.openTab(`${world.shop.url}/`);
  const panel = await world.openPanel(tab);
  await panel.run("Bench: click and type");
  const outcome = await panel.outcome(180_000);
  if (outcome.state !== "completed") throw new Error(`the panel's run ended ${outcome.state}: ${outcome.text}`);
  for (const e of await panel.timeline()) if (e.kind === "step" && e.state === "done" && e.ms) add(times, e.tool, Number(e.ms));
  await panel.close();
  await tab.close();
}

/** The same task through runTask in Node: the engine over a WebSocket to the same browser. */
async function viaNode(world: World, model: string, times: Times): Promise<void> {
  const tab = await world.openTab(`${world.shop.url}/`);
  const engine = await Engine.attach(world.transport, tab.targetId);
  const client = createBatonClient({ transport: nodeTransport({ baseUrl: world.backend.url, token: world.token }) });
  const outcome = await runTask(client, {
    task: "Bench: click and type",
    model,
    handlers: { ...engineHandlers(engine), askUser: async () => ({ answer: "" }) },
    onEvent: (e) => {
      if (e.type === "tool_end" && !e.error) add(times, e.tool.name, e.ms);
    },
  });
  if (outcome.status !== "completed") throw new Error(`the Node run ended ${outcome.status}: ${outcome.reason}`);
  engine.page.dispose();
  await tab.close();
}

/** 4. Per-step overhead: the same steps on the same pages, extension vs Node. */
async function perStepOverhead(world: World): Promise<void> {
  console.log(`\n## Per-step time: the engine over chrome.debugger (side panel) vs Node CDP (${runs} alternating runs of ${2 * rounds + 2} steps each)\n`);
  const model = stepScript(world, world.shop.url);
  await world.signIn(model);
  const ext: Times = {};
  const node: Times = {};
  for (let i = 0; i < runs; i++) {
    world.shop.reset();
    await viaExtension(world, ext);
    world.shop.reset();
    await viaNode(world, model, node);
  }
  console.log(`${"tool".padEnd(14)} ${"extension p50/p90".padStart(20)} ${"Node p50/p90".padStart(16)} ${"ratio p50".padStart(10)}`);
  for (const tool of ["take_snapshot", "click", "type_text", "navigate"]) {
    const a = ext[tool] ?? [];
    const b = node[tool] ?? [];
    if (a.length === 0 || b.length === 0) continue;
    const ratio = pct(a, 50) / pct(b, 50);
    console.log(
      `${tool.padEnd(14)} ${`${pct(a, 50)}/${pct(a, 90)} ms`.padStart(20)} ${`${pct(b, 50)}/${pct(b, 90)} ms`.padStart(16)} ${`${ratio.toFixed(2)}×`.padStart(10)}  (n=${a.length}/${b.length})`,
    );
  }
  const all = (t: Times) => Object.entries(t).filter(([k]) => k !== "navigate").flatMap(([, v]) => v);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  console.log(`\nall steps but navigate, mean: extension ${mean(all(ext)).toFixed(0)} ms, Node ${mean(all(node)).toFixed(0)} ms → ${(mean(all(ext)) / mean(all(node))).toFixed(2)}× (target ≤ 1.5×)`);
}

const world = await startWorld();
try {
  bundleSizes();
  await uiLibraries(world);
  await panelTimeToInteractive(world);
  await perStepOverhead(world);
} finally {
  await world.close();
}
