/**
 * Frames of sites the policy refuses are painted over in every screenshot the engine hands out
 * (real headless Chromium): a shop page, open before the engine took it, holds two frames of a
 * blocked bank — one in the page's own process, one out of process. The snapshot leaves their
 * text out; each kind of screenshot is decoded and the pixels of both frames must be the paint,
 * while the shop's own button is not, and a capture without the policy shows the bank there.
 */
import { create } from "@bufbuild/protobuf";
import { ScreenshotParamsSchema, TakeSnapshotParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSite, type TestSite } from "../../../testing/test-site.js";
import { ToolErrorCode, ToolFailure } from "../../contract/index.js";
import { launchChromium, type LaunchedChromium } from "../../node/launch-chromium.js";
import { WebSocketTransport } from "../../node/ws-transport.js";
import { sitePolicyFromObject } from "../../policy/site-policy.js";
import { invocation } from "../base/page-function.js";
import { Engine } from "../engine.js";
import { type EngineHandlers, engineHandlers } from "../handlers.js";
import { captureJpeg } from "../snapshot/screenshot.js";
import { paintShareExpression, type ShareBox } from "./paint-share.js";

let chromium: LaunchedChromium;
let transport: WebSocketTransport;
let bank: TestSite;
let bankElsewhere: TestSite;
let shop: TestSite;
let engine: Engine;
let tools: EngineHandlers;
const account = `<!doctype html><style>body{margin:0;background:#2e7d32;color:#fff;font:20px sans-serif}</style><h1>Balance: 1,024.00</h1>`;

beforeAll(async () => {
  bank = await startTestSite({ "/": account });
  // Another site (localhost, not 127.0.0.1): its frame runs in a process of its own.
  bankElsewhere = await startTestSite({ "/": account }, "localhost");
  shop = await startTestSite({
    // A page that takes away whatever is added to its root (as some frameworks re-render it).
    "/hostile": `<!doctype html><h1>Shop</h1><iframe src="${bank.origin}/" width="400" height="120"></iframe>
      <script>new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach((n) => n.nodeType === 1 && n.remove()))).observe(document.documentElement, { childList: true });</script>`,
    "/": `<!doctype html><style>body{margin:16px;font:16px sans-serif}iframe{display:block;border:0;margin:8px 0}button{font:20px sans-serif;padding:12px}</style>
      <h1>Shop</h1><button style="background:#fff">Buy</button>
      <iframe id="near" src="${bank.origin}/" width="400" height="120"></iframe>
      <iframe id="far" src="${bankElsewhere.origin}/" width="400" height="120"></iframe>`,
  });
  chromium = await launchChromium({ args: ["--site-per-process"] });
  transport = await WebSocketTransport.connect(chromium.wsEndpoint);
  // As the tab an extension task starts in: loaded before any policy held it.
  const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", { url: `${shop.origin}/` });
  engine = await Engine.attach(transport, targetId, { urlPolicy: sitePolicyFromObject({ blocked: [bank.origin, bankElsewhere.origin] }, "your settings") });
  tools = engineHandlers(engine);
  for (let i = 0; i < 50 && !(await framesDrawn()); i++) await new Promise((r) => setTimeout(r, 100));
});

afterAll(async () => {
  engine?.dispose();
  await transport?.close().catch(() => undefined);
  await chromium?.close();
  await Promise.all([bank?.close(), bankElsewhere?.close(), shop?.close()]);
});

async function framesDrawn(): Promise<boolean> {
  const sessions = [...engine.page.frames.values()].filter((f) => f.url.startsWith(bankElsewhere.origin) || f.url.startsWith(bank.origin));
  return sessions.length === 2 && [...engine.page.sessions.values()].some((s) => s.parentId !== undefined);
}

function boxOf(selector: string): ShareBox | null {
  const r = document.querySelector(selector)?.getBoundingClientRect();
  return r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
}

async function box(selector: string): Promise<ShareBox> {
  const r = await engine.page.send<{ result: { value: ShareBox | null } }>("Runtime.evaluate", { expression: invocation(boxOf, selector), returnByValue: true });
  if (!r.result.value) throw new Error(`no ${selector}`);
  const b = r.result.value;
  // Inside by a few pixels: JPEG blurs the paint's edge.
  return { x: b.x + 4, y: b.y + 4, width: b.width - 8, height: b.height - 8 };
}

