/**
 * How the snapshot reads an element through the shared rules (`in-page/element-rules.ts`): a
 * DOMSnapshot node as the rules' `ElementView`, the role and states of a clickable region, a
 * slider's value, a derived name for an icon-only control, and names without text the user
 * cannot see.
 */
import type { Rect } from "../base/coordinates.js";
import { attrOf, childrenOf, type DomIndex, type DomNode, isInside } from "../read/dom-index.js";
import { type ElementView, rules } from "../in-page/element-rules.js";

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
 * The name of a control and the states its name comes with, by the shared order
 * (`rules.controlName`): its words (`shown`, with an icon font's ligature humanised: "label
 * important"), a title or label, a glyph (☆), a ligature, an icon class, the label text
 * before it in its row or field (`labelBefore`), and last a class word, marked "guess".
 */
export function controlNameOf(index: DomIndex, node: DomNode, shown: string): { name: string; states: string[] } {
  // (A ligature name is an icon font's text inside, all of it: most names contain none, and skip the walk.)
  if (shown && !rules.symbolOnly(shown)) {
    const ligature = iconTextsInside(index, node).some((t) => !!t.text && shown.includes(t.text)) && rules.isLigatureName(domView(index, node), shown);
    return { name: ligature ? shown.replace(/[-_]+/g, " ").trim() : shown, states: [] };
  }
  const derived = rules.derivedName(domView(index, node));
  // A glyph drawn by an icon class's generated content ("✖" for `fa-trash`) says less than the class.
  const generated = shown !== "" && derived.rank <= rules.nameRank.icon && iconTextsInside(index, node).map((t) => t.text ?? "").join(" ").trim() === shown.trim();
  const named = rules.controlName(generated ? "" : shown, derived, () => labelBefore(index, node), () => swatchColour(index, node));
  return { name: named.name, states: named.guess ? ["guess"] : [] };
}

/** At most this many ancestors are climbed to find the text before a control. */
const labelLevels = 4;

/**
 * The text that stands before a control in its row or field, as a label would: the nearest
 * text before it in document order within a few ancestors, with no other target between, on
 * the same line (left of it) or, with `above` (fields), just above it as a caption; "" when
 * none.
 */
export function labelBefore(index: DomIndex, node: DomNode, above = false): string {
  const box = node.box;
  if (!box) return "";
  let child = node;
  for (let level = 0; level < labelLevels && child.parent !== undefined; level++) {
    const parent = index.nodes.get(child.parent);
    if (!parent || parent.doc !== node.doc || parent.nodeName === "BODY") return "";
    const siblings = childrenOf(index, parent.backendId);
    for (let i = siblings.indexOf(child.backendId) - 1; i >= 0; i--) {
      const found = lastText(index, siblings[i]!);
      if (found === "target") return "";
      if (found) return nearLabel(box, found.box, above) ? asLabel(found.text) : "";
    }
    child = parent;
  }
  return "";
}

/** The last shown text inside a node (itself, if text): "target" when a target or a heading comes first, undefined when none. */
function lastText(index: DomIndex, id: number): { text: string; box: Rect } | "target" | undefined {
  let budget = 200;
  const visit = (nid: number): { text: string; box: Rect } | "target" | undefined => {
    if (--budget < 0) return undefined;
    const n = index.nodes.get(nid);
    if (!n || n.invisible || n.axHiddenTree) return undefined;
    // Not rendered, or clipped to nothing (a select hidden behind its custom replacement).
    if (n.nodeName !== "#text" && (!n.box || ((n.box.width <= 0 || n.box.height <= 0) && n.clips))) return undefined;
    if (n.target) return "target";
    // A heading titles a section, not the control after it.
    if (/^H[1-6]$/.test(n.nodeName) || attrOf(index, n, "role") === "heading") return "target";
    if (n.text !== undefined && !n.iconText && n.box && n.box.width > 0) return { text: n.text, box: n.box };
    const kids = childrenOf(index, nid);
    for (let k = kids.length - 1; k >= 0; k--) {
      const r = visit(kids[k]!);
      if (r) return r;
    }
    return undefined;
  };
  return visit(id);
}

/** Whether text at `text` reads as the label of a control at `control`: on its line to its left, or (with `above`, for fields) just above it. */
function nearLabel(control: Rect, text: Rect, above: boolean): boolean {
  const overlap = Math.min(control.y + control.height, text.y + text.height) - Math.max(control.y, text.y);
  const sameLine = overlap >= Math.min(control.height, text.height) / 2 && text.x < control.x + control.width / 2;
  const caption = above && text.y + text.height <= control.y + 2 && control.y - (text.y + text.height) <= 24 && Math.abs(text.x - control.x) <= 40;
  return sameLine || caption;
}

/** A label's text as a name: whitespace squeezed, a trailing colon dropped, at most 60 characters. */
export function asLabel(text: string): string {
  const t = text.replace(/\s+/g, " ").trim().replace(/\s*:$/, "");
  return t.length <= 60 ? t : "";
}

/** Per index: for each kind of target (tag and class words without state words), the toggle state words its members show. */
const toggleKinds = new WeakMap<DomIndex, Map<string, Set<string>>>();

/** A target's kind for `toggleStates`: its tag and its class words, state words left out. */
function kindOf(index: DomIndex, node: DomNode): { key: string; states: string[] } {
  const w = rules.words({ attr: (n) => attrOf(index, node, n) });
  const states = w.filter((x) => rules.toggleWords.includes(x));
  const rest = w.filter((x) => !rules.toggleWords.includes(x)).sort();
  return { key: `${node.nodeName} ${rest.join(" ")}`, states };
}

/**
 * States that tell one icon toggle from another (a star, a flag): the state words of its class
 * (`starred`), and "not starred" where another control of the same kind (tag and other class
 * words) has that word and this one does not.
 */
export function toggleStates(index: DomIndex, node: DomNode): string[] {
  let kinds = toggleKinds.get(index);
  if (!kinds) {
    kinds = new Map();
    for (const n of index.nodes.values()) {
      if (!n.target || !n.attrs.length) continue;
      const k = kindOf(index, n);
      if (k.states.length === 0) continue;
      let set = kinds.get(k.key);
      if (!set) kinds.set(k.key, (set = new Set()));
      for (const x of k.states) set.add(x);
    }
    toggleKinds.set(index, kinds);
  }
  if (kinds.size === 0) return [];
  const k = kindOf(index, node);
  const seen = kinds.get(k.key);
  if (!seen) return [];
  return [...seen].map((x) => (k.states.includes(x) ? x : `not ${x}`));
}

/** Input types that take typed text. */
const textInputs: ReadonlySet<string> = new Set(["", "text", "search", "email", "url", "tel", "password", "number"]);

/**
 * A text field a person cannot see inside a clickable region: the helper a terminal or a code
 * editor focuses when its screen is clicked, which then takes the keys (xterm.js, CodeMirror);
 * undefined when the region has none.
 */
export function hiddenTextField(index: DomIndex, node: DomNode): DomNode | undefined {
  let budget = 200;
  const visit = (id: number): DomNode | undefined => {
    for (const c of childrenOf(index, id)) {
      if (--budget < 0) return undefined;
      const n = index.nodes.get(c);
      if (!n) continue;
      const field = n.nodeName === "TEXTAREA" || (n.nodeName === "INPUT" && textInputs.has((attrOf(index, n, "type") ?? "").toLowerCase()));
      if (field) {
        const b = n.box;
        if (n.invisible || !b || b.width <= 2 || b.height <= 2 || b.x + b.width <= 0 || b.y + b.height <= 0) return n;
        continue;
      }
      const deeper = visit(c);
      if (deeper) return deeper;
    }
    return undefined;
  };
  return visit(node.backendId);
}

/** A swatch is small: a card or a tile filled with a colour is not named by it. */
const maxSwatch = 64;

/**
 * The colour a swatch is filled with (`rules.colourName`): an empty, small element whose
 * colour tells it from its siblings of the same kind (face-down cards all of one colour are
 * not swatches); "" otherwise.
 */
function swatchColour(index: DomIndex, node: DomNode): string {
  const b = node.box;
  if (!node.background || !b || b.width > maxSwatch || b.height > maxSwatch || childrenOf(index, node.backendId).length > 0) return "";
  const parent = node.parent === undefined ? undefined : index.nodes.get(node.parent);
  if (parent) {
    const cls = attrOf(index, node, "class");
    const kin = childrenOf(index, parent.backendId)
      .map((id) => index.nodes.get(id))
      .filter((n): n is DomNode => !!n && n.nodeName === node.nodeName && attrOf(index, n, "class") === cls);
    if (kin.length >= 2 && kin.every((n) => n.background === node.background)) return "";
  }
  return rules.colourName(node.background);
}
