import { intersect, type Point, type Rect } from "../base/coordinates.js";
import { declaration } from "../base/page-function.js";
import type { HitCandidate, HitVerdict } from "./occlusion.js";
import type { PageSession } from "../page/page-session.js";
import { forgetTopWorld, topWorld } from "../page/worlds.js";

/** One candidate of `hitInPage`: light-tree index, tag, probe points (x, y, x, y …), snapshot box. */
type HitItem = [number, string, number[], [number, number, number, number]];

/**
 * Runs in an isolated world of the top document (`Runtime.callFunctionOn`). For the batch:
 * finds each candidate by its light-tree element index and checks that the index still names
 * the same element (same tag, and its snapshot box inside its live bounding box, so a shifted
 * list cannot pass a neighbour off as the element), then hit-tests its probe points in order
 * with `elementFromPoint`. Called on an element (`this`) instead, it probes that element's
 * points (`items[0][2]`) only. A point passes when the hit is the element, inside it, an
 * ancestor of it, a label, or nothing (the same rule as `hitTest`). Returns, per candidate,
 * the index of the first passing point, -1 when every point is covered, or -2 when the element
 * could not be confirmed (the caller probes that one through CDP); null when the document's
 * element count changed.
 */
function hitInPage(this: unknown, count: number, items: HitItem[]): number[] | null {
  const firstPass = (el: Element, pts: number[]): number => {
    for (let k = 0; k + 1 < pts.length; k += 2) {
      const hit = document.elementFromPoint(pts[k]!, pts[k + 1]!);
      if (!hit || hit === el || el.contains(hit) || hit.contains(el) || hit.nodeName === "LABEL") return k / 2;
    }
    return -1;
  };
  if (this instanceof Element) return [firstPass(this, items[0]?.[2] ?? [])];
  const all = document.getElementsByTagName("*");
  if (all.length !== count) return null;
  return items.map(([index, tag, pts, b]) => {
    const el = all[index];
    if (!el || el.nodeName !== tag) return -2;
    const r = el.getBoundingClientRect();
    if (b[0] < r.left - 1 || b[1] < r.top - 1 || b[0] + b[2] > r.right + 1 || b[1] + b[3] > r.bottom + 1) return -2;
    return firstPass(el, pts);
  });
}

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

/**
 * Reads one top-document light-tree element, called on it in the hit world: its live box in
 * viewport coordinates, the part of the viewport its clipping ancestors let it show in (as
 * `ancestorClip` reads them from a DOMSnapshot; null when none clips it, an empty box when it
 * is clipped away), computed visibility and the viewport size; null for an element in a
 * shadow tree or no longer connected (the caller takes the general path).
 */
function boxInPage(this: Element): { box: number[]; clip: number[] | null; invisible: boolean; transparent: boolean; viewport: number[] } | null {
  if (!this.isConnected || this.getRootNode() !== document) return null;
  // An inline element wrapped over two lines ("INV-" / "0057") is two boxes: the middle of
  // their union lies between them, on its parent. Its largest box is aimed at instead.
  const rects = this.getClientRects();
  let r: DOMRect = this.getBoundingClientRect();
  if (rects.length > 1) {
    r = rects[0]!;
    for (const f of rects) if (f.width * f.height > r.width * r.height) r = f;
  }
  const style = getComputedStyle(this);
  const v = style.visibility;
  const vv = window.visualViewport;
  let clip: number[] | null = null;
  let mode = style.position;
  for (let cur = this.parentElement; cur && cur !== document.body && cur !== document.documentElement; cur = cur.parentElement) {
    if (mode === "fixed") break;
    const cs = getComputedStyle(cur);
    if (cs.display === "contents") continue;
    if (mode === "absolute" && cs.position === "static") continue;
    if (cs.overflow !== "visible") {
      const b = cur.getBoundingClientRect();
      const x: number = clip ? Math.max(clip[0]!, b.left) : b.left;
      const y: number = clip ? Math.max(clip[1]!, b.top) : b.top;
      const right: number = clip ? Math.min(clip[0]! + clip[2]!, b.right) : b.right;
      const bottom: number = clip ? Math.min(clip[1]! + clip[3]!, b.bottom) : b.bottom;
      clip = [x, y, Math.max(0, right - x), Math.max(0, bottom - y)];
    }
    mode = cs.position;
  }
  return {
    box: [r.left, r.top, r.width, r.height],
    clip,
    invisible: v === "hidden" || v === "collapse" || !this.checkVisibility({ visibilityProperty: true }),
    transparent: !this.checkVisibility({ opacityProperty: true }),
    viewport: [vv ? vv.width : innerWidth, vv ? vv.height : innerHeight],
  };
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
