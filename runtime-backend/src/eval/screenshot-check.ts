import { maskColour } from "@baton/sdk/engine";
import type { PageProbe } from "@baton/sdk/script";

/** How far (per channel, 0-255) a pixel of the report's JPEG may be from the paint and still count as painted. */
const tolerance = 40;

/**
 * Runs in the final page: draws the report's screenshot (a JPEG data URL of the visible part of
 * the page at half size) on a canvas and, for each element matching a selector, reads a grid of
 * points inside its box. Resolves to a list of what is wrong (empty when every box is painted).
 */
async function paintedBoxes(dataUrl: string, selectors: string[], paint: { r: number; g: number; b: number }, tol: number): Promise<string[]> {
  const img = new Image();
  img.src = dataUrl;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const g = canvas.getContext("2d");
  if (!g) return ["no 2d canvas to read the screenshot with"];
  g.drawImage(img, 0, 0);
  const scale = img.naturalWidth / (visualViewport?.width ?? innerWidth);
  const wrong: string[] = [];
  for (const sel of selectors) {
    const els = [...document.querySelectorAll(sel)];
    if (!els.length) wrong.push(`${sel}: no such element`);
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (r.width < 4 || r.height < 4 || r.bottom <= 0 || r.top >= innerHeight) {
        wrong.push(`${sel}: not on screen`);
        continue;
      }
      let unpainted = 0;
      let points = 0;
      for (const fx of [0.2, 0.5, 0.8]) {
        for (const fy of [0.3, 0.5, 0.7]) {
          const [pr = 0, pg = 0, pb = 0] = g.getImageData(Math.floor((r.left + r.width * fx) * scale), Math.floor((r.top + r.height * fy) * scale), 1, 1).data;
          points++;
          if (Math.abs(pr - paint.r) > tol || Math.abs(pg - paint.g) > tol || Math.abs(pb - paint.b) > tol) unpainted++;
        }
      }
      if (unpainted) wrong.push(`${sel}: ${unpainted} of ${points} points of its box are not painted over`);
    }
  }
  return wrong;
}

/**
 * Whether the boxes of the elements matching `selectors` are painted over in the report's
 * screenshot of the final page: what is wrong, empty when they are. The page itself decodes the
 * image, so the check needs no image library and measures the page's own layout.
 */
export async function unpaintedBoxes(page: PageProbe, screenshot: string, selectors: readonly string[]): Promise<string[]> {
  const paint = { r: maskColour.r, g: maskColour.g, b: maskColour.b };
  const out = await page.evaluate(`(${paintedBoxes.toString()})(${JSON.stringify(screenshot)}, ${JSON.stringify(selectors)}, ${JSON.stringify(paint)}, ${tolerance})`);
  return Array.isArray(out) ? out.map(String) : [`the page answered ${JSON.stringify(out)}`];
}
