/**
 * `npm run bench:console`: what the web console costs a browser on first load.
 *
 * 1. First-load size: the console is built and served by a real backend (`startBackend` with
 *    `console: true`); the page and every file it references are fetched over HTTP with
 *    `accept-encoding: gzip`, and the bytes on the wire are added up (raw sizes beside them).
 * 2. Time to interactive: headless Chromium, signed in with a one-time link, opens
 *    `/sessions` (20 finished sessions in the store) `BENCH_RUNS` times (default 15, the first
 *    not counted) with the HTTP cache disabled, so every load is a first load: navigation start
 *    to the `baton:interactive` mark (the list rendered with its data, after the page's two
 *    RPCs). Then the signed-out page the same way (no RPC but the account check).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService } from "@baton/gen/baton/v1/agent_pb";
import { type Engine } from "@baton/sdk/engine";
import { launchChromium, openPage, WebSocketTransport } from "@baton/sdk/node";
import { createModelResolver } from "@baton/backend/providers";
import { startBackend } from "@baton/backend/server";
import { createSignInCode, makeAdmin, ensureUser, issueToken } from "@baton/backend/store";
import { pct } from "./harness.js";

const runs = Number(process.env.BENCH_RUNS ?? 15);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The page and the files it references (scripts, styles, icons), fetched as a browser would: gzip on the wire. */
async function firstLoadSize(url: string): Promise<void> {
  console.log("## First load (over HTTP, accept-encoding: gzip)\n");
  const fetchOne = async (path: string) => {
    const r = await fetch(`${url}${path}`, { headers: { "accept-encoding": "gzip" } });
    if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
    const wire = Number(r.headers.get("content-length"));
    const body = await r.text(); // fetch decodes gzip
    return { path, wire, raw: Buffer.byteLength(body), encoding: r.headers.get("content-encoding") ?? "none", body };
  };
  const page = await fetchOne("/sessions");
  const refs = [...page.body.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] ?? "");
  const files = [page, ...(await Promise.all(refs.map(fetchOne)))];
  for (const f of files) console.log(`${f.path.padEnd(40)} ${kb(f.raw).padStart(9)} raw ${kb(f.wire).padStart(9)} on the wire (${f.encoding})`);
  const total = files.reduce((n, f) => n + f.wire, 0);
  const raw = files.reduce((n, f) => n + f.raw, 0);
  console.log(`${"total".padEnd(40)} ${kb(raw).padStart(9)} raw ${kb(total).padStart(9)} on the wire, in ${files.length} requests`);
}

/**
 * Opens `url` with the cache off, `runs + 1` times; the time from navigation start to the
 * interactive mark. `shown` must hold on the page at that moment (the page really rendered).
 */
async function timeToInteractive(engine: Engine, url: string, what: string, shown: string): Promise<void> {
  const times: number[] = [];
  const dcl: number[] = [];
  const rpc: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    // A blank page between loads, so each load starts a fresh document and performance timeline.
    await engine.page.send("Page.navigate", { url: "about:blank" });
    await sleep(50);
    await engine.page.send("Page.navigate", { url });
    const end = Date.now() + 20_000;
    let ms: number | undefined;
    while (ms === undefined) {
      if (Date.now() > end) throw new Error(`${what}: no interactive mark within 20 s`);
      await sleep(10);
      const r = await engine.page
        .send<{ result: { value?: number } }>("Runtime.evaluate", {
          expression: `location.href === ${JSON.stringify(url)} ? performance.getEntriesByName("baton:interactive")[0]?.startTime : undefined`,
          returnByValue: true,
        })
        .catch(() => undefined);
      ms = r?.result.value;
    }
    const ok = await engine.page.send<{ result: { value?: boolean } }>("Runtime.evaluate", { expression: shown, returnByValue: true });
    if (ok.result.value !== true) throw new Error(`${what}: interactive, but the page does not show what it should (${shown})`);
    // Where the time went: the script parsed and run (DOMContentLoaded waits for module scripts), and the RPCs.
    const parts = await engine.page.send<{ result: { value?: [number, number] } }>("Runtime.evaluate", {
      expression: `[performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd, Math.max(0, ...performance.getEntriesByType("resource").filter((e) => e.name.includes("/baton.v1.")).map((e) => e.responseEnd))]`,
      returnByValue: true,
    });
    if (i > 0) {
      times.push(ms);
      dcl.push(parts.result.value?.[0] ?? Number.NaN);
      rpc.push(parts.result.value?.[1] ?? Number.NaN);
    }
  }
  for (const xs of [times, dcl, rpc]) xs.sort((a, b) => a - b);
  console.log(`${what.padEnd(36)} p50 ${pct(times, 50).toFixed(0)} ms, p90 ${pct(times, 90).toFixed(0)} ms, min ${times[0]?.toFixed(0)} ms (${runs} loads, the first not counted)`);
  console.log(`${"".padEnd(36)} of which script run (DOMContentLoaded) p50 ${pct(dcl, 50).toFixed(0)} ms, last RPC answered p50 ${pct(rpc, 50).toFixed(0)} ms`);
}