/** The share of each box's pixels that are the paint, decoded by Chromium in the page itself. */
async function shares(image: { mimeType?: string; data?: Uint8Array } | undefined, boxes: readonly ShareBox[]): Promise<number[]> {
  if (!image?.data) throw new Error("no image");
  const src = `data:${image.mimeType};base64,${Buffer.from(image.data).toString("base64")}`;
  const r = await engine.page.send<{ result: { value: number[] } }>("Runtime.evaluate", { expression: paintShareExpression(src, boxes), awaitPromise: true, returnByValue: true });
  return r.result.value;
}

describe("frames of refused sites in screenshots", { timeout: 120_000 }, () => {
  it("are not in the snapshot's text", async () => {
    const text = String((await tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}))).text);
    expect(text.match(/\[refused by the site policy: not read\]/g)).toHaveLength(2);
    expect(text).not.toContain("1,024.00");
  });

  it("show the bank in a capture without the policy (the check can fail)", async () => {
    const got = await shares(await captureJpeg(engine.page), [await box("#near"), await box("#far")]);
    for (const s of got) expect(s).toBeLessThan(0.2);
  });

  it.each([
    ["the screenshot tool", () => tools.screenshot(create(ScreenshotParamsSchema, {})).then((r) => r.image)],
    ["a labelled screenshot", () => tools.screenshot(create(ScreenshotParamsSchema, { labelRefs: true })).then((r) => r.image)],
    ["a full-page screenshot", () => tools.screenshot(create(ScreenshotParamsSchema, { fullPage: true })).then((r) => r.image)],
    ["take_snapshot's screenshot", () => tools.takeSnapshot(create(TakeSnapshotParamsSchema, { includeScreenshot: true })).then((r) => r.screenshot)],
  ])("%s paints over both frames and nothing of the shop", async (_what, shot) => {
    const image = await shot();
    const [near, far, buy] = await shares(image, [await box("#near"), await box("#far"), await box("button")]);
    expect(near).toBeGreaterThan(0.95);
    expect(far).toBeGreaterThan(0.95);
    expect(buy).toBeLessThan(0.1);
  });

  it("go by the document the snapshot read when a frame's recorded URL lags it", async () => {
    const frames = [...engine.page.frames.values()].filter((f) => f.url.startsWith(bank.origin) || f.url.startsWith(bankElsewhere.origin));
    expect(frames).toHaveLength(2);
    const urls = frames.map((f) => f.url);
    try {
      for (const f of frames) f.url = "about:blank";
      const image = (await tools.screenshot(create(ScreenshotParamsSchema, {}))).image;
      const [near, far] = await shares(image, [await box("#near"), await box("#far")]);
      expect(near).toBeGreaterThan(0.95);
      expect(far).toBeGreaterThan(0.95);
    } finally {
      frames.forEach((f, i) => (f.url = urls[i]!));
    }
  });

  it("leaves no paint behind", async () => {
    const got = await shares(await captureJpeg(engine.page), [await box("#near"), await box("#far")]);
    for (const s of got) expect(s).toBeLessThan(0.2);
  });

  // Last: the second tab hides the first.
  it("withholds the screenshot when the page takes the paint away", async () => {
    const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", { url: `${shop.origin}/hostile` });
    const hostile = await Engine.attach(transport, targetId, { urlPolicy: sitePolicyFromObject({ blocked: [bank.origin] }, "your settings") });
    try {
      for (let i = 0; i < 50 && ![...hostile.page.frames.values()].some((f) => f.url.startsWith(bank.origin)); i++) await new Promise((r) => setTimeout(r, 100));
      const refused = await engineHandlers(hostile)
        .screenshot(create(ScreenshotParamsSchema, {}))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(refused).toBeInstanceOf(ToolFailure);
      expect((refused as ToolFailure).code).toBe(ToolErrorCode.PERMISSION_DENIED);
      expect((refused as ToolFailure).message).toContain("The screenshot was withheld: a frame of a site the policy refuses could not be covered");
    } finally {
      hostile.dispose();
      await transport.send("Target.closeTarget", { targetId }).catch(() => undefined);
    }
  });
});
