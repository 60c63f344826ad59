/**
 * Where a navigate call's time goes: wraps the transport, navigates a fixture page through the
 * engine's tool several times (alternating with about:blank, as a model moves between pages),
 * prints every CDP command and page lifecycle event of the last call with its time (ms since the
 * call began), then p50 of the whole call and of its load event.
 *
 *   npx tsx sdk/bench/profile-navigate.ts [/path] [--runs N]
 */
import type { CdpEvent } from "../src/cdp/transport.js";
import { engineHandlers } from "../src/engine/handlers.js";
import { startFixtureServer } from "../src/engine/fixtures/server.js";
import { launchChromium } from "../src/node/launch-chromium.js";
import { openPage } from "../src/node/open-page.js";
import { WebSocketTransport } from "../src/node/ws-transport.js";
import { Recording } from "./recording-transport.js";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1]! : fallback;
};
const runs = Number(opt("--runs", "15"));
const path = args[0] ?? "/shop";

const server = await startFixtureServer();
const browser = await launchChromium({ args: ["--site-per-process"] });
const ws = await WebSocketTransport.connect(browser.wsEndpoint);
const rec = new Recording(ws);
const events: { at: number; label: string }[] = [];
rec.onEvent((e: CdpEvent) => {
  if (e.method === "Page.loadEventFired" || e.method === "Page.domContentEventFired" || e.method === "Page.frameStartedLoading" || e.method === "Page.frameStoppedLoading") {
    events.push({ at: performance.now(), label: `event ${e.method}` });
  }
});
try {
  const engine = await openPage(rec, { viewport: { width: 1280, height: 800 } });
  const tools = engineHandlers(engine);
  const totals: number[] = [];
  const loads: number[] = [];
  let t0 = 0;
  for (let i = 0; i < runs; i++) {
    await tools.navigate({ url: `${server.originB}/` } as never, undefined);
    rec.calls = [];
    events.length = 0;
    t0 = performance.now();
    await tools.navigate({ url: server.originA + path } as never, undefined);
    totals.push(performance.now() - t0);
    const load = events.find((e) => e.label.endsWith("loadEventFired"));
    if (load) loads.push(load.at - t0);
  }
  const lines = [
    ...rec.calls.map((c) => ({ at: c.start, text: `${(c.start - t0).toFixed(2).padStart(7)} → ${(c.end - t0).toFixed(2).padStart(7)}  ${c.method}` })),
    ...events.map((e) => ({ at: e.at, text: `${(e.at - t0).toFixed(2).padStart(7)}            ${e.label}` })),
  ].sort((a, b) => a.at - b.at);
  for (const l of lines) process.stdout.write(`  ${l.text}\n`);
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  process.stdout.write(`\n${path}: navigate p50 ${med(totals).toFixed(1)} ms (min ${Math.min(...totals).toFixed(1)}) over ${runs}; load event at p50 ${med(loads).toFixed(1)} ms\n`);
} finally {
  await ws.close().catch(() => undefined);
  await browser.close();
  await server.close();
}
