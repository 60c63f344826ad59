/**
 * Small helpers of the DOM agent over live elements. Types are told apart by tag, not by
 * `instanceof`: elements of other frames belong to other realms.
 */

/** A rectangle as the agent reports it: x, y, width, height in its frame's client coordinates. */
export type AgentBox = [number, number, number, number];

/** Whitespace runs as one space, trimmed. */
export const squeeze = (s: string | null | undefined): string => (s || "").replace(/\s+/g, " ").trim();
/** Whether `n` is an element with this local name (by tag, not `instanceof`: other frames are other realms). */
export const isTag = <K extends keyof HTMLElementTagNameMap>(n: unknown, name: K): n is HTMLElementTagNameMap[K] => (n as Element | null)?.nodeType === 1 && (n as Element).localName === name;
/** The element as an HTMLElement when it is one (of any realm), else null. */
export const html = (el: Element): HTMLElement | null => ("isContentEditable" in el ? (el as HTMLElement) : null);
/** The element's computed style, from its own document's window. */
export const styleOf = (el: Element): CSSStyleDeclaration => (el.ownerDocument.defaultView ?? window).getComputedStyle(el);
/** The element's client rectangle. */
export const rectOf = (el: Element): AgentBox => {
  const r = el.getBoundingClientRect();
  return [r.x, r.y, r.width, r.height];
};
/** An iframe's content box in its document's client coordinates. */
export const ownerRect = (iframe: Element): AgentBox => {
  const r = iframe.getBoundingClientRect();
  const s = getComputedStyle(iframe);
  const px = (v: string): number => Number.parseFloat(v || "0");
  const l = iframe.clientLeft + px(s.paddingLeft);
  const t = iframe.clientTop + px(s.paddingTop);
  return [r.x + l, r.y + t, iframe.clientWidth - px(s.paddingLeft) - px(s.paddingRight), iframe.clientHeight - px(s.paddingTop) - px(s.paddingBottom)];
};
