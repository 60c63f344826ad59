/**
 * Pages that use Web Workers work through the engine as they do in a plain browser (real
 * headless Chromium, site-per-process, so the cross-site frame below is out of process): the
 * engine's auto-attach waits for the debugger on new targets, and a dedicated worker it left
 * paused would never answer.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema, NavigateParamsSchema, TakeSnapshotParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSite, type TestSite } from "../../../testing/test-site.js";
import { launchChromium, type LaunchedChromium } from "../../node/launch-chromium.js";
import { openPage } from "../../node/open-page.js";
import { WebSocketTransport } from "../../node/ws-transport.js";
import type { Engine } from "../engine.js";
import { type EngineHandlers, engineHandlers } from "../handlers.js";

const script = (body: string) => (_req: IncomingMessage, res: ServerResponse) =>
  void res.writeHead(200, { "content-type": "text/javascript", "cache-control": "no-store" }).end(body);

/** Adds a button naming the worker's answer, so the answer is a ref the snapshot lists. */
const show = `function show(text) { const b = document.createElement("button"); b.textContent = text; document.body.append(b); }`;

let browser: LaunchedChromium;
let transport: WebSocketTransport;
let site: TestSite;
beforeAll(async () => {
  browser = await launchChromium({ args: ["--site-per-process"] });
  transport = await WebSocketTransport.connect(browser.wsEndpoint);
  site = await startTestSite({
    "/on-click": `<!doctype html><title>Ask</title><body><button id="ask">Ask the worker</button><script>${show}
      const worker = new Worker("/double.js");
      worker.onmessage = (e) => show("Worker answered " + e.data);
      document.getElementById("ask").onclick = () => worker.postMessage(21);</script>`,
    "/at-load": `<!doctype html><title>Load</title><body><script>${show}
      const worker = new Worker("/double.js");
      worker.onmessage = (e) => show("Computed at load " + e.data);
      worker.postMessage(50);</script>`,
    "/module-and-nested": `<!doctype html><title>Nested</title><body><script>${show}
      const m = new Worker("/double.js", { type: "module" });
      m.onmessage = (e) => show("Module worker " + e.data);
      m.postMessage(4);
      const outer = new Worker("/outer.js");
      outer.onmessage = (e) => show("Nested worker " + e.data);</script>`,
    "/with-frame": (_req, res, self) =>
      void res
        .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
        .end(`<!doctype html><title>Host</title><h1>Host page</h1><iframe src="http://localhost:${self.port}/framed" width="400" height="200"></iframe>`),
    // Served to the frame as localhost: another site than 127.0.0.1, so an out-of-process frame.
    "/framed": `<!doctype html><title>Framed</title><body><script>${show}
      const worker = new Worker("/double.js");
      worker.onmessage = (e) => show("Frame worker " + e.data);
      worker.postMessage(8);</script>`,
    "/shared": `<!doctype html><title>Shared</title><body><script>${show}
      const shared = new SharedWorker("/shared.js");
      shared.port.onmessage = (e) => show("Shared worker " + e.data);
      shared.port.postMessage(5);</script>`,
    "/shared.js": script(`onconnect = (e) => { const port = e.ports[0]; port.onmessage = (m) => port.postMessage(m.data * 2); };`),
    "/double.js": script(`onmessage = (e) => postMessage(e.data * 2);`),
    "/outer.js": script(`const inner = new Worker("/double.js"); inner.onmessage = (e) => postMessage(e.data); inner.postMessage(3);`),
  });
});
afterAll(async () => {
  await transport?.close();
  await browser?.close();
  await site?.close();
});

async function withEngine(fn: (tools: EngineHandlers, engine: Engine) => Promise<void>): Promise<void> {
  const engine = await openPage(transport, {});
  try {
    await fn(engineHandlers(engine), engine);
  } finally {
    engine.dispose();
    await transport.send("Target.closeTarget", { targetId: engine.page.targetId }).catch(() => undefined);
  }
}

/** The snapshot's text. */
const snapshotText = async (tools: EngineHandlers) => (await tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined)).text ?? "";

/** The snapshot's text once it contains `want` (a worker answers within moments, not at once), or the last text after a few seconds. */
async function snapshotWith(tools: EngineHandlers, want: string): Promise<string> {
  let text = "";
  for (const until = Date.now() + 5000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    text = await snapshotText(tools);
    if (text.includes(want)) break;
  }
  return text;
}

describe("web workers in pages the engine drives", () => {
  it("a click posts to a dedicated worker and its answer is the click's evidence", async () => {
    await withEngine(async (tools) => {
      await tools.navigate(create(NavigateParamsSchema, { url: `${site.origin}/on-click` }), undefined);
      const before = await snapshotText(tools);
      const ask = /^\s*(e\d+) button "Ask the worker"/m.exec(before)?.[1];
      expect(ask, before).toBeDefined();
      const clicked = await tools.click(create(ClickParamsSchema, { ref: ask ?? "" }), undefined);
      // The settle after the click waits for the page's reaction: the worker's answer is it.
      const text = await snapshotText(tools);
      const added = clicked.evidence?.refsAdded ?? [];
      expect(added, text).toHaveLength(1);
      expect(text).toMatch(new RegExp(`${added[0] ?? "none"} button "Worker answered 42"`));
    });
  });

  it("a worker started at load renders its result in the snapshot", async () => {
    await withEngine(async (tools) => {
      await tools.navigate(create(NavigateParamsSchema, { url: `${site.origin}/at-load` }), undefined);
      expect(await snapshotWith(tools, "Computed at load 100")).toContain('button "Computed at load 100"');
    });
  });

  it("module workers and the workers a worker starts run too", async () => {
    await withEngine(async (tools) => {
      await tools.navigate(create(NavigateParamsSchema, { url: `${site.origin}/module-and-nested` }), undefined);
      const text = await snapshotWith(tools, "Nested worker 6");
      expect(text).toContain('button "Module worker 8"');
      expect(text).toContain('button "Nested worker 6"');
    });
  });

  it("a shared worker the page starts answers the page", async () => {
    await withEngine(async (tools) => {
      await tools.navigate(create(NavigateParamsSchema, { url: `${site.origin}/shared` }), undefined);
      expect(await snapshotWith(tools, "Shared worker 10")).toContain('button "Shared worker 10"');
    });
  });

  it("a worker inside an out-of-process iframe runs, and the frame's answer is in the snapshot", async () => {
    await withEngine(async (tools, engine) => {
      await tools.navigate(create(NavigateParamsSchema, { url: `${site.origin}/with-frame` }), undefined);
      const text = await snapshotWith(tools, "Frame worker 16");
      expect(text).toContain('button "Frame worker 16"');
      // The frame really is another process: the engine holds a session for it.
      expect([...engine.page.sessions.values()].some((s) => s.frameId)).toBe(true);
    });
  });
});
