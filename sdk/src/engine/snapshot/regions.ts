/**
 * How the snapshot reads an element through the shared rules (`rules/element-rules.ts`): a
 * DOMSnapshot node as the rules' `ElementView`, the role and states of a clickable region, a
 * slider's value, a derived name for an icon-only control, and names without text the user
 * cannot see.
 */
import type { Rect } from "../base/coordinates.js";
import { attrOf, childrenOf, type DomIndex, type DomNode, isInside } from "../read/dom-index.js";
import { type ElementView, rules } from "../rules/element-rules.js";

/** Views made for an index, by backend id: a row's name and its icons' names visit the same nodes. */
const views = new WeakMap<DomIndex, Map<number, ElementView>>();

/** A DOMSnapshot node as the rules see it (made once per node and index). */
export function domView(index: DomIndex, node: DomNode): ElementView {
  let byId = views.get(index);
  if (!byId) views.set(index, (byId = new Map()));
  const known = byId.get(node.backendId);
  if (known) return known;
  let kids: ElementView[] | undefined;
  const view: ElementView = {
    tag: node.nodeName.toLowerCase(),
    attr: (name) => attrOf(index, node, name),
    children: () =>
      (kids ??= childrenOf(index, node.backendId).flatMap((id) => {
        const c = index.nodes.get(id);
        return c ? [domView(index, c)] : [];
      })),
    text: node.text ?? "",
    shown: !!node.box && node.box.width > 0 && node.box.height > 0 && !node.invisible && node.hiddenText === undefined,
  };
  byId.set(node.backendId, view);
  return view;
}

/** What a region target (neither a native control nor an ARIA widget) reads as. */
export interface RegionLook {
  readonly role: string;
  readonly states: string[];
  /** A slider's position, such as "40%", when its handle shows it. */
  readonly value: string;
}

/** The facts the rules take, for a DOMSnapshot element. */
function factsOf(index: DomIndex, node: DomNode): { tag: string; attr(name: string): string | null } {
  return { tag: node.nodeName.toLowerCase(), attr: (name) => attrOf(index, node, name) };
}

/**
 * A region's role, states and value: the rules' role from its tag, container and class words,
 * or "slider" for a wide track holding a small focusable handle (a slider built without ARIA),
 * whose value is the handle's ARIA value or its position along the track.
 */
export function regionLook(index: DomIndex, node: DomNode, hasText: boolean): RegionLook {
  const parent = node.parent === undefined ? undefined : index.nodes.get(node.parent);
  const facts = { ...factsOf(index, node), listener: false, pointer: false, standIn: false, editableHost: false };
  const floating = parent?.position === "absolute" || parent?.position === "fixed";
  let role = rules.regionRole(facts, node.signs, parent && { ...factsOf(index, parent), floating }, hasText);
  let value = "";
  if ((role === "clickable" || role === "listitem") && parent && node.box && tabLike(index, parent, node.nodeName)) role = "tab";
  const handle = sliderHandle(index, node);
  if (handle) {
    role = "slider";
    value = sliderValue(index, node, handle);
  }
  const states = rules.regionStates(facts, role);
  if (handle) {
    const min = attrOf(index, handle, "aria-valuemin") ?? attrOf(index, node, "aria-valuemin");
    const max = attrOf(index, handle, "aria-valuemax") ?? attrOf(index, node, "aria-valuemax");
    if (min !== null && max !== null) states.push(`range ${min}–${max}`);
  }
  return { role, states, value };
}

/** Per index, per parent and tag: whether those children form a tab strip (the same for each of them). */
const tabStrips = new WeakMap<DomIndex, Map<string, boolean>>();

/** A custom tab strip or segmented control: sibling targets side by side, one marked as current. */
function tabLike(index: DomIndex, parent: DomNode, nodeName: string): boolean {
  let known = tabStrips.get(index);
  if (!known) tabStrips.set(index, (known = new Map()));
  const key = `${parent.backendId} ${nodeName}`;
  let verdict = known.get(key);
  if (verdict === undefined) {
    const siblings = childrenOf(index, parent.backendId)
      .map((id) => index.nodes.get(id))
      .filter((n): n is DomNode => !!n && n.target && !!n.box && n.nodeName === nodeName)
      .map((n) => ({ top: n.box!.y, on: rules.marksOn(factsOf(index, n)) }));
    verdict = rules.isTabLike(siblings);
    known.set(key, verdict);
  }
  return verdict;
}

