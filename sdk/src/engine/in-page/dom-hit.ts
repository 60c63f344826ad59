/** Hit tests of the DOM agent: what a click at a point would reach, across open shadow roots. */

/** The parent of a node, crossing from a shadow root to its host. */
export const parentOf = (n: Node): Node | null => n.parentNode ?? (n.nodeType === 11 && "host" in n ? (n as ShadowRoot).host : null);
/** Whether `n` is `el` or inside it (across shadow roots). */
export const inside = (n: Node | null, el: Node): boolean => {
  for (let c = n; c; c = parentOf(c)) if (c === el) return true;
  return false;
};
/** Whether a hit test that found `hit` reached `el` (itself, inside it, around it, or a label). */
export const related = (hit: Element | null, el: Element): boolean => !hit || hit.tagName === "LABEL" || inside(hit, el) || inside(el, hit);
/** The element at a client point, followed into open shadow roots. */
export const hitAt = (doc: Document, x: number, y: number): Element | null => {
  // Into open shadow roots: the document only reports the outermost host.
  let h = doc.elementFromPoint(x, y);
  for (let i = 0; i < 30 && h?.shadowRoot; i++) {
    const inner: Element | null = h.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === h) break;
    h = inner;
  }
  return h;
};
/** A short description of an element for an error ("<div #id>"). */
export const describe = (n: Element | null): string => {
  if (!n) return "nothing";
  const label = n.getAttribute("aria-label");
  return `<${n.tagName.toLowerCase()}${n.id ? ` #${n.id}` : label ? ` "${label}"` : ""}>`;
};
