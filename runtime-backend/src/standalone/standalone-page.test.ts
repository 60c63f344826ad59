/**
 * The loop, the providers and the store face in a browser page: `testing/standalone-page.ts`
 * bundled with esbuild (no Node built-ins: the build fails if one is reached) and opened in
 * headless Chromium, with PGlite on IndexedDB. Runs the store suite there (the assertions of
 * `store.test.ts`, shared: `testing/store-suite.ts`) and a session against a fake
 * OpenAI-compatible server on 127.0.0.1, closed mid-model-call and resumed in a new page.
 */
import { copyFileSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { launchChromium, type LaunchedChromium, WebSocketTransport } from "@baton/sdk/node";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatWire, FakeLlmServer } from "../testing/fake-llm-server.js";
import { tempDirs } from "../testing/temp-dirs.js";
import type { PageReport } from "../testing/standalone-page.js";

const dirs = tempDirs("baton-standalone-page-");
const dir = dirs.fresh();
let server: http.Server;
let origin = "";
let chromium: LaunchedChromium;
let cdp: WebSocketTransport;
const llm = new FakeLlmServer(chatWire, undefined, { cors: true });

const types: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".data": "application/octet-stream" };

beforeAll(async () => {
  await build({
    entryPoints: [fileURLToPath(new URL("../testing/standalone-page.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2023",
    outfile: join(dir, "page.js"),
    logLevel: "error",
    // Modules that read the environment only when called in Node (a logger's level) still name it.
    define: { "process.env": "{}" },
    plugins: [
      {
        // Nothing of ours may reach a Node built-in; PGlite's own Node branches run only in Node.
        name: "no-node-built-ins",
        setup(b) {
          b.onResolve({ filter: /^node:/ }, (a) =>
            a.importer.includes("@electric-sql/pglite") ? { path: a.path, external: true } : { errors: [{ text: `${a.importer} imports ${a.path}, which a browser page does not have` }] },
          );
        },
      },
    ],
  });
  // PGlite fetches its WebAssembly and data next to the module that loads it.
  const pglite = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  for (const f of ["pglite.wasm", "pglite.data", "initdb.wasm"]) copyFileSync(join(pglite, f), join(dir, f));
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const file = path === "/" ? "index.html" : path.slice(1);
    try {
      const body = file === "index.html" ? '<!doctype html><meta charset="utf-8"><title>baton standalone</title><script type="module" src="page.js"></script>' : readFileSync(join(dir, file));
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await llm.start();
  chromium = await launchChromium();
  cdp = await WebSocketTransport.connect(chromium.wsEndpoint);
}, 120_000);

afterAll(async () => {
  await cdp?.close().catch(() => undefined);
  await chromium?.close();
  await llm.stop();
  server?.close();
  dirs.removeAll();
});

/** Opens a tab at `query`; returns a reader of its report and a way to close the tab. */
async function open(query: string) {
  const { targetId } = await cdp.send<{ targetId: string }>("Target.createTarget", { url: `${origin}/?${query}` });
  const { sessionId } = await cdp.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
  const read = async (): Promise<PageReport | undefined> => {
    const r = await cdp.send<{ result: { value?: PageReport } }>("Runtime.evaluate", { expression: "globalThis.batonPage", returnByValue: true }, sessionId);
    return r.result.value;
  };
  const until = async (ok: (r: PageReport) => boolean, ms: number): Promise<PageReport> => {
    const end = Date.now() + ms;
    for (;;) {
      const r = await read();
      if (r && ok(r)) return r;
      if (Date.now() > end) throw new Error(`the page did not get there in ${ms} ms: ${JSON.stringify(r)}`);
      await new Promise((res) => setTimeout(res, 200));
    }
  };
  return { until, close: () => cdp.send("Target.closeTarget", { targetId }) };
}

const navigate = (i: number) => ({ kind: "calls" as const, calls: [{ name: "navigate", args: JSON.stringify({ url: `https://example.com/${i}` }) }] });

describe("the agent loop in a browser page (PGlite on IndexedDB)", () => {
  it("passes the store suite", async () => {
    const page = await open("run=suite");
    const r = await page.until((x) => x.done, 240_000);
    await page.close();
    expect(r.error).toBeUndefined();
    expect(r.tests.filter((t) => !t.ok)).toEqual([]);
    expect(r.tests.length).toBeGreaterThanOrEqual(15);
  }, 300_000);

  it("runs a session against an OpenAI-compatible server, and resumes it in a new page after the first was closed mid-model-call", async () => {
    // Step 1 asks for a page; the model call that answers its result never returns.
    llm.script(navigate(1), { kind: "hang" });
    const first = await open(`run=session&llm=${encodeURIComponent(llm.url)}`);
    const started = await first.until((x) => x.sessionId !== undefined, 120_000);
    await expect.poll(() => llm.bodies.length, { timeout: 60_000 }).toBe(2);
    await first.close();

    llm.script(navigate(2), navigate(3), { kind: "calls", calls: [{ name: "done", args: JSON.stringify({ answer: "visited all three" }) }] });
    // The page checks what the SIGKILL test checks (testing/resume-checks.ts): every step once.
    const second = await open(`run=session&llm=${encodeURIComponent(llm.url)}&resume=${started.sessionId}&steps=3`);
    const r = await second.until((x) => x.done, 120_000);
    await second.close();
    expect(r.error, r.log.join("\n")).toBeUndefined();
    expect(r.session?.status).toBe(SessionStatus.COMPLETED);
    expect(r.session?.answer).toBe("visited all three");
    // The closed page's model call left nothing behind; the resumed one ran it.
    expect(r.session?.traceSteps).toEqual([1, 2, 3, 4]);
    expect(r.session?.entries.filter((e) => e === "agentMessage")).toHaveLength(4);
    expect(r.session?.entries.filter((e) => e === "toolResult")).toHaveLength(4);
    // The user's key went to the model server, and only there.
    expect(JSON.stringify(llm.bodies)).not.toContain("sk-user-own-key");
  }, 300_000);
});
