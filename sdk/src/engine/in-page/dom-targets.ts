/**
 * Which live elements are targets (the shared rules over a document's elements, with the signs
 * only the page can see: listeners set as properties, computed cursors), and how a region
 * target reads (its role, states and value) — the DOM agent's counterpart of the snapshot's
 * DOMSnapshot read.
 */
import { isEditHost } from "./dom-roles.js";
import { type ElementFacts, type ElementView, type RuleItem, rules as R } from "./element-rules.js";
import { html, isTag, styleOf } from "./elements.js";
import { controlHidden, shown } from "./visibility.js";

const handlerProps = ["onclick", "onmousedown", "onmouseup", "onpointerdown", "onpointerup", "ontouchstart", "ondblclick"];
/** The live DOM as the shared rules see it. */
export const view = (n: Node): ElementView => {
  const el = n.nodeType === 1 ? (n as Element) : null;
  return {
    tag: el ? el.localName : "#text",
    attr: (name) => el?.getAttribute(name) ?? null,
    children: () => [...n.childNodes].filter((c) => c.nodeType === 1 || c.nodeType === 3).map(view),
    text: el ? "" : (n.textContent ?? ""),
    shown: el ? shown(el) : true,
  };
};
/**
 * The shared rules over one document (its open shadow roots included): each element's
 * signs, then which are targets (`rules.classify`).
 */
export const targetsOf = (doc: Document): Map<Element, { target: boolean; signs: number }> => {
  const els: Element[] = [];
  const items: RuleItem[] = [];
  const cursors = new Map<Element, string>();
  const walk = (root: Node, parent: number): void => {
    for (const c of root.childNodes) {
      if (c.nodeType !== 1) continue;
      const el = c as Element;
      if (["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD"].includes(el.tagName)) continue;
      const cursor = styleOf(el).cursor;
      cursors.set(el, cursor);
      const parentEl = parent >= 0 ? els[parent] : undefined;
      const control = isTag(el, "label") && el.control;
      const index = els.length;
      els.push(el);
      const facts: ElementFacts = {
        tag: el.localName,
        attr: (name) => el.getAttribute(name),
        listener: handlerProps.some((p) => typeof (el as unknown as Record<string, unknown>)[p] === "function"),
        pointer: cursor === "pointer" && (parentEl ? cursors.get(parentEl) : "") !== "pointer",
        standIn: !!control && !el.hasAttribute("role") && controlHidden(control),
        editableHost: isEditHost(el),
        floatingItem:
          /option|sugg/i.test(el.getAttribute("class") ?? "") &&
          [el.parentElement, el.parentElement?.parentElement, el.parentElement?.parentElement?.parentElement].some((p) => !!p && ["absolute", "fixed"].includes(styleOf(p).position)),
      };
      const signs = R.signsOf(facts);
      const r = signs ? el.getBoundingClientRect() : undefined;
      const empty = !!r && (r.width <= 0 || r.height <= 0 || r.right + scrollX <= 0 || r.bottom + scrollY <= 0 || !el.checkVisibility({ opacityProperty: true, visibilityProperty: true }));
      items.push({ parent, signs, list: R.isList(facts), empty });
      if (el.shadowRoot) walk(el.shadowRoot, index);
      walk(el, index);
    }
  };
  if (doc.body) walk(doc.body, -1);
  const { target, signs } = R.classify(items);
  const out = new Map<Element, { target: boolean; signs: number }>();
  els.forEach((el, i) => out.set(el, { target: target[i] === 1, signs: signs[i] ?? 0 }));
  return out;
};
/** What a region target reads as: the rules' role (a tab strip, a slider …), states and value. */
export const regionLook = (el: Element, signs: number, info: Map<Element, { target: boolean }>, hasText: boolean): { role: string; states: string[]; value: string } => {
  const parent = el.parentElement;
  const facts = { tag: el.localName, attr: (name: string) => el.getAttribute(name), listener: false, pointer: false, standIn: false, editableHost: false };
  const floating = !!parent && ["absolute", "fixed"].includes(styleOf(parent).position);
  let role = R.regionRole(facts, signs, parent ? { tag: parent.localName, attr: (name: string) => parent.getAttribute(name), floating } : undefined, hasText);
  let value = "";
  if ((role === "clickable" || role === "listitem") && parent) {
    const siblings = [...parent.children]
      .filter((c) => info.get(c)?.target && c.localName === el.localName && shown(c))
      .map((c) => ({ top: c.getBoundingClientRect().y, on: R.marksOn({ attr: (name: string) => c.getAttribute(name) }) }));
    if (R.isTabLike(siblings)) role = "tab";
  }
  const r = el.getBoundingClientRect();
  if (r.width >= 3 * r.height && r.height <= 40) {
    const handle = [...el.querySelectorAll("[tabindex]")].slice(0, 30).find((h) => {
      const b = h.getBoundingClientRect();
      return (html(h)?.tabIndex ?? -1) >= 0 && b.width > 0 && b.width <= 40 && b.height <= 40;
    });
    if (handle) {
      role = "slider";
      const hb = handle.getBoundingClientRect();
      value = handle.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuetext") ?? handle.getAttribute("aria-valuenow") ?? el.getAttribute("aria-valuenow") ?? `${Math.round(Math.max(0, Math.min(1, (hb.x + hb.width / 2 - r.x) / r.width)) * 100)}%`;
    }
  }
  const states = R.regionStates(facts, role);
  const handleEl = role === "slider" ? [...el.querySelectorAll("[tabindex]")].find((h) => h.hasAttribute("aria-valuemin")) : undefined;
  const min = handleEl?.getAttribute("aria-valuemin") ?? (role === "slider" ? el.getAttribute("aria-valuemin") : null);
  const max = handleEl?.getAttribute("aria-valuemax") ?? (role === "slider" ? el.getAttribute("aria-valuemax") : null);
  if (min !== null && max !== null) states.push(`range ${min}–${max}`);
  return { role, states, value };
};
