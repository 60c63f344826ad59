import type { Point, Rect } from "../base/coordinates.js";
import type { HitCandidate, HitVerdict } from "./occlusion.js";
import type { PageSession } from "../page/page-session.js";
import { forgetTopWorld, topWorld } from "../page/worlds.js";

/**
 * Runs in an isolated world of the top document: finds each candidate by its light-tree
 * element index and checks that the index still names the same element (same tag, and its
 * snapshot box inside its live bounding box, so a shifted list cannot pass a neighbour off as
 * the element). Then hit-tests the probe points in order with `elementFromPoint`. A point
 * passes when the hit is the element, inside it, an ancestor of it, a label, or nothing (the
 * same rule as `hitTest`). Returns, per candidate, the index of the first passing point, -1
 * when every point is covered, or -2 when the element could not be confirmed (the caller
 * probes that one through CDP); null when the document's element count changed.
 */
/** The acceptance rule for a hit on `el`, shared by every page-side hit test. */
const acceptHit = `!hit || hit === el || el.contains(hit) || hit.contains(el) || hit.nodeName === "LABEL"`;

const hitFunction = `function(count, items) {
  const all = document.getElementsByTagName("*");
  if (all.length !== count) return null;
  const out = [];
  for (const item of items) {
    const el = all[item[0]];
    const b = item[3];
    if (!el || el.nodeName !== item[1]) { out.push(-2); continue; }
    const r = el.getBoundingClientRect();
    if (b[0] < r.left - 1 || b[1] < r.top - 1 || b[0] + b[2] > r.right + 1 || b[1] + b[3] > r.bottom + 1) { out.push(-2); continue; }
    const pts = item[2];
    let pass = -1;
    for (let k = 0; k + 1 < pts.length; k += 2) {
      const hit = document.elementFromPoint(pts[k], pts[k + 1]);
      if (${acceptHit}) { pass = k / 2; break; }
    }
    out.push(pass);
  }
  return out;
}`;

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
  const payload = items.map((it) => [
    it.lightIndex,
    it.nodeName,
    it.points.flatMap((p) => [p.x, p.y]),
    [it.box.x, it.box.y, it.box.width, it.box.height],
  ]);
  let r: { result: { value?: number[] | null }; exceptionDetails?: unknown };
  try {
    r = await page.send("Runtime.callFunctionOn", {
      functionDeclaration: hitFunction,
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
 * viewport coordinates, computed visibility and the viewport size; null for an element in a
 * shadow tree or no longer connected (the caller takes the general path).
 */
const boxFunction = `function() {
  if (!this.isConnected || this.getRootNode() !== document) return null;
  const r = this.getBoundingClientRect();
  const v = getComputedStyle(this).visibility;
  const vv = window.visualViewport;
  return { box: [r.left, r.top, r.width, r.height], invisible: v === "hidden" || v === "collapse",
    viewport: [vv ? vv.width : innerWidth, vv ? vv.height : innerHeight] };
}`;

/** Hit-tests points in order on one element (called on it); the index of the first pass, or -1. */
const pointsFunction = `function(pts) {
  const el = this;
  for (let k = 0; k + 1 < pts.length; k += 2) {
    const hit = document.elementFromPoint(pts[k], pts[k + 1]);
    if (${acceptHit}) return k / 2;
  }
  return -1;
}`;

/** What `topElementBox` reads. */
export interface TopElementBox {
  /** Object id of the element in the hit world, for `topElementHit`. */
  readonly objectId: string;
  /** Whole box in top-level viewport coordinates. */
  readonly box: Rect;
  readonly invisible: boolean;
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
    const r = await page.send<{ result: { value?: { box: number[]; invisible: boolean; viewport: number[] } | null } }>("Runtime.callFunctionOn", {
      objectId: object.objectId,
      functionDeclaration: boxFunction,
      returnByValue: true,
    });
    const v = r.result.value;
    if (!v) return undefined;
    const [x = 0, y = 0, width = 0, height = 0] = v.box;
    const [vw = 0, vh = 0] = v.viewport;
    return { objectId: object.objectId, box: { x, y, width, height }, invisible: v.invisible, viewport: { x: 0, y: 0, width: vw, height: vh } };
  } catch {
    return undefined;
  }
}

/** Hit-tests `points` in order on an element read by `topElementBox`: the first that passes, or undefined. */
export async function topElementHit(page: PageSession, el: TopElementBox, points: readonly Point[]): Promise<Point | undefined> {
  try {
    const r = await page.send<{ result: { value?: number } }>("Runtime.callFunctionOn", {
      objectId: el.objectId,
      functionDeclaration: pointsFunction,
      arguments: [{ value: points.flatMap((p) => [p.x, p.y]) }],
      returnByValue: true,
    });
    const k = r.result.value ?? -1;
    return k >= 0 ? points[k] : undefined;
  } catch {
    return undefined;
  }
}
