import { intersect, type Point, type Rect } from "../base/coordinates.js";
import { declaration } from "../base/page-function.js";
import type { HitCandidate, HitVerdict } from "./occlusion.js";
import type { PageSession } from "../page/page-session.js";
import { forgetTopWorld, topWorld } from "../page/worlds.js";
import { boxInPage, hitInPage, type HitItem } from "../in-page/hit-test.js";

/** A candidate of the top document's light tree, with the points to probe in order. */
export interface LightCandidate {
  readonly candidate: HitCandidate;
  /** The element's whole box in viewport coordinates, as the snapshot saw it. */
  readonly box: Rect;
  readonly lightIndex: number;
  readonly nodeName: string;
  readonly points: readonly Point[];
}

/**
 * Hit-tests many top-document elements in one `Runtime.callFunctionOn` instead of one
 * `DOM.getNodeForLocation` per point. Resolves to one verdict per candidate (undefined for an
 * element the page could not confirm), or undefined when the batch could not run (no world,
 * the document changed): then nothing was decided.
 */
export async function batchHitTest(
  page: PageSession,
  contextId: number,
  lightElements: number,
  items: readonly LightCandidate[],
): Promise<(HitVerdict | undefined)[] | undefined> {
  if (items.length === 0) return [];
  const payload = items.map((it): HitItem => [
    it.lightIndex,
    it.nodeName,
    it.points.flatMap((p) => [p.x, p.y]),
    [it.box.x, it.box.y, it.box.width, it.box.height],
  ]);
  let r: { result: { value?: number[] | null }; exceptionDetails?: unknown };
  try {
    r = await page.send("Runtime.callFunctionOn", {
      functionDeclaration: declaration(hitInPage),
      executionContextId: contextId,
      arguments: [{ value: lightElements }, { value: payload }],
      returnByValue: true,
    });
  } catch {
    // The world died with its document (a same-loader reload, document.open): make a new one next time.
    forgetTopWorld(page);
    return undefined;
  }
  const passes = r.result.value;
  if (r.exceptionDetails || !Array.isArray(passes) || passes.length !== items.length) return undefined;
  return items.map((it, i): HitVerdict | undefined => {
    const k = passes[i] ?? -2;
    if (k === -2) return undefined;
    const point = it.points[k] ?? it.points[0]!;
    return k >= 0 ? { ok: true, point } : { ok: false, point, coveredBy: undefined, coveredIn: it.candidate.sessionId };
  });
}

/** What `topElementBox` reads. */
export interface TopElementBox {
  /** Object id of the element in the hit world, for `topElementHit`. */
  readonly objectId: string;
  /** Whole box in top-level viewport coordinates. */
  readonly box: Rect;
  /** The viewport cut to the element's clipping ancestors. */
  readonly clip: Rect | undefined;
  /** Not painted: `visibility` hidden or collapse, on it or inherited. */
  readonly invisible: boolean;
  /** Opacity 0 on it or an ancestor: painted transparent, yet hit-testable. */
  readonly transparent: boolean;
  readonly viewport: Rect;
}

/**
 * The live box of an element of the top document's light tree, read in the isolated hit
 * world (one resolve, one call); undefined when it is elsewhere or anything fails, so the
 * caller falls back to a layout read.
 */
export async function topElementBox(page: PageSession, backendNodeId: number): Promise<TopElementBox | undefined> {
  const contextId = await topWorld(page);
  if (contextId === undefined) return undefined;
  try {
    const { object } = await page.send<{ object: { objectId?: string } }>("DOM.resolveNode", { backendNodeId, executionContextId: contextId });
    if (!object.objectId) return undefined;
    const r = await page.send<{ result: { value?: { box: number[]; clip: number[] | null; invisible: boolean; transparent: boolean; viewport: number[] } | null } }>("Runtime.callFunctionOn", {
      objectId: object.objectId,
      functionDeclaration: declaration(boxInPage),
      returnByValue: true,
    });
    const v = r.result.value;
    if (!v) return undefined;
    const [x = 0, y = 0, width = 0, height = 0] = v.box;
    const [vw = 0, vh = 0] = v.viewport;
    const viewport = { x: 0, y: 0, width: vw, height: vh };
    const clip = v.clip ? intersect(viewport, { x: v.clip[0] ?? 0, y: v.clip[1] ?? 0, width: v.clip[2] ?? 0, height: v.clip[3] ?? 0 }) : viewport;
    return { objectId: object.objectId, box: { x, y, width, height }, clip, invisible: v.invisible, transparent: v.transparent, viewport };
  } catch {
    return undefined;
  }
}

/** Hit-tests `points` in order on an element read by `topElementBox`: the first that passes, or undefined. */
export async function topElementHit(page: PageSession, el: TopElementBox, points: readonly Point[]): Promise<Point | undefined> {
  try {
    const item: HitItem = [0, "", points.flatMap((p) => [p.x, p.y]), [0, 0, 0, 0]];
    const r = await page.send<{ result: { value?: number[] | null } }>("Runtime.callFunctionOn", {
      objectId: el.objectId,
      functionDeclaration: declaration(hitInPage),
      arguments: [{ value: 0 }, { value: [item] }],
      returnByValue: true,
    });
    const k = r.result.value?.[0] ?? -1;
    return k >= 0 ? points[k] : undefined;
  } catch {
    return undefined;
  }
}
