/**
 * Secrets painted over in every screenshot the engine hands out, in real Chromium: a secret is
 * typed (through the secrets layer, as a run types it) into a plain text field of the top page
 * and into a field of an out-of-process frame; the top page echoes it in its own text, upper-
 * cased by CSS, spelled out one `<span>` per character, inside a popover (the top layer) and into the
 * frame, and the frame echoes its own field. Each kind of screenshot (the screenshot tool, with
 * ref labels, of one element, of the full page, and take_snapshot's) is decoded and the pixels
 * of every box that shows the secret must be the paint; a capture without the paint shows
 * something else there.
 */
import type { ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSite, type TestSite } from "../../../testing/test-site.js";
import type { RunContext } from "../../client/run-task.js";
import { withSecrets } from "../../client/secrets.js";
import { launchChromium, type LaunchedChromium } from "../../node/launch-chromium.js";
import { openPage } from "../../node/open-page.js";
import { WebSocketTransport } from "../../node/ws-transport.js";
import { engineProbe } from "../../script/engine-probe.js";
import { invocation } from "../base/page-function.js";
import type { Engine } from "../engine.js";
import { engineHandlers } from "../handlers.js";
import { maskColour } from "./paint.js";
import { paintShareExpression, type ShareBox } from "./paint-share.js";

const SECRET = "Tangerine-Walrus-42";

let top: TestSite;
let frame: TestSite;
let chromium: LaunchedChromium;
let transport: WebSocketTransport;
let engine: Engine;
let h: ClientToolHandlers<RunContext>;
const ctx: RunContext = { sessionId: "s", toolcallId: "t", signal: new AbortController().signal };

const framePage = `<!doctype html><title>Frame</title><style>body{font:16px sans-serif;margin:8px}input{font:16px monospace;width:260px}</style>
<label>Inner <input id="inner" autocomplete="off"></label><p id="relay">(waiting)</p><p id="innerEcho">(empty)</p>
<script>addEventListener("message", (e) => (relay.textContent = "Top says " + e.data)); inner.addEventListener("input", () => (innerEcho.textContent = "Inner has " + inner.value));</script>`;

const topPage = (frameUrl: string) => `<!doctype html><title>Mask</title>
<style>body{font:16px sans-serif;margin:16px}input{font:16px monospace;width:300px}p{margin:8px 0}iframe{border:0;display:block}[popover]{font:16px sans-serif}</style>
<label>Token <input id="plain" type="text" autocomplete="off"></label>
<p id="echo">(nothing yet)</p><p id="upper" style="text-transform:uppercase">(none)</p><p id="spelled">(none)</p>
<iframe id="f" src="${frameUrl}" width="600" height="170"></iframe>
<p>Some text that is no secret at all.</p>
<div id="pop" popover="manual" style="inset:auto;right:20px;bottom:20px;margin:0"><p id="popEcho">(closed)</p></div>
<script>
plain.addEventListener("input", () => {
  const v = plain.value;
  echo.textContent = "You typed " + v;
  upper.textContent = v.toLowerCase();
  spelled.innerHTML = [...v].map((c) => "<span>" + c + "</span>").join(" ");
  f.contentWindow.postMessage(v, "*");
  popEcho.textContent = "Confirm " + v;
  if (!pop.matches(":popover-open")) pop.showPopover();
});
</script>`;

beforeAll(async () => {
  frame = await startTestSite({ "/frame": framePage }, "localhost");
  top = await startTestSite({ "/page": topPage(`${frame.origin}/frame`) });
  chromium = await launchChromium({ args: ["--site-per-process"] });
  transport = await WebSocketTransport.connect(chromium.wsEndpoint);
  engine = await openPage(transport, { viewport: { width: 1000, height: 700 } });
  h = withSecrets({ ...engineHandlers<RunContext>(engine), askUser: async () => ({ answer: "" }) }, [{ name: "tok", value: SECRET }], engineProbe(engine));
});

afterAll(async () => {
  await transport?.close().catch(() => undefined);
  await chromium?.close();
  await top?.close();
  await frame?.close();
});

/** A page function: the viewport box of an element, or of its text when `text` is set. */
function boxOf(selector: string, text: boolean): ShareBox | null {
  const el = document.querySelector(selector);
  if (!el) return null;
  let r: DOMRect;
  if (text) {
    const range = document.createRange();
    range.selectNodeContents(el);
    r = range.getBoundingClientRect();
  } else r = el.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}

/** The box of `selector` in the top page, or in the out-of-process frame (lifted by the iframe's box: it has no border). */
async function box(selector: string, text: boolean, inFrame = false): Promise<ShareBox> {
  const session = inFrame ? [...engine.page.sessions.values()].find((s) => s.parentId !== undefined)?.id : engine.page.rootId;
  const r = await engine.page.send<{ result: { value: ShareBox | null } }>("Runtime.evaluate", { expression: invocation(boxOf, selector, text), returnByValue: true }, session);
  const b = r.result.value;
  if (!b) throw new Error(`no ${selector}`);
  if (!inFrame) return b;
  const f = await box("#f", false);
  return { x: b.x + f.x, y: b.y + f.y, width: b.width, height: b.height };
}

/**
 * The share of each box's pixels that are the paint, decoded by Chromium in the page itself
 * (detached elements: the page is not changed). A second tab would hide this one, and a hidden
 * tab paints no frames to capture.
 */
