import { invocation } from "../base/page-function.js";
import { maskColour } from "./paint.js";
import { paintShare, type ShareBox } from "../in-page/paint.js";

export type { ShareBox };

/**
 * An expression for `Runtime.evaluate` (with `awaitPromise`) in any page that resolves to
 * {@link paintShare}'s shares of `boxes` in the image at `src` (a data URL): by default, of the
 * paint secrets are covered with, within a tolerance JPEG's blur at the default quality stays in.
 */
export function paintShareExpression(src: string, boxes: readonly ShareBox[], rgb: readonly [number, number, number] = [maskColour.r, maskColour.g, maskColour.b], tolerance = 14, scale = 1): string {
  return invocation(paintShare, src, boxes, rgb, tolerance, scale);
}
