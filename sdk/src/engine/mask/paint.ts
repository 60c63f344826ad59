import type { ScreenMask } from "../../contract/index.js";
import type { Rect } from "../base/coordinates.js";
import { invocation } from "../base/page-function.js";
import type { PageSession } from "../page/page-session.js";
import { type BoxPlace, type FrameBoxes, secretBoxes } from "./secret-boxes.js";
import { paintBoxes, paintHeld, removePaint } from "../in-page/paint.js";

/** The opaque colour secrets are painted with, as CSS and as the pixels a decoded image holds. */
export const maskColour = { css: "#202124", r: 0x20, g: 0x21, b: 0x24 } as const;

/** How far each box is grown on every side: glyphs (italics, descenders) may overhang their box. */
const pad = 2;

/** What a capture under the paint returned, and whether the paint held. */
export interface Painted<T> {
  readonly image: T;
  /**
   * Every box found was painted over before the capture and was still in place after it (true
   * when there was nothing to paint). False when the page could not be read or painted, or the
   * paint was gone by the end of the capture: the image may then show a secret.
   */
  readonly painted: boolean;
}

/** One frame's paint, in the frame's isolated world (page scripts cannot reach it). */
interface FramePaint {
  readonly frame: FrameBoxes;
  readonly contextId: number;
}

function grown(b: Rect): [number, number, number, number] {
  return [Math.floor(b.x - pad), Math.floor(b.y - pad), Math.ceil(b.width + 2 * pad), Math.ceil(b.height + 2 * pad)];
}

async function evaluate(page: PageSession, p: FramePaint, expression: string): Promise<unknown> {
  const r = await page.send<{ result: { value?: unknown }; exceptionDetails?: unknown }>(
    "Runtime.evaluate",
    { expression, contextId: p.contextId, awaitPromise: true, returnByValue: true },
    p.frame.sessionId,
    3000,
  );
  return r.exceptionDetails ? undefined : r.result.value;
}

/**
 * Runs `capture` with every box of the page that shows a secret (see `secretBoxes`) painted
 * over in its own frame, and removes the paint after. The values never reach the page: it is
 * read, the reading is matched here, and only boxes go back. Never throws for the paint: a
 * page that cannot be read or painted is captured all the same, with `painted: false`.
 */
export async function paintedOver<T>(page: PageSession, mask: ScreenMask, place: BoxPlace, capture: () => Promise<T>): Promise<Painted<T>> {
  return paintedOverBoxes(page, () => secretBoxes(page, mask, place), place, capture);
}

/**
 * Runs `capture` with the boxes `find` returns painted over in their frames (as
 * {@link paintedOver} does for secrets), and removes the paint after; `painted` is false when
 * `find` threw, a box could not be painted, or the paint was gone by the end of the capture.
 */
export async function paintedOverBoxes<T>(page: PageSession, find: () => Promise<FrameBoxes[]>, place: BoxPlace, capture: () => Promise<T>): Promise<Painted<T>> {
  let frames: FrameBoxes[];
  try {
    frames = await find();
  } catch {
    return { image: await capture(), painted: false };
  }
  if (frames.length === 0) return { image: await capture(), painted: true };
  const id = `baton-mask-${Math.random().toString(36).slice(2)}`;
  const paints: FramePaint[] = [];
  let ok = true;
  try {
    for (const frame of frames) {
      try {
        const w = await page.send<{ executionContextId: number }>(
          "Page.createIsolatedWorld",
          { frameId: frame.frameId, worldName: "baton-mask", grantUniveralAccess: false },
          frame.sessionId,
        );
        const p = { frame, contextId: w.executionContextId };
        paints.push(p);
        const drawn = await evaluate(page, p, invocation(paintBoxes, id, frame.boxes.map(grown), place === "viewport", maskColour.css));
        if (drawn !== true) ok = false;
      } catch {
        ok = false;
      }
    }
    const image = await capture();
    for (const p of paints) if ((await evaluate(page, p, invocation(paintHeld, id)).catch(() => false)) !== true) ok = false;
    return { image, painted: ok };
  } finally {
    // Removed whatever happened: a half-drawn overlay must not stay behind.
    for (const p of paints) await evaluate(page, p, invocation(removePaint, id)).catch(() => undefined);
  }
}
