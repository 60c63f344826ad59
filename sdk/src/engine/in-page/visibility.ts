/**
 * What a person sees of an element: its computed style, controls a stylesheet shows only on
 * hover (read once per snapshot), and what its clipping ancestors leave of it.
 */
import { rules as R } from "./element-rules.js";
import { type AgentBox, styleOf } from "./elements.js";
import { hoverRevealsInPage } from "./hover-reveal.js";

// Elements a stylesheet shows only while their row is hovered (`hover-reveal.ts`), read per snapshot.
let hoverRoots = new Set<Element>();
const hoverMemo = new Map<Element, boolean>();
/** Whether the element is, or is inside, one that a stylesheet shows only on hover. */
export const onHover = (el: Element): boolean => {
  if (hoverRoots.size === 0) return false;
  const known = hoverMemo.get(el);
  if (known !== undefined) return known;
  const v = hoverRoots.has(el) || (!!el.parentElement && onHover(el.parentElement));
  hoverMemo.set(el, v);
  return v;
};
/** Visible by its computed style (visibility, opacity), or shown on hover. */
export const visibleStyle = (el: Element): boolean => !el.checkVisibility || el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) || onHover(el);
/** Rendered with a box of positive size and a visible style. */
export const shown = (el: Element): boolean => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && visibleStyle(el);
};
/** A control hidden from a person (the shared rule): its label stands in for it. */
export const controlHidden = (el: Element): boolean => R.controlHidden(el.getBoundingClientRect(), visibleStyle(el));
/** The client rectangle its clipping ancestors leave an element (null: none clips it). */
export const clipOf = (el: Element): AgentBox | null => {
  let clip: AgentBox | null = null;
  let mode = styleOf(el).position;
  for (let cur = el.parentElement; cur && cur !== el.ownerDocument.body && cur !== el.ownerDocument.documentElement; cur = cur.parentElement) {
    if (mode === "fixed") break;
    const cs = styleOf(cur);
    if (cs.display === "contents" || (mode === "absolute" && cs.position === "static")) continue;
    if (cs.overflow !== "visible") {
      const b = cur.getBoundingClientRect();
      const x: number = clip ? Math.max(clip[0], b.left) : b.left;
      const y: number = clip ? Math.max(clip[1], b.top) : b.top;
      const right: number = clip ? Math.min(clip[0] + clip[2], b.right) : b.right;
      const bottom: number = clip ? Math.min(clip[1] + clip[3], b.bottom) : b.bottom;
      clip = [x, y, Math.max(0, right - x), Math.max(0, bottom - y)];
    }
    mode = cs.position;
  }
  return clip;
};

/** Reads which elements a stylesheet shows only on hover (`hover-reveal.ts`), once per snapshot. */
export const readHoverRoots = (): void => {
  const pairs = hoverRevealsInPage();
  const all = document.getElementsByTagName("*");
  hoverRoots = new Set();
  hoverMemo.clear();
  for (let i = 1; i + 1 < pairs.length; i += 2) {
    const el = all[pairs[i]!];
    if (el) hoverRoots.add(el);
  }
};
