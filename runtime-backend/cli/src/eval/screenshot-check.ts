import { maskColour, paintShareExpression, type ShareBox } from "@baton/sdk/engine";
import type { PageProbe } from "@baton/sdk/script";

/**
 * How far (per channel, 0-255) a pixel may be from the paint and still count: the report's
 * screenshot is a half-size JPEG at a lower quality than the engine's, so its edges blur more.
 */
const tolerance = 40;
/** The share of a box's pixels that must be the paint. */
const minShare = 0.9;

interface Found {
  readonly selector: string;
  readonly boxes: ShareBox[];
}

/** Runs in the final page: the viewport boxes of the elements each selector matches. */
function boxesOf(selectors: string[]): Found[] {
  return selectors.map((selector) => ({
    selector,
    boxes: [...document.querySelectorAll(selector)].map((el) => {
      const r = el.getBoundingClientRect();
      return { x: r.left, y: r.top, width: r.width, height: r.height };
    }),
  }));
}

/**
 * Whether the boxes of the elements matching `selectors` are painted over in the report's
 * screenshot of the final page (the visible part at half size): what is wrong, empty when they
 * are. The page measures its own layout and decodes the image (`paintShareExpression`), so the
 * check needs no image library.
 */
export async function unpaintedBoxes(page: PageProbe, screenshot: string, selectors: readonly string[]): Promise<string[]> {
  const found = (await page.evaluate(`(${boxesOf.toString()})(${JSON.stringify(selectors)})`)) as Found[];
  const width = Number(await page.evaluate("visualViewport ? visualViewport.width : innerWidth"));
  const wrong: string[] = [];
  const boxes: { selector: string; box: ShareBox }[] = [];
  for (const f of found) {
    if (!f.boxes.length) wrong.push(`${f.selector}: no such element`);
    for (const box of f.boxes) boxes.push({ selector: f.selector, box });
  }
  if (!boxes.length) return wrong;
  // The image's width over the viewport's: its pixels per CSS pixel.
  const imageWidth = Number(await page.evaluate(`(async () => { const i = new Image(); i.src = ${JSON.stringify(screenshot)}; await i.decode(); return i.naturalWidth; })()`));
  const rgb = [maskColour.r, maskColour.g, maskColour.b] as const;
  const shares = (await page.evaluate(paintShareExpression(screenshot, boxes.map((b) => b.box), rgb, tolerance, imageWidth / width))) as number[];
  boxes.forEach((b, i) => {
    const share = shares[i] ?? 0;
    if (share < minShare) wrong.push(`${b.selector}: ${Math.round(share * 100)}% of its box is painted over`);
  });
  return wrong;
}
