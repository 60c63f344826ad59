/**
 * Snapshot benchmark: Baton's take_snapshot vs Playwright's `page.ariaSnapshot({mode: "ai"})`
 * on the same Chromium in the same run, over every fixture page (the last is the 5,000-node
 * page). Prints a Markdown table: p50/p95 ms, o200k tokens, recall of the fixture's expected
 * elements, phantom refs (hidden or covered elements listed), and Baton/Playwright ratios,
 * then a summary over the typical pages (median time ratio, total token ratio).
 *
 * The app-like pages (`fixtures/apps/`) get their own table: recall and phantoms against the
 * targets derived from the live page (`fixtures/ground-truth.ts`), Playwright's recall by the
 * same targets, how many of Baton's refs a click reaches the handler of, and a summary line
 * against the targets (tokens ≤ 0.35× Playwright's, time p50 ≤ 1.0×). The pages built like
 * real apps (`Fixture.patterns`) get a table side by side with Playwright's controls
 * (`playwright-controls.ts`): how many have a Baton ref, and each side's share of useful names.
 *
 *   npm run bench:snapshot [-- --runs N] [-- --pages /shop,/docs] [-- --apps-only] [-- --no-apps] [-- --patterns-only]
 */
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { chromium } from "playwright-core";
import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import type { Engine } from "../src/engine/engine.js";
import { engineHandlers } from "../src/engine/handlers.js";
import { compareRefs, groundTruth, lightIndexes } from "../src/engine/fixtures/ground-truth.js";
import { handledSince } from "../src/engine/fixtures/apps/kit.js";
import { fixtures } from "../src/engine/fixtures/pages.js";
import { startFixtureServer } from "../src/engine/fixtures/server.js";
import { DomEngine } from "../src/engine/dom/dom-engine.js";
import { cdpDomRunner } from "../src/engine/dom/dom-runner.js";
import { launchChromium } from "../src/node/launch-chromium.js";
import { type ControlComparison, compareControls } from "./playwright-controls.js";
import { openPage } from "../src/node/open-page.js";
import { WebSocketTransport } from "../src/node/ws-transport.js";

const runsArg = process.argv.indexOf("--runs");
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;
const viewport = { width: 1280, height: 800 };
const pagesArg = process.argv.indexOf("--pages");
/** `--pages /shop,/docs` measures only those fixtures (for quick comparisons). */
const only = pagesArg > 0 ? new Set((process.argv[pagesArg + 1] ?? "").split(",")) : undefined;
/** `--apps-only` measures the app-like pages only; `--no-apps` leaves them out. */
const appsOnly = process.argv.includes("--apps-only");
const noApps = process.argv.includes("--no-apps");
/** `--patterns-only` measures the pages built like real apps only (`Fixture.patterns`). */
const patternsOnly = process.argv.includes("--patterns-only");

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Baton lists an element as `eN role "name"`. */
const batonHas = (text: string, role: string, name: string): boolean =>
  new RegExp(`^\\s*e\\d+ ${esc(role)} "${esc(name)}"`, "m").test(text);
/** Playwright lists it as `- role "name" … [ref=…]`. */
const playwrightHas = (text: string, role: string, name: string): boolean =>
  new RegExp(`- ${esc(role)} "${esc(name)}"[^\\n]*\\[ref=`, "m").test(text);
const batonPhantom = (text: string, name: string): boolean => new RegExp(`^\\s*e\\d+ \\S+ "${esc(name)}"`, "m").test(text);
const playwrightPhantom = (text: string, name: string): boolean => new RegExp(`"${esc(name)}"[^\\n]*\\[ref=`).test(text);

type Timed = { ms: number[]; text: string };

/**
 * Times the tools interleaved (one call of each per round, the order rotating every round), so
 * load from other work on this shared machine lands on all of them alike instead of on
 * whichever happened to run during a burst.
 */
async function timeInterleaved(fns: readonly (() => Promise<string>)[]): Promise<Timed[]> {
  const out: Timed[] = fns.map(() => ({ ms: [], text: "" }));
  for (let w = 0; w < 2; w++) for (const [i, fn] of fns.entries()) out[i]!.text = await fn();
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < fns.length; k++) {
      const i = (r + k) % fns.length;
      const t0 = performance.now();
      out[i]!.text = await fns[i]!();
      out[i]!.ms.push(performance.now() - t0);
    }
  }
  return out;
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

/**
 * Clicks every ref of the page (reloading it after a click that changed it) and counts the
 * clicks whose element's handler ran (the app pages record handled elements in
 * `window.__handled`); a ref replaced on hover counts when a handler ran at all.
 */
