/**
 * Where a snapshot's time goes: wraps the transport, takes snapshots of fixture pages, and prints
 * every CDP command of the last one with its start and end (ms since the snapshot began), how
 * many commands were in flight at once, and the critical path of serial waits.
 *
 *   npx tsx sdk/bench/profile-snapshot.ts [/path ...] [--runs N]
 */
import { fixtures } from "../src/engine/fixtures/pages.js";
import { startFixtureServer } from "../src/engine/fixtures/server.js";
import { launchChromium } from "../src/node/launch-chromium.js";
import { openPage } from "../src/node/open-page.js";
import { WebSocketTransport } from "../src/node/ws-transport.js";
import { type Call, Recording } from "./recording-transport.js";

const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 20;
const paths = args.filter((a, i) => a.startsWith("/") && i !== runsAt + 1);
const wanted = paths.length ? fixtures.filter((f) => paths.includes(f.path)) : fixtures;

const server = await startFixtureServer();
const browser = await launchChromium({ args: ["--site-per-process"] });
const ws = await WebSocketTransport.connect(browser.wsEndpoint);
const rec = new Recording(ws);
try {
  const engine = await openPage(rec, { viewport: { width: 1280, height: 800 }, reuseSnapshots: false });
  for (const f of wanted) {
    await engine.page.send("Page.navigate", { url: server.originA + f.path });
    await engine.evidence.after(engine.evidence.mark());
    const totals: number[] = [];
    let last: Call[] = [];
    let t0 = 0;
    let lastTotal = 0;
    for (let i = 0; i < runs; i++) {
      rec.calls = [];
      t0 = performance.now();
      await engine.snapshot({ maxChars: 200_000 });
      lastTotal = performance.now() - t0;
      totals.push(lastTotal);
      last = rec.calls;
    }
    totals.sort((a, b) => a - b);
    const p50 = totals[Math.floor(totals.length / 2)] ?? 0;
    const waves = new Set(last.map((c) => Math.round(c.start - t0)));
    process.stdout.write(
      `\n${f.path}: p50 ${p50.toFixed(1)} ms; last run ${lastTotal.toFixed(1)} ms, ${last.length} CDP commands, ~${waves.size} distinct send times\n`,
    );
    for (const c of last) {
      process.stdout.write(
        `  ${(c.start - t0).toFixed(2).padStart(7)} (sent ${((c.sent ?? 0) - t0).toFixed(2)}) → ${(c.end - t0).toFixed(2).padStart(7)}  ${c.method}  (${c.bytes} B)\n`,
      );
    }
  }
} finally {
  await ws.close().catch(() => undefined);
  await browser.close();
  await server.close();
}
