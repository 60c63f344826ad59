/**
 * The one place that converts between coordinate spaces. Nothing else in the engine adds
 * offsets or scroll positions.
 *
 * - frame-local (document): a frame's layout coordinates, as DOMSnapshot reports them;
 * - viewport: CSS pixels relative to the top-level viewport, what Input events take;
 * - page: the top-level document's coordinates (viewport + main scroll), what
 *   `DOM.getNodeForLocation` takes.
 *
 * A frame is described by its origin: where its viewport's top-left sits in the top-level
 * viewport, and its own scroll offset. Nested frames compose by adding origins, which the
 * snapshot does once per frame by asking the frame owner's content box.
 */

/** An axis-aligned rectangle in CSS pixels. */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A point in CSS pixels. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Where a frame's viewport sits in the top-level viewport, its scroll, and its visible clip. */
export interface FrameOrigin {
  /** Top-left of the frame's viewport in top-level viewport coordinates. */
  readonly x: number;
  readonly y: number;
  /** The frame document's scroll offset. */
  readonly scrollX: number;
  readonly scrollY: number;
  /** The part of the top-level viewport this frame can paint into (its owners' content boxes). */
  readonly clip: Rect;
}

/** The bounding rectangle of a CDP quad (8 numbers, four corners). */
export function quadToRect(quad: readonly number[]): Rect {
  const xs = [quad[0] ?? 0, quad[2] ?? 0, quad[4] ?? 0, quad[6] ?? 0];
  const ys = [quad[1] ?? 0, quad[3] ?? 0, quad[5] ?? 0, quad[7] ?? 0];
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** The top-level frame's origin: at 0,0, scrolled, clipped to the viewport. */
export function topFrameOrigin(viewport: Rect, scrollX: number, scrollY: number): FrameOrigin {
  return { x: 0, y: 0, scrollX, scrollY, clip: viewport };
}

/**
 * A child frame's origin from its owner's content box (already in top-level viewport
 * coordinates) and the child document's own scroll; its clip is the parent's clip cut to the box.
 */
export function childFrameOrigin(parent: FrameOrigin, ownerContentBox: Rect, scrollX: number, scrollY: number): FrameOrigin {
  return {
    x: ownerContentBox.x,
    y: ownerContentBox.y,
    scrollX,
    scrollY,
    clip: intersect(parent.clip, ownerContentBox) ?? { x: ownerContentBox.x, y: ownerContentBox.y, width: 0, height: 0 },
  };
}

/**
 * Lifts a rectangle reported in a session's own viewport coordinates (DOM.getBoxModel in an
 * out-of-process frame) into the top-level viewport, given that session's root frame origin.
 */
export function sessionToViewport(rect: Rect, sessionOrigin: FrameOrigin): Rect {
  return { x: rect.x + sessionOrigin.x, y: rect.y + sessionOrigin.y, width: rect.width, height: rect.height };
}

/** A frame-local (document) rectangle in top-level viewport coordinates. */
export function documentToViewport(rect: Rect, frame: FrameOrigin): Rect {
  return {
    x: rect.x - frame.scrollX + frame.x,
    y: rect.y - frame.scrollY + frame.y,
    width: rect.width,
    height: rect.height,
  };
}

/** A top-level viewport point in a frame's document coordinates (for a hit test in that frame). */
export function viewportToDocument(point: Point, frame: FrameOrigin): Point {
  return { x: point.x - frame.x + frame.scrollX, y: point.y - frame.y + frame.scrollY };
}

/** The overlap of two rectangles, or undefined when they do not overlap with positive area. */
export function intersect(a: Rect, b: Rect): Rect | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  if (right - x <= 0 || bottom - y <= 0) return undefined;
  return { x, y, width: right - x, height: bottom - y };
}

/** The centre of a rectangle. */
export function center(rect: Rect): Point {
  return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
}

/**
 * Points to probe when hit-testing a visible rectangle: its centre first, then the centres of
 * its four quadrants, so a partly covered element (a sticky header over its top) still counts.
 * Rounded inward to whole pixels because hit testing takes integers.
 */
export function probePoints(visible: Rect): Point[] {
  const c = center(visible);
  const qx = visible.width / 4;
  const qy = visible.height / 4;
  const raw = [c, { x: c.x - qx, y: c.y - qy }, { x: c.x + qx, y: c.y - qy }, { x: c.x - qx, y: c.y + qy }, { x: c.x + qx, y: c.y + qy }];
  const seen = new Set<string>();
  const out: Point[] = [];
  for (const p of raw) {
    const x = clampInt(p.x, visible.x, visible.x + visible.width);
    const y = clampInt(p.y, visible.y, visible.y + visible.height);
    const key = `${x},${y}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ x, y });
    }
  }
  return out;
}

function clampInt(v: number, lo: number, hi: number): number {
  const r = Math.round(v);
  if (r < Math.ceil(lo)) return Math.ceil(lo);
  if (r > Math.floor(hi) - 1) return Math.max(Math.ceil(lo), Math.floor(hi) - 1);
  return r;
}

/** Clamps a point into a rectangle (for labels drawn at the image edge). */
export function clampPoint(p: Point, rect: Rect, margin = 0): Point {
  return {
    x: Math.min(Math.max(p.x, rect.x + margin), rect.x + rect.width - margin),
    y: Math.min(Math.max(p.y, rect.y + margin), rect.y + rect.height - margin),
  };
}

/**
 * Probe points of a visible rectangle that fall outside every rectangle of `avoid` (the
 * controls inside a clickable row, which have refs of their own): the usual points first, then
 * a grid over the rectangle, nearest the centre first. Empty when every point is covered.
 */
export function probePointsBeside(visible: Rect, avoid: readonly Rect[]): Point[] {
  const outside = (p: Point): boolean => !avoid.some((r) => p.x >= r.x - 1 && p.x <= r.x + r.width + 1 && p.y >= r.y - 1 && p.y <= r.y + r.height + 1);
  const first = probePoints(visible).filter(outside);
  if (first.length > 0) return first;
  const c = center(visible);
  const grid: Point[] = [];
  for (let i = 1; i < 12; i++) {
    for (let j = 1; j < 4; j++) {
      grid.push({ x: clampInt(visible.x + (visible.width * i) / 12, visible.x, visible.x + visible.width), y: clampInt(visible.y + (visible.height * j) / 4, visible.y, visible.y + visible.height) });
    }
  }
  return grid.filter(outside).sort((a, b) => Math.hypot(a.x - c.x, a.y - c.y) - Math.hypot(b.x - c.x, b.y - c.y));
}