async function clickEveryRef(engine: Engine, url: string): Promise<{ refs: number; reached: number }> {
  const tools = engineHandlers(engine);
  const load = async (): Promise<{ ref: string; role: string; name: string }[]> => {
    await tools.navigate({ url } as never, undefined);
    await tools.takeSnapshot({ offset: 0, includeScreenshot: false, includeOffscreen: false, ref: "" } as never, undefined);
    return (engine.lastSnapshot?.elements ?? []).map((e) => ({ ref: e.ref, role: e.role, name: e.name }));
  };
  const evaluate = async <T>(expression: string): Promise<T> =>
    (await engine.page.send<{ result: { value?: T } }>("Runtime.evaluate", { expression, returnByValue: true })).result.value as T;
  const first = await load();
  let refs = first;
  let dirty = false;
  let reached = 0;
  for (let i = 0; i < first.length; i++) {
    if (dirty) refs = await load();
    dirty = false;
    const r = refs[i];
    if (!r || r.role !== first[i]!.role || r.name !== first[i]!.name) continue;
    const before = await evaluate<number>("window.__handled.length");
    const { object } = await engine.page.send<{ object: { objectId: string } }>("DOM.resolveNode", { backendNodeId: engine.refs.get(r.ref)!.backendNodeId });
    const result = await tools.click(create(ClickParamsSchema, { ref: r.ref }), undefined).catch(() => undefined);
    if (!result) {
      dirty = true;
      continue;
    }
    const e = result.evidence;
    const replaced = e?.notes?.some((n) => n.startsWith(`${r.ref} was replaced by`)) && (await evaluate<number>("window.__handled.length")) > before;
    const handled = await engine.page.send<{ result: { value?: boolean } }>("Runtime.callFunctionOn", {
      objectId: object.objectId,
      functionDeclaration: handledSince,
      arguments: [{ value: before }],
      returnByValue: true,
    });
    if (replaced || handled.result.value === true) reached++;
    dirty = !!(e?.navigated || e?.refsAdded?.length || e?.refsRemoved?.length || e?.dialog);
  }
  return { refs: first.length, reached };
}

