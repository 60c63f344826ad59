/**
 * Ground truth for the MCP benchmark, read from the live page: what a person sees as clickable
 * in the viewport. Runs in the page (passed as `fn.toString()`), so it is type-checked code.
 */

/** One visible clickable element and the names a snapshot may give it. */
export interface Clickable {
  readonly tag: string;
  /** aria-label, title, the label of a control, its text (and its first line), placeholder or value; non-empty ones. */
  readonly names: string[];
}

/**
 * Every element in the viewport that a user can click: native controls and links, ARIA
 * widgets, anything focusable, and — how apps built from `<div>`s show it — the outermost
 * element of a `cursor: pointer` run. It must be visible and hit-testable at its centre.
 */
export function visibleClickables(): Clickable[] {
  const interactive =
    "a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=link],[role=tab],[role=menuitem],[role=checkbox],[role=switch],[role=option],[role=radio],[onclick],[tabindex]:not([tabindex='-1'])";
  const out: Clickable[] = [];
  for (const el of Array.from(document.querySelectorAll<HTMLElement>("body *"))) {
    const style = getComputedStyle(el);
    const parent = el.parentElement ? getComputedStyle(el.parentElement) : undefined;
    const pointerRoot = style.cursor === "pointer" && parent?.cursor !== "pointer";
    if (!el.matches(interactive) && !pointerRoot) continue;
    if (style.visibility !== "visible" || Number(style.opacity) === 0) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.bottom <= 0 || r.right <= 0 || r.top >= innerHeight || r.left >= innerWidth) continue;
    const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit) || (el instanceof HTMLInputElement && el.labels && Array.from(el.labels).some((l) => l.contains(hit))))) continue;
    const label = el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement ? (el.labels?.[0]?.innerText ?? "") : "";
    const value = el instanceof HTMLInputElement && (el.type === "submit" || el.type === "button") ? el.value : "";
    const names = [el.getAttribute("aria-label") ?? "", el.title, label, el.innerText, el.innerText.split("\n")[0] ?? "", el.getAttribute("placeholder") ?? "", value]
      .map((n) => n.replace(/\s+/g, " ").trim())
      .filter((n) => n.length > 0);
    out.push({ tag: el.tagName.toLowerCase(), names });
  }
  return out;
}
