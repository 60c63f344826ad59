import { invocation } from "../base/page-function.js";
import { maskColour } from "./paint.js";

/** A box in an image's CSS pixels (the top-level viewport at the time of the capture). */
export interface ShareBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * For each box, the share (0–1) of the image's pixels inside it (a 2-pixel margin left out, for
 * the edges JPEG blurs) that are the colour `rgb` within `tolerance` per channel; `scale` is
 * image pixels per CSS pixel. Decodes the image with the browser's own decoder, so it runs in
 * any page (runs in the page; a check of screenshots, by the tests and `baton eval`).
 */
export async function paintShare(
  src: string,
  boxes: readonly ShareBox[],
  rgb: readonly [number, number, number],
  tolerance: number,
  scale: number,
): Promise<number[]> {
  const img = new Image();
  img.src = src;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const g = canvas.getContext("2d", { willReadFrequently: true });
  if (!g) return boxes.map(() => 0);
  g.drawImage(img, 0, 0);
  return boxes.map((b) => {
    const x0 = Math.max(0, Math.ceil((b.x + 2) * scale));
    const y0 = Math.max(0, Math.ceil((b.y + 2) * scale));
    const x1 = Math.min(canvas.width, Math.floor((b.x + b.width - 2) * scale));
    const y1 = Math.min(canvas.height, Math.floor((b.y + b.height - 2) * scale));
    if (x1 <= x0 || y1 <= y0) return 0;
    const d = g.getImageData(x0, y0, x1 - x0, y1 - y0).data;
    let hits = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i]! - rgb[0]) <= tolerance && Math.abs(d[i + 1]! - rgb[1]) <= tolerance && Math.abs(d[i + 2]! - rgb[2]) <= tolerance) hits++;
    }
    return hits / (d.length / 4);
  });
}

/**
 * An expression for `Runtime.evaluate` (with `awaitPromise`) in any page that resolves to
 * {@link paintShare}'s shares of `boxes` in the image at `src` (a data URL): by default, of the
 * paint secrets are covered with, within a tolerance JPEG's blur at the default quality stays in.
 */
export function paintShareExpression(src: string, boxes: readonly ShareBox[], rgb: readonly [number, number, number] = [maskColour.r, maskColour.g, maskColour.b], tolerance = 14, scale = 1): string {
  return invocation(paintShare, src, boxes, rgb, tolerance, scale);
}
