/**
 * Checks around a click in the top document's isolated hit world, where page scripts cannot
 * see or fake them: after the pointer arrives, whether hover changed what is under it (an icon
 * that swaps its image, row actions that appear); and which elements the press, the release
 * and the click actually reached.
 */
import type { Point } from "../base/coordinates.js";
import { declaration, invocation } from "../base/page-function.js";
import type { PageSession } from "../page/page-session.js";
import { afterHoverInPage, armInPage, framesInPage, readInPage } from "../in-page/pointer-check.js";

/** What `afterHover` found once hover effects had two frames to happen. */
export interface HoverCheck {
  /** "ok": a point still lands on the element; "covered": none does; "gone": the element left the page. */
  readonly state: "ok" | "covered" | "gone";
  /** The first point that lands on the element (for "ok"). */
  readonly point: Point | undefined;
  /** What is under the first point now, for messages. */
  readonly under: string;
}

/** Lets hover effects happen, then checks `points` (the aimed one first) on the element again. */
export async function afterHover(page: PageSession, objectId: string, points: readonly Point[]): Promise<HoverCheck | undefined> {
  try {
    const r = await page.send<{ result: { value?: { state: HoverCheck["state"]; index: number; under: string } } }>("Runtime.callFunctionOn", {
      objectId,
      functionDeclaration: declaration(afterHoverInPage),
      arguments: [{ value: points.flatMap((p) => [p.x, p.y]) }],
      returnByValue: true,
      awaitPromise: true,
    });
    const v = r.result.value;
    return v ? { state: v.state, point: v.index >= 0 ? points[v.index] : undefined, under: v.under } : undefined;
  } catch {
    return undefined;
  }
}

/** Waits, in the top document, for two animation frames (capped): a hover or a pointer move has taken effect. */
export async function afterFrames(page: PageSession): Promise<void> {
  await page.send("Runtime.evaluate", { expression: invocation(framesInPage), awaitPromise: true, returnByValue: true }).catch(() => undefined);
}

/** What the press, the release and the click reached, as `readClickTargets` reports it. */
export interface ClickTargets {
  /** The click event's target was the element or inside it. */
  readonly clicked: boolean;
  /** Descriptions of the elements that got mousedown, mouseup and click ("" for none). */
  readonly down: string;
  readonly up: string;
  readonly click: string;
}

/** Starts recording which elements the next press, release and click reach. */
export async function armClickRecorder(page: PageSession, objectId: string): Promise<boolean> {
  try {
    await page.send("Runtime.callFunctionOn", { objectId, functionDeclaration: declaration(armInPage), returnByValue: true });
    return true;
  } catch {
    return false;
  }
}

/** What the recorder saw (and stops it); undefined when it could not be read. */
export async function readClickTargets(page: PageSession, objectId: string): Promise<ClickTargets | undefined> {
  try {
    const r = await page.send<{ result: { value?: ClickTargets | null } }>("Runtime.callFunctionOn", {
      objectId,
      functionDeclaration: declaration(readInPage),
      returnByValue: true,
    });
    return r.result.value ?? undefined;
  } catch {
    return undefined;
  }
}