/** Per index: the icon fonts' ligature texts inside each element, in document order. */
const iconHolders = new WeakMap<DomIndex, Map<number, DomNode[]>>();

/** The icon fonts' ligature texts (`DomIndex.iconTexts`) that lie inside the node, in document order. */
function iconTextsInside(index: DomIndex, node: DomNode): readonly DomNode[] {
  let holders = iconHolders.get(index);
  if (!holders) {
    holders = new Map();
    for (const t of index.iconTexts) {
      for (let cur: number | undefined = t.backendId, guard = 0; cur !== undefined && guard < 10_000; guard++) {
        let list = holders.get(cur);
        if (!list) holders.set(cur, (list = []));
        list.push(t);
        cur = index.nodes.get(cur)?.parent;
      }
    }
    iconHolders.set(index, holders);
  }
  return holders.get(node.backendId) ?? [];
}

/** A small focusable element inside a wide, short track: a slider's handle. */
function sliderHandle(index: DomIndex, track: DomNode): DomNode | undefined {
  const b = track.box;
  if (!b || b.width < 3 * b.height || b.height > 40) return undefined;
  let budget = 30;
  const visit = (id: number): DomNode | undefined => {
    for (const c of childrenOf(index, id)) {
      if (--budget < 0) return undefined;
      const n = index.nodes.get(c);
      if (!n) continue;
      const tabindex = attrOf(index, n, "tabindex");
      const box = n.box;
      if (tabindex !== null && Number(tabindex) >= 0 && box && box.width <= 40 && box.height <= 40 && box.width > 0) return n;
      const deeper = visit(c);
      if (deeper) return deeper;
    }
    return undefined;
  };
  return visit(track.backendId);
}

/** A slider's value: the handle's ARIA value text or value, else its centre's position along the track. */
function sliderValue(index: DomIndex, track: DomNode, handle: DomNode): string {
  const text = attrOf(index, handle, "aria-valuetext") ?? attrOf(index, track, "aria-valuetext");
  if (text) return text;
  const now = attrOf(index, handle, "aria-valuenow") ?? attrOf(index, track, "aria-valuenow");
  if (now) return now;
  const t = track.box as Rect;
  const h = handle.box as Rect;
  const at = (h.x + h.width / 2 - t.x) / t.width;
  return `${Math.round(Math.max(0, Math.min(1, at)) * 100)}%`;
}

/**
 * A name as the user sees it: text drawn at font-size 0 inside the element taken out (the AX
 * tree reads it), and an icon font's ligature words too when other words remain ("inbox
 * Inbox 12" is "Inbox 12"; a lone "delete" stays, to be marked derived).
 */
export function visibleName(index: DomIndex, node: DomNode, name: string): string {
  if (!name || (index.hiddenTexts.length === 0 && index.iconTexts.length === 0)) return name;
  let out = name;
  for (const t of index.hiddenTexts) {
    if (t.hiddenText && isInside(index, t.backendId, node.backendId)) out = out.replace(t.hiddenText, " ");
  }
  for (const t of iconTextsInside(index, node)) {
    if (!t.text) continue;
    const rest = out.replace(t.text, " ").replace(/\s+/g, " ").trim();
    if (rest) out = rest;
  }
  return out.replace(/\s+/g, " ").trim();
}

/**
 * The name of an element the accessibility tree left unnamed, from what the page offers
 * (`rules.derivedName`); or, for a name that is only an icon font's ligature text, that name.
 * `derived` says the name was not given as a label.
 */
export function derivedName(index: DomIndex, node: DomNode, axName: string): { name: string; derived: boolean } {
  // (A ligature name is an icon font's text inside, all of it: most names contain none, and skip the walk.)
  if (axName) {
    const ligature = iconTextsInside(index, node).some((t) => !!t.text && axName.includes(t.text)) && rules.isLigatureName(domView(index, node), axName);
    return ligature ? { name: axName.replace(/[-_]+/g, " ").trim(), derived: true } : { name: axName, derived: false };
  }
  const name = rules.derivedName(domView(index, node));
  return { name, derived: name !== "" };
}