const scripts = mkdtempSync(join(tmpdir(), "baton-console-bench-"));
writeFileSync(join(scripts, "done.json"), JSON.stringify({ turns: [{ text: "<goal>Look up an order</goal>", calls: [{ name: "done", args: { answer: "Shipped." } }], usage: { input: 1800, output: 40 } }], loopFrom: 0 }));
const backend = await startBackend({ port: 0, resolveModel: createModelResolver({ ...process.env, BATON_SCRIPT_DIR: scripts }), defaultModel: "script:done.json", console: true });
const browser = await launchChromium();
try {
  const url = backend.server.url;
  await ensureUser(backend.db, "local", "Ada Lovelace");
  await makeAdmin(backend.db, "local");
  // Twenty finished sessions, so the list has rows to render.
  const { token } = await issueToken(backend.db, "local", { name: "bench", source: "console" });
  const agent = createClient(
    AgentService,
    createConnectTransport({
      baseUrl: url,
      httpVersion: "1.1",
      interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${token}`), next(req))],
    }),
  );
  for (let i = 0; i < 20; i++) {
    const { session } = await agent.createSession({ task: `Check the status of order #${1040 + i}` });
    await agent.step({ sessionId: session?.id ?? "" });
  }
  console.log(`Console benchmark: ${url} (load average ${(await import("node:os")).loadavg().map((l) => l.toFixed(1)).join(" ")})\n`);
  await firstLoadSize(url);

  console.log("\n## Time to interactive (headless Chromium, HTTP cache disabled: every load a first load)\n");
  const transport = await WebSocketTransport.connect(browser.wsEndpoint);
  const engine = await openPage(transport, { viewport: { width: 1360, height: 860 } });
  await engine.page.send("Network.enable", {});
  await engine.page.send("Network.setCacheDisabled", { cacheDisabled: true });
  await timeToInteractive(engine, `${url}/sessions`, "signed out: /sessions → sign-in page", `document.body.innerText.includes("Sign in to Baton")`);
  const { code } = await createSignInCode(backend.db, "local", 60_000);
  await engine.page.send("Page.navigate", { url: `${url}/sign-in#${code}` });
  // The link signs in on a click on its page's button.
  for (let i = 0; ; i++) {
    const r = await engine.page.send<{ result: { value?: boolean } }>("Runtime.evaluate", {
      expression: `(() => { const b = document.querySelector(".sign-in-card button.primary"); b?.click(); return !!b; })()`,
      returnByValue: true,
    });
    if (r.result.value) break;
    if (i > 400) throw new Error("the sign-in page showed no button");
    await sleep(50);
  }
  for (let i = 0; ; i++) {
    const r = await engine.page.send<{ result: { value?: string } }>("Runtime.evaluate", { expression: "location.pathname", returnByValue: true }).catch(() => undefined);
    if (r?.result.value === "/sessions") break;
    if (i > 400) throw new Error("the sign-in link did not sign in");
    await sleep(50);
  }
  await timeToInteractive(engine, `${url}/sessions`, "signed in: /sessions with 20 rows", `document.querySelectorAll("table.table tbody tr").length === 20`);
  await transport.close();
} finally {
  await browser.close();
  await backend.close();
  rmSync(scripts, { recursive: true, force: true });
}
