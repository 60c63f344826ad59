/**
 * Whole-tree vs viewport-first AX reads of the same snapshot, interleaved on the same page, so
 * machine load lands on both alike (the evidence behind `viewportFirst` in ax-read.ts):
 *
 *   npx tsx sdk/bench/ax-read-modes.ts [/shop /docs ...] [--runs N]
 */
import { startFixtureServer } from "../src/engine/fixtures/server.js";
import { launchChromium } from "../src/node/launch-chromium.js";
import { openPage } from "../src/node/open-page.js";
import { WebSocketTransport } from "../src/node/ws-transport.js";
import { takePageSnapshot } from "../src/engine/snapshot/snapshot.js";
const server = await startFixtureServer();
const browser = await launchChromium({ args: ["--site-per-process"] });
const ws = await WebSocketTransport.connect(browser.wsEndpoint);
const engine = await openPage(ws, { viewport: { width: 1280, height: 800 }, reuseSnapshots: false });
const p = engine.page;
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(1);
const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 20;
const paths = args.filter((a, i) => a.startsWith("/") && i !== runsAt + 1);
for (const path of paths.length ? paths : ["/shop", "/docs", "/app", "/big"]) {
  await p.send("Page.navigate", { url: server.originA + path });
  await engine.evidence.after(engine.evidence.mark());
  const t: Record<string, number[]> = { whole: [], viewport: [] };
  for (let i = 0; i < runs + 4; i++) {
    for (const mode of (i % 2 ? ["whole", "viewport"] : ["viewport", "whole"]) as ("whole" | "viewport")[]) {
      const t0 = performance.now();
      await takePageSnapshot(p, engine.refs, { axRead: mode });
      if (i >= 4) t[mode]!.push(performance.now() - t0);
    }
  }
  console.log(`${path}: p50 whole tree ${med(t.whole!)} ms, viewport-first ${med(t.viewport!)} ms (${runs} runs each, interleaved)`);
}
await ws.close();
await browser.close();
await server.close();
