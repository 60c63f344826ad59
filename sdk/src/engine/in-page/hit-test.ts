/**
 * Page functions of the batched hit test (`hit/batch-occlusion.ts`): the engine sends each by its
 * source (`base/page-function.ts`), so each uses nothing from outside its body.
 */

/** One candidate of `hitInPage`: light-tree index, tag, probe points (x, y, x, y …), snapshot box. */
export type HitItem = [number, string, number[], [number, number, number, number]];

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
export function hitInPage(this: unknown, count: number, items: HitItem[]): number[] | null {
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

/**
 * Reads one top-document light-tree element, called on it in the hit world: its live box in
 * viewport coordinates, the part of the viewport its clipping ancestors let it show in (as
 * `ancestorClip` reads them from a DOMSnapshot; null when none clips it, an empty box when it
 * is clipped away), computed visibility and the viewport size; null for an element in a
 * shadow tree or no longer connected (the caller takes the general path).
 */
export function boxInPage(this: Element): { box: number[]; clip: number[] | null; invisible: boolean; transparent: boolean; viewport: number[] } | null {
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