async function shares(image: { mimeType: string; data: Uint8Array }, boxes: readonly ShareBox[], colours: readonly (readonly [number, number, number])[] = [paint]): Promise<number[]> {
  const src = `data:${image.mimeType};base64,${Buffer.from(image.data).toString("base64")}`;
  const sum = boxes.map(() => 0);
  for (const rgb of colours) {
    const r = await engine.page.send<{ result: { value: number[] } }>("Runtime.evaluate", {
      expression: paintShareExpression(src, boxes, rgb),
      awaitPromise: true,
      returnByValue: true,
    });
    r.result.value.forEach((v, i) => (sum[i] = (sum[i] ?? 0) + v));
  }
  return sum;
}

const paint = [maskColour.r, maskColour.g, maskColour.b] as const;
/** The ref labels' colour: a label drawn over a painted box (in the top document, above a frame's paint) hides nothing. */
const label = [0xe5, 0x00, 0x6e] as const;

/** A box shrunk on every side: a label's 2-pixel frame and JPEG's blur at its edge are left out. */
const inner = (b: ShareBox, by = 3): ShareBox => ({ x: b.x + by, y: b.y + by, width: b.width - 2 * by, height: b.height - 2 * by });

async function refOf(name: string): Promise<string> {
  const snap = (await h.takeSnapshot({} as never, ctx)) as { text: string };
  const m = new RegExp(`(e\\d+) textbox "${name}"`).exec(snap.text);
  if (!m?.[1]) throw new Error(`no textbox ${name} in\n${snap.text}`);
  return m[1];
}

describe("secrets painted over in screenshots", { timeout: 120_000 }, () => {
  let echoBoxes: ShareBox[];
  let plain: ShareBox;

  it("types the secret into a plain text field and into a frame's field; the page echoes it in five places", async () => {
    await h.navigate({ url: `${top.origin}/page` } as never, ctx);
    await h.typeText({ ref: await refOf("Token"), text: "<secret>tok</secret>" } as never, ctx);
    await h.typeText({ ref: await refOf("Inner"), text: "<secret>tok</secret>" } as never, ctx);
    const text = await engineProbe(engine).text();
    expect(text).toContain(`You typed ${SECRET}`);
    plain = await box("#plain", false);
    echoBoxes = [
      await box("#echo", true),
      await box("#upper", true),
      await box("#spelled", true),
      await box("#popEcho", true),
      await box("#inner", false, true),
      await box("#relay", true, true),
      await box("#innerEcho", true, true),
    ];
  });

  it("an unpainted capture shows the page there (the check can fail)", async () => {
    const { data } = await engine.page.send<{ data: string }>("Page.captureScreenshot", { format: "png" });
    const got = await shares({ mimeType: "image/png", data: Buffer.from(data, "base64") }, [plain, ...echoBoxes]);
    for (const s of got) expect(s).toBeLessThan(0.5);
  });

  it.each([
    ["the screenshot tool", {}],
    ["the screenshot tool with ref labels", { labelRefs: true }],
    ["the screenshot tool, full page", { fullPage: true }],
  ])("%s paints every box that shows the secret, and nothing else", async (_what, params) => {
    const r = (await h.screenshot(params as never, ctx)) as { image: { mimeType: string; data: Uint8Array; url?: string } };
    expect(r.image.url ?? "").not.toMatch(/withheld/);
    expect(r.image.data.length).toBeGreaterThan(1000);
    const got = await shares(r.image, [plain, ...echoBoxes].map((b) => inner(b)), [paint, label]);
    for (const [i, s] of got.entries()) expect(s, `box ${i}`).toBeGreaterThan(0.95);
    // Text that is no secret is left as it is.
    const clean = await box("body > p:nth-of-type(4)", true);
    expect((await shares(r.image, [clean]))[0]).toBeLessThan(0.3);
  });

  it("take_snapshot's labelled screenshot paints them too", async () => {
    const r = (await h.takeSnapshot({ includeScreenshot: true } as never, ctx)) as { screenshot: { mimeType: string; data: Uint8Array } };
    expect(r.screenshot.data.length).toBeGreaterThan(1000);
    const got = await shares(r.screenshot, [plain, ...echoBoxes].map((b) => inner(b)), [paint, label]);
    for (const [i, s] of got.entries()) expect(s, `box ${i}`).toBeGreaterThan(0.95);
  });

  it("a screenshot of the field alone is painted", async () => {
    const ref = await refOf("Token");
    const r = (await h.screenshot({ ref } as never, ctx)) as { image: { mimeType: string; data: Uint8Array; width: number; height: number } };
    const got = await shares(r.image, [{ x: 0, y: 0, width: r.image.width, height: r.image.height }]);
    expect(got[0]).toBeGreaterThan(0.9);
  });

  it("leaves no paint behind in any frame", async () => {
    const text = await engineProbe(engine).text();
    expect(text).toContain(`You typed ${SECRET}`);
    const { data } = await engine.page.send<{ data: string }>("Page.captureScreenshot", { format: "png" });
    const got = await shares({ mimeType: "image/png", data: Buffer.from(data, "base64") }, [plain, ...echoBoxes]);
    for (const s of got) expect(s).toBeLessThan(0.5);
  });

  it("a handler that paints nothing is withheld by the layer", async () => {
    const raw = withSecrets(
      { ...engineHandlers<RunContext>(engine), screenshot: async () => ({ image: { mimeType: "image/png", data: Uint8Array.of(1, 2, 3) } }), askUser: async () => ({ answer: "" }) },
      [{ name: "tok", value: SECRET }],
      engineProbe(engine),
    );
    const r = (await raw.screenshot({} as never, ctx)) as { image: { data: Uint8Array; url: string } };
    expect(r.image.data.length).toBe(0);
    expect(r.image.url).toMatch(/^withheld/);
  });
});