const server = await startFixtureServer();
const browser = await launchChromium({ args: ["--site-per-process"] });
const transport = await WebSocketTransport.connect(browser.wsEndpoint);
const pw = await chromium.connectOverCDP(browser.wsEndpoint);
try {
  const engine = await openPage(transport, { viewport, reuseSnapshots: false });
  const ctx = pw.contexts()[0] ?? (await pw.newContext());
  const pwPage = await ctx.newPage();
  await pwPage.setViewportSize(viewport);
  const dom = new DomEngine(cdpDomRunner(engine.page));
  const rows: string[] = [];
  const domRows: string[] = [
    "| page | DOM fallback p50 / p95 ms | DOM tokens | DOM recall (reachable) | DOM phantoms |",
    "|---|---|---|---|---|",
  ];
  const header =
    "| page | Baton p50 / p95 ms | PW p50 / p95 ms | time ratio | Baton tokens | PW tokens | token ratio | Baton recall | PW recall | Baton phantoms | PW phantoms |";
  rows.push(header, `|${"---|".repeat(11)}`);
  const totals = { bt: 0, pt: 0 };
  const typical: { ratio: number; bTokens: number; pTokens: number; bp50: number }[] = [];
  const appRows: string[] = [
    "| page | Baton p50 / p95 ms | PW p50 / p95 ms | time ratio | Baton tokens | PW tokens | token ratio | targets | Baton recall | Baton phantoms | PW recall | clicks reaching the handler |",
    `|${"---|".repeat(12)}`,
  ];
  const apps: { ratio: number; bTokens: number; pTokens: number; targets: number; found: number; phantoms: number; pwFound: number; clicks: number; refs: number }[] = [];
  const patterns: ({ path: string; ratio: number; bTokens: number; pTokens: number } & ControlComparison)[] = [];
  const selected = fixtures.filter((x) => (!only || only.has(x.path)) && !(appsOnly && !x.app) && !(noApps && x.app) && !(patternsOnly && !x.patterns));
  for (const f of selected) {
    const url = server.originA + f.path;
    await engine.page.send("Page.navigate", { url });
    await engine.evidence.after(engine.evidence.mark());
    await pwPage.goto(url, { waitUntil: "load" });
    await pwPage.waitForTimeout(200);
    const [b, p, d] = (await timeInterleaved([
      async () => (await engine.snapshot({ maxChars: 200_000 })).text ?? "",
      () => pwPage.ariaSnapshot({ mode: "ai" } as Parameters<typeof pwPage.ariaSnapshot>[0]),
      async () => (await dom.snapshot({ maxChars: 200_000 })).text ?? "",
    ])) as [Timed, Timed, Timed];
    const bTokens0 = encode(b.text).length;
    const pTokens0 = encode(p.text).length;
    const bp500 = percentile(b.ms, 50);
    const pp500 = percentile(p.ms, 50);
    if (f.app) {
      // Against the page's own targets: Baton's refs, Playwright's refs, and a click on every Baton ref.
      const targets = await groundTruth(engine.page);
      const refs = (engine.lastSnapshot?.elements ?? []).map((e) => ({ ref: e.ref, role: e.role, name: e.name, backendNodeId: engine.refs.get(e.ref)!.backendNodeId }));
      const report = compareRefs(targets, refs);
      for (const x of report.phantoms) process.stderr.write(`${f.path}: phantom ${x.ref} ${x.role} "${x.name}"\n`);
      for (const x of report.missed) process.stderr.write(`${f.path}: missed <${x.tag}> "${x.text}" (${x.signs})\n`);
      const targetIndexes = new Set(await lightIndexes(engine.page, targets.map((t) => t.backendNodeId)));
      const pwIndexes = new Set<number>();
      for (const m of p.text.matchAll(/\[ref=([^\]]+)\]/g)) {
        const handle = await pwPage.locator(`aria-ref=${m[1]}`).elementHandle({ timeout: 1000 }).catch(() => null);
        const index = handle ? await handle.evaluate((el) => Array.prototype.indexOf.call(document.getElementsByTagName("*"), el)).catch(() => -1) : -1;
        if (targetIndexes.has(index)) pwIndexes.add(index);
      }
      // Side by side with Playwright's controls, on the pages built like real apps.
      if (f.patterns) {
        const c = await compareControls(engine, pwPage, p.text);
        for (const m of c.missed) process.stderr.write(`${f.path}: Playwright's ${m} has no Baton ref\n`);
        patterns.push({ path: f.path, ratio: bp500 / pp500, bTokens: bTokens0, pTokens: pTokens0, ...c });
      }
      const clicks = await clickEveryRef(engine, url);
      apps.push({ ratio: bp500 / pp500, bTokens: bTokens0, pTokens: pTokens0, targets: report.targets, found: report.found, phantoms: report.phantoms.length, pwFound: pwIndexes.size, clicks: clicks.reached, refs: clicks.refs });
      const pct = (n: number, d: number): string => `${d ? Math.round((100 * n) / d) : 100}%`;
      appRows.push(
        `| ${f.path} | ${bp500.toFixed(1)} / ${percentile(b.ms, 95).toFixed(1)} | ${pp500.toFixed(1)} / ${percentile(p.ms, 95).toFixed(1)} | ${(bp500 / pp500).toFixed(2)} | ${bTokens0} | ${pTokens0} | ${(bTokens0 / pTokens0).toFixed(2)} | ${report.targets} | ${pct(report.found, report.targets)} | ${report.phantoms.length} | ${pct(pwIndexes.size, report.targets)} | ${clicks.reached}/${clicks.refs} |`,
      );
      continue;
    }
    const reachable = f.expected.filter((e) => !e.crossOrigin);
    const dFound = reachable.filter((e) => batonHas(d.text, e.role, e.name)).length;
    domRows.push(
      `| ${f.path} | ${percentile(d.ms, 50).toFixed(1)} / ${percentile(d.ms, 95).toFixed(1)} | ${encode(d.text).length} | ${Math.round((100 * dFound) / reachable.length)}% | ${f.absent.filter((n) => batonPhantom(d.text, n)).length}/${f.absent.length} |`,
    );
    const bTokens = encode(b.text).length;
    const pTokens = encode(p.text).length;
    totals.bt += bTokens;
    totals.pt += pTokens;
    const recall = (has: (t: string, r: string, n: string) => boolean, text: string): string => {
      const found = f.expected.filter((e) => has(text, e.role, e.name)).length;
      return `${Math.round((100 * found) / f.expected.length)}%`;
    };
    const phantoms = (has: (t: string, n: string) => boolean, text: string): number => f.absent.filter((n) => has(text, n)).length;
    const bp50 = percentile(b.ms, 50);
    const pp50 = percentile(p.ms, 50);
    if (f.typical) typical.push({ ratio: bp50 / pp50, bTokens, pTokens, bp50 });
    rows.push(
      `| ${f.path}${f.path === "/big" ? " (5k nodes)" : ""} | ${bp50.toFixed(1)} / ${percentile(b.ms, 95).toFixed(1)} | ${pp50.toFixed(1)} / ${percentile(p.ms, 95).toFixed(1)} | ${(bp50 / pp50).toFixed(2)} | ${bTokens} | ${pTokens} | ${(bTokens / pTokens).toFixed(2)} | ${recall(batonHas, b.text)} | ${recall(playwrightHas, p.text)} | ${phantoms(batonPhantom, b.text)}/${f.absent.length} | ${phantoms(playwrightPhantom, p.text)}/${f.absent.length} |`,
    );
  }
  rows.push("", `Total tokens: Baton ${totals.bt}, Playwright ${totals.pt} (ratio ${(totals.bt / totals.pt).toFixed(2)}). ${runs} timed runs per page after 2 warm-ups; viewport ${viewport.width}×${viewport.height}; Chromium with --site-per-process.`);
  if (typical.length) {
    const bt = typical.reduce((n, t) => n + t.bTokens, 0);
    const pt = typical.reduce((n, t) => n + t.pTokens, 0);
    rows.push(
      "",
      `Typical pages (${typical.length}): median time ratio ${median(typical.map((t) => t.ratio)).toFixed(2)}, total token ratio ${(bt / pt).toFixed(2)} (Baton ${bt}, Playwright ${pt}), Baton p50 ${typical.map((t) => t.bp50.toFixed(1)).join(" / ")} ms.`,
    );
  }
  rows.push("", "DOM fallback (page-injected agent, same text format; cross-origin frame contents are out of its reach):", "", ...domRows);
  if (apps.length) {
    const sum = (k: keyof (typeof apps)[number]): number => apps.reduce((n, a) => n + a[k], 0);
    rows.push(
      "",
      "App-like pages: targets derived from the live page (fixtures/ground-truth.ts); clicks: Baton refs whose click reached the handler of the element named.",
      "",
      ...appRows,
      "",
      `App-like pages (${apps.length}): total token ratio ${(sum("bTokens") / sum("pTokens")).toFixed(2)} (Baton ${sum("bTokens")}, Playwright ${sum("pTokens")}; target ≤ 0.35), median time ratio ${median(apps.map((a) => a.ratio)).toFixed(2)} (target ≤ 1.0), max ${Math.max(...apps.map((a) => a.ratio)).toFixed(2)}; recall ${sum("found")}/${sum("targets")}, phantoms ${sum("phantoms")}; Playwright recall ${sum("pwFound")}/${sum("targets")}; clicks ${sum("clicks")}/${sum("refs")}.`,
    );
  }
  if (patterns.length) {
    const sum = (k: "bTokens" | "pTokens" | "pwControls" | "covered" | "pwNamed" | "batonRefs" | "batonNamed"): number => patterns.reduce((n, a) => n + a[k], 0);
    const pct = (n: number, d: number): string => `${d ? ((100 * n) / d).toFixed(1) : "100.0"}%`;
    rows.push(
      "",
      "Pages built like real apps (Fixture.patterns), side by side with Playwright's AI snapshot: Playwright's controls (a control role or a pointer cursor) that have a Baton ref; useful names (not empty, not a class-word guess) among each side's controls.",
      "",
      "| page | time ratio | Baton tokens | PW tokens | token ratio | PW controls with a Baton ref | Baton useful names | PW useful names |",
      `|${"---|".repeat(8)}`,
      ...patterns.map(
        (a) =>
          `| ${a.path} | ${a.ratio.toFixed(2)} | ${a.bTokens} | ${a.pTokens} | ${(a.bTokens / a.pTokens).toFixed(2)} | ${a.covered}/${a.pwControls} | ${a.batonNamed}/${a.batonRefs} | ${a.pwNamed}/${a.pwControls} |`,
      ),
      "",
      `Pages built like real apps (${patterns.length}): Playwright's controls with a Baton ref ${sum("covered")}/${sum("pwControls")}; useful names Baton ${pct(sum("batonNamed"), sum("batonRefs"))} (${sum("batonNamed")}/${sum("batonRefs")}), Playwright ${pct(sum("pwNamed"), sum("pwControls"))} (${sum("pwNamed")}/${sum("pwControls")}); total token ratio ${(sum("bTokens") / sum("pTokens")).toFixed(2)} (target ≤ 0.35); median time ratio ${median(patterns.map((a) => a.ratio)).toFixed(2)} (target ≤ 1.0), max ${Math.max(...patterns.map((a) => a.ratio)).toFixed(2)}.`,
    );
  }
  process.stdout.write(`${rows.join("\n")}\n`);
} finally {
  await pw.close().catch(() => undefined);
  await transport.close().catch(() => undefined);
  await browser.close();
  await server.close();
}
