import type { CaptureSnapshotResult } from "../../cdp/protocol.js";
import { computedAxEligible, computedAxTags } from "./computed-ax.js";
import type { Rect } from "../base/coordinates.js";
import { type RuleItem, rules } from "../in-page/element-rules.js";
import type { HoverReveals } from "./hover-reveal.js";
import { type HiddenControl, hiddenLabelControls } from "./label-controls.js";

/** Layout facts about one DOM node, from DOMSnapshot, in its own document's coordinates. */
export interface DomNode {
  readonly backendId: number;
  /** Parent in the composed tree: shadow roots and content documents link to their hosts. */
  readonly parent: number | undefined;
  readonly nodeName: string;
  /** Index into `DomIndex.documents`. */
  readonly doc: number;
  /** Border box in document coordinates; undefined when the node has no layout box. */
  readonly box: Rect | undefined;
  /** Computed visibility is hidden or collapse (does not inherit into overriding children). */
  readonly invisible: boolean;
  /** Has a click listener, or is a link or form control (Chromium's own notion). */
  readonly clickable: boolean;
  /** draggable="true". */
  readonly draggable: boolean;
  /**
   * A target by the shared element rules (`in-page/element-rules.ts`): a native control, an
   * ARIA widget, an element with its own click-type listener, a pointer cursor, a tabindex or
   * draggable, or an item of a list that handles its items' events; not a container that only
   * delegates, nor a part of another target's clickable region.
   */
  readonly target: boolean;
  /**
   * A row, list item or card that is not a target itself: a `<tr>`, `<li>` or `<article>`, an
   * ARIA row, list item or article, or one of several siblings with its tag and class (cards in
   * a grid, rows of `<div>`s, chips). The snapshot indents its text and refs under it.
   */
  readonly group: boolean;
  /** The element's signs (`rules.signsOf`, plus `ITEM` for a delegated list item). */
  readonly signs: number;
  /** Raw attribute name/value string indexes from the DOMSnapshot (`DomIndex.attr` reads them). */
  readonly attrs: readonly number[];
  /**
   * Hides its subtree when it has no size: its overflow is not visible, so children that
   * extend past a zero-size box are clipped (a zero-height `<ul>` of floats is not).
   */
  readonly clips: boolean;
  /** Computed `position` ("static" when it has no layout box). */
  readonly position: string;
  /** Computed `background-color` when not transparent (a colour swatch is named by it). */
  readonly background: string | undefined;
  /**
   * A guess, from the DOM alone, that the AX walk will give this element a ref (a control tag,
   * a role, tabindex or contenteditable attribute, a click listener, draggable; never a plain
   * `<label>`, which Chromium makes LabelText). Starts hit tests early (a wrong guess costs a
   * probe or a later round trip, never a verdict) and, through `axWanted`, picks the nodes the
   * viewport-first read fetches.
   */
  readonly likelyActionable: boolean;
  /**
   * An element whose AX node the snapshot may print: `likelyActionable`, a frame owner, or a
   * tag that reads as context (headings, images, dialogs). The viewport-first read fetches AX
   * nodes for these only and takes text from the DOM.
   */
  readonly axWanted: boolean;
  /**
   * For an element a stylesheet hides (opacity 0, `visibility: hidden`) until it or an ancestor
   * is hovered, and everything inside it: the backend id of the element whose hover reveals it
   * (`read/hover-reveal.ts`). Such an element counts as shown.
   */
  readonly hoverAnchor: number | undefined;
  /** For a `<label>` whose control is not rendered (a custom toggle): that control. The label is then the ref. */
  readonly hiddenControl: HiddenControl | undefined;
  /** aria-hidden="true" or inert: hides the whole subtree from the AX tree. */
  readonly axHidden: boolean;
  /** Itself or an ancestor (same document) is aria-hidden or inert. */
  readonly axHiddenTree: boolean;
  /**
   * For a text node or generated content: its text with whitespace collapsed, or undefined when
   * blank or drawn at font-size 0.
   */
  readonly text: string | undefined;
  /** For a text node drawn at font-size 0 (invisible, though the AX tree reads it): its text. */
  readonly hiddenText: string | undefined;
  /**
   * A text node inside an icon font's element (a ligature drawing an icon), or generated
   * content (`::before`, `::after`): an icon or a decoration, not words to read.
   */
  readonly iconText: boolean;
  /** For an iframe/frame owner: the index of its content document, when in this process. */
  readonly contentDoc: number | undefined;
  /**
   * For an element of the first document outside any shadow root or template: its position in
   * `document.getElementsByTagName("*")`, so a page script can find it without a round trip.
   */
  readonly lightIndex: number | undefined;
  /**
   * A light-tree element whose AX line follows from Blink's computed role and name plus DOM
   * state (`computedAxEligible`: links, buttons, headings, images, native text
   * fields, checkboxes, radios and selects without ARIA state, labels standing for hidden
   * controls, focusable generics), so the viewport-first read may
   * take it in one page call with the others (`computed-ax.ts`).
   */
  readonly computedAx: boolean;
}

/** One document of a session's DOMSnapshot. */
export interface DocInfo {
  readonly frameId: string;
  readonly url: string;
  readonly title: string;
  readonly scrollX: number;
  readonly scrollY: number;
  /** The backend id of the iframe element owning this document, if it is a child document. */
  ownerBackendId: number | undefined;
}

/** DOMSnapshot of one session, indexed by backend node id. */
export interface DomIndex {
  readonly nodes: Map<number, DomNode>;
  readonly documents: DocInfo[];
  /** How many elements carry a `lightIndex` (checked against the page before use). */
  readonly lightElements: number;
  /** The snapshot's string table (attribute names and values). */
  readonly strings: readonly string[];
  /** Text nodes drawn at font-size 0, whose text the AX tree still puts into names. */
  readonly hiddenTexts: readonly DomNode[];
  /** Text nodes of icon fonts' ligatures, whose text the AX tree puts into names as words. */
  readonly iconTexts: readonly DomNode[];
}

/** An attribute of an element, or null. */
export function attrOf(index: DomIndex, node: DomNode, name: string): string | null {
  const a = node.attrs;
  for (let i = 0; i + 1 < a.length; i += 2) if (index.strings[a[i]!] === name) return index.strings[a[i + 1]!] ?? "";
  return null;
}

/** Children of a node in document order, built once per index on first use. */
const childLists = new WeakMap<DomIndex, Map<number, number[]>>();

/** The child node ids of a node (composed tree: a host's shadow root, a frame's document). */
export function childrenOf(index: DomIndex, backendId: number): readonly number[] {
  let lists = childLists.get(index);
  if (!lists) {
    lists = new Map();
    for (const n of index.nodes.values()) {
      if (n.parent === undefined) continue;
      let l = lists.get(n.parent);
      if (!l) lists.set(n.parent, (l = []));
      l.push(n.backendId);
    }
    childLists.set(index, lists);
  }
  return lists.get(backendId) ?? [];
}

/** Tags whose elements are controls by default. */
const controlTags: ReadonlySet<string> = new Set(["A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY", "OPTION"]);

/** Tags printed as context lines (their AX roles are heading, image, dialog). */
const contextTags: ReadonlySet<string> = new Set(["H1", "H2", "H3", "H4", "H5", "H6", "IMG", "svg", "DIALOG"]);

/** The computed styles the snapshot requests, in order. */
export const snapshotStyles = ["visibility", "cursor", "opacity", "overflow", "font-size", "position", "background-color"] as const;

/**
 * Indexes a `DOMSnapshot.captureSnapshot` result (requested with `snapshotStyles`);
 * `listeners` are the elements with click-type event listeners (`read/listeners.ts`), when
 * they could be read; `hover`, the top document's hover-revealed elements (used when its
 * element count matches).
 */
export function indexDomSnapshot(snap: CaptureSnapshotResult, listeners?: ReadonlySet<number>, hover?: HoverReveals): DomIndex {
  const { strings } = snap;
  const str = (i: number | undefined): string => (i === undefined || i < 0 ? "" : (strings[i] ?? ""));
  const nodes = new Map<number, DomNode>();
  const hiddenTexts: DomNode[] = [];
  const iconTexts: DomNode[] = [];
  let lightElements = 0;
  const documents: DocInfo[] = snap.documents.map((d) => ({
    frameId: str(d.frameId),
    url: str(d.documentURL),
    title: str(d.title),
    scrollX: d.scrollOffsetX ?? 0,
    scrollY: d.scrollOffsetY ?? 0,
    ownerBackendId: undefined,
  }));
  snap.documents.forEach((d, docIdx) => {
    const n = d.nodes;
    const backend = n.backendNodeId ?? [];
    const parents = n.parentIndex ?? [];
    const names = n.nodeName ?? [];
    const boxes = new Map<number, Rect>();
    const invisible = new Set<number>();
    const cursors = new Map<number, string>();
    const transparent = new Set<number>();
    const clipping = new Set<number>();
    const tinyText = new Set<number>();
    const positions = new Map<number, string>();
    const backgrounds = new Map<number, string>();
    // The rendered text of text nodes (after text-transform), as the AX tree names them.
    const rendered = new Map<number, string>();
    const layout = d.layout;
    for (let i = 0; i < layout.nodeIndex.length; i++) {
      const ni = layout.nodeIndex[i] ?? -1;
      const b = layout.bounds[i];
      if (b && !boxes.has(ni)) boxes.set(ni, { x: b[0] ?? 0, y: b[1] ?? 0, width: b[2] ?? 0, height: b[3] ?? 0 });
      const t = layout.text?.[i];
      if (t !== undefined && t >= 0 && !rendered.has(ni)) rendered.set(ni, str(t));
      const style = layout.styles[i];
      const vis = str(style?.[0]);
      if (vis === "hidden" || vis === "collapse") invisible.add(ni);
      if (!cursors.has(ni)) cursors.set(ni, str(style?.[1]));
      if (str(style?.[2]) === "0") transparent.add(ni);
      const overflow = str(style?.[3]);
      if (overflow !== "" && overflow !== "visible") clipping.add(ni);
      if (str(style?.[4]) === "0px") tinyText.add(ni);
      const position = str(style?.[5]);
      if (position !== "" && position !== "static" && !positions.has(ni)) positions.set(ni, position);
      const background = str(style?.[6]);
      if (background !== "" && background !== "rgba(0, 0, 0, 0)" && !backgrounds.has(ni)) backgrounds.set(ni, background);
    }
    const hiddenControls = hiddenLabelControls(d, str, boxes, invisible, transparent);
    const clickable = new Set(n.isClickable?.index ?? []);
    const contentDocs = new Map<number, number>();
    const cdi = n.contentDocumentIndex;
    if (cdi) cdi.index.forEach((ni, k) => contentDocs.set(ni, cdi.value[k] ?? -1));
    const types = n.nodeType ?? [];
    const values = n.nodeValue ?? [];
    // 1 for nodes under a document fragment (shadow root, template content): not in the light tree.
    // A DOMSnapshot leaves shadow roots out: their children name the host as their parent and
    // carry a shadow root type instead.
    const fragment = new Uint8Array(backend.length);
    // Opacity 0 and aria-hidden reach every descendant; an editing host's descendants are editable.
    const clear = new Uint8Array(backend.length);
    // The same, with hover not lifting anything: what a person sees without moving the mouse.
    const unseen = new Uint8Array(backend.length);
    const axHiddenTree = new Uint8Array(backend.length);
    const editable = new Uint8Array(backend.length);
    // The first <summary> child of each <details>: the one that stays shown when it is closed.
    const summaries = new Map<number, number>();
    const firstSummary = (details: number): number | undefined => summaries.get(details);
    for (let i = 0; i < backend.length; i++) {
      const pi = parents[i] ?? -1;
      if (pi >= 0 && str(names[i]) === "SUMMARY" && !summaries.has(pi)) summaries.set(pi, i);
    }
    // Hover-revealed roots of the top document's light tree, by node index, with their anchor's.
    const shadowChildren: ReadonlySet<number> = new Set(n.shadowRootType?.index ?? []);
    const hoverRoots = docIdx === 0 && hover && hover.anchors.size > 0 ? hoverRootsOf(hover, backend.length, parents, types, names, str, shadowChildren) : undefined;
    const hoverAnchor = new Int32Array(hoverRoots ? backend.length : 0).fill(-1);
    const items: RuleItem[] = [];
    /** Whether the node at `pi` or one of its next ancestors (`levels` in all) floats: absolutely or fixed positioned. */
    const floatsWithin = (pi: number, levels: number): boolean => {
      for (let p = pi, k = 0; p >= 0 && k < levels; p = parents[p] ?? -1, k++) {
        const pos = positions.get(p);
        if (pos === "absolute" || pos === "fixed") return true;
      }
      return false;
    };
    // One reader of "the element being indexed", so no function is made per element.
    let current: readonly number[] = [];
    const currentAttr = (name: string): string | null => attrValue(current, str, name);
    const facts: { draggable: boolean; marked: boolean; axHidden: boolean; emptyAlt: boolean; named: boolean; editableHost: boolean }[] = [];
    for (let i = 0; i < backend.length; i++) {
      const attrs = n.attributes?.[i] ?? [];
      let draggable = false;
      let marked = false;
      let axHidden = false;
      // An empty alt with no ARIA attribute or title: the image is presentational.
      let emptyAlt = false;
      let named = false;
      let contentEditable: string | undefined;
      for (let a = 0; a + 1 < attrs.length; a += 2) {
        const attr = str(attrs[a]);
        if (attr === "draggable" && str(attrs[a + 1]) === "true") draggable = true;
        else if (attr === "role" || attr === "tabindex" || attr === "contenteditable") marked = true;
        else if ((attr === "aria-hidden" && str(attrs[a + 1]) === "true") || attr === "inert") axHidden = true;
        else if (attr === "alt") emptyAlt = str(attrs[a + 1]) === "";
        if (attr === "title" || attr.startsWith("aria-")) named = true;
        if (attr === "contenteditable") contentEditable = str(attrs[a + 1]).toLowerCase();
      }
      const pi = parents[i] ?? -1;
      if (shadowChildren.has(i) || (pi >= 0 && (fragment[pi] === 1 || types[pi] === 11))) fragment[i] = 1;
      const nodeName = str(names[i]);
      const parentClear = pi >= 0 && clear[pi] === 1;
      // A closed <details> shows only its summary: the rest is not rendered, though a box
      // laid out earlier may linger in the snapshot.
      const closedDetails = pi >= 0 && str(names[pi]) === "DETAILS" && attrValue(n.attributes?.[pi] ?? [], str, "open") === null && !(nodeName === "SUMMARY" && firstSummary(pi) === i);
      const hoverRoot = hoverRoots?.get(i);
      if (hoverRoots) hoverAnchor[i] = hoverRoot ?? (pi >= 0 ? hoverAnchor[pi]! : -1);
      // A hover-revealed element's own opacity or visibility is the hover rule's to lift.
      if (parentClear || (transparent.has(i) && hoverRoot === undefined) || closedDetails) clear[i] = 1;
      if ((pi >= 0 && unseen[pi] === 1) || transparent.has(i) || invisible.has(i) || closedDetails) unseen[i] = 1;
      if (axHidden || (pi >= 0 && axHiddenTree[pi] === 1)) axHiddenTree[i] = 1;
      const editableAttr = contentEditable !== undefined && contentEditable !== "false";
      const parentEditable = pi >= 0 && editable[pi] === 1;
      if ((editableAttr || parentEditable) && contentEditable !== "false") editable[i] = 1;
      const editableHost = editableAttr && !parentEditable;
      const element = types[i] === 1;
      let signs = 0;
      if (element) {
        const tag = nodeName.toLowerCase();
        // Own pointer cursor where the nearest laid-out ancestor's is not.
        const cursor = cursors.get(i);
        let parentCursor: string | undefined;
        for (let p = pi; p >= 0 && parentCursor === undefined; p = parents[p] ?? -1) parentCursor = cursors.get(p);
        const hiddenControl = nodeName === "LABEL" ? hiddenControls.get(i) : undefined;
        current = attrs;
        signs = rules.signsOf({
          tag,
          attr: currentAttr,
          listener: listeners ? listeners.has(backend[i] ?? -1) : clickable.has(i) && !controlTags.has(nodeName) && nodeName !== "LABEL",
          pointer: cursor === "pointer" && parentCursor !== "pointer",
          standIn: hiddenControl !== undefined,
          editableHost,
          floatingItem: floatsWithin(pi, 3),
        });
        // Nothing to click where a person could see it: no area, unseen, or wholly before the page's origin.
        const b = boxes.get(i);
        const empty = !b || b.width <= 0 || b.height <= 0 || unseen[i] === 1 || b.x + b.width <= 0 || b.y + b.height <= 0;
        items.push({ parent: pi, signs, list: rules.isList({ tag, attr: currentAttr }), empty });
      } else {
        items.push({ parent: pi, signs: 0, list: false });
      }
      facts.push({ draggable, marked, axHidden, emptyAlt, named, editableHost });
    }
    const classified = rules.classify(items);
    // Siblings of the same tag and class, counted per parent: repeated ones are rows or cards.
    const kinds = new Map<string, number>();
    const kindOf = (i: number): string | undefined => {
      if (types[i] !== 1) return undefined;
      const cls = attrValue(n.attributes?.[i] ?? [], str, "class")?.trim();
      return cls ? `${parents[i] ?? -1} ${str(names[i])} ${cls}` : undefined;
    };
    for (let i = 0; i < backend.length; i++) {
      const k = kindOf(i);
      if (k !== undefined) kinds.set(k, (kinds.get(k) ?? 0) + 1);
    }
    for (let i = 0; i < backend.length; i++) {
      const { draggable, marked, axHidden, emptyAlt, named } = facts[i]!;
      const nodeName = str(names[i]);
      const pi = parents[i] ?? -1;
      const light = docIdx === 0 && types[i] === 1 && fragment[i] === 0 && !nodeName.startsWith("::");
      const contentDoc = contentDocs.get(i);
      // Documents and text are never refs, even with a click listener on the document.
      const element = types[i] === 1;
      // A label without a role or tabindex is not a ref itself (Chromium's LabelText): its
      // control is, and the label's text is in the control's name. Unless that control is not
      // rendered: then the label is what a user clicks.
      const hiddenControl = nodeName === "LABEL" ? hiddenControls.get(i) : undefined;
      const plainLabel = nodeName === "LABEL" && !marked && !draggable && !hiddenControl;
      const target = element && classified.target[i] === 1 && axHiddenTree[i] === 0;
      const kind = kindOf(i);
      const group = element && !target && isGroup(nodeName, attrValue(n.attributes?.[i] ?? [], str, "role"), (kind !== undefined ? kinds.get(kind) : 0) ?? 0);
      const likelyActionable = element && !plainLabel && (target || marked || draggable || controlTags.has(nodeName));
      const presentational = nodeName === "IMG" && emptyAlt && !named && !marked;
      // Generated content (::before, ::after) reads as text too, as the AX tree has it.
      const generated = nodeName === "::before" || nodeName === "::after";
      const raw = types[i] === 3 || generated ? (rendered.get(i) ?? str(values[i])).replace(/\s+/g, " ").trim() || undefined : undefined;
      const tiny = raw !== undefined && tinyText.has(i);
      const anchor = hoverRoots ? hoverAnchor[i]! : -1;
      const node: DomNode = {
        backendId: backend[i] ?? -1,
        parent: pi >= 0 ? backend[pi] : undefined,
        nodeName,
        doc: docIdx,
        box: boxes.get(i),
        invisible: (invisible.has(i) && anchor < 0) || clear[i] === 1,
        hoverAnchor: anchor >= 0 ? backend[anchor] : undefined,
        clickable: clickable.has(i),
        draggable,
        target,
        group,
        signs: classified.signs[i] ?? 0,
        attrs: n.attributes?.[i] ?? [],
        clips: clipping.has(i),
        position: positions.get(i) ?? "static",
        background: backgrounds.get(i),
        likelyActionable,
        axWanted:
          element && (likelyActionable || contentDoc !== undefined || (contextTags.has(nodeName) && !presentational) || nodeName === "IFRAME" || nodeName === "FRAME"),
        axHidden,
        axHiddenTree: axHiddenTree[i] === 1,
        hiddenControl,
        text: tiny ? undefined : raw,
        hiddenText: tiny ? raw : undefined,
        // Generated content draws icons and decorations (★, ›, a glyph of an icon font).
        iconText: raw !== undefined && (generated || (pi >= 0 && ((current = n.attributes?.[pi] ?? []), rules.isIconFont({ attr: currentAttr })))),
        contentDoc,
        lightIndex: light ? lightElements++ : undefined,
        computedAx:
          light &&
          (computedAxTags.has(nodeName) || hiddenControl !== undefined || marked) &&
          computedAxEligible(nodeName, attrMap(n.attributes?.[i] ?? [], str), hiddenControl !== undefined),
      };
      nodes.set(node.backendId, node);
      if (tiny) hiddenTexts.push(node);
      if (node.iconText) iconTexts.push(node);
    }
  });
  // Link each content document's root to its owner, so ancestry crosses same-process frames.
  for (const node of nodes.values()) {
    if (node.contentDoc === undefined) continue;
    const doc = documents[node.contentDoc];
    if (doc) doc.ownerBackendId = node.backendId;
    const rootBackend = snap.documents[node.contentDoc]?.nodes.backendNodeId?.[0];
    const root = rootBackend === undefined ? undefined : nodes.get(rootBackend);
    if (root) nodes.set(root.backendId, { ...root, parent: node.backendId });
  }
  return { nodes, documents, lightElements, strings, hiddenTexts, iconTexts };
}

/**
 * The hover-revealed roots of the top document (`read/hover-reveal.ts`) by DOMSnapshot node
 * index, mapped to their anchor's node index; empty when the page's element count is not the
 * DOMSnapshot's (the page changed between the two reads).
 */
function hoverRootsOf(
  hover: HoverReveals,
  size: number,
  parents: readonly number[],
  types: readonly number[],
  names: readonly number[],
  str: (i: number | undefined) => string,
  shadowChildren: ReadonlySet<number>,
): Map<number, number> {
  // Light-tree positions as `getElementsByTagName("*")` counts them: elements outside document fragments.
  const nodeAt: number[] = [];
  const fragment = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    const pi = parents[i] ?? -1;
    if (shadowChildren.has(i) || (pi >= 0 && (fragment[pi] === 1 || types[pi] === 11))) fragment[i] = 1;
    if (types[i] === 1 && fragment[i] === 0 && !str(names[i]).startsWith("::")) nodeAt.push(i);
  }
  const out = new Map<number, number>();
  if (nodeAt.length !== hover.count) return out;
  for (const [revealed, anchor] of hover.anchors) {
    const r = nodeAt[revealed];
    const a = nodeAt[anchor];
    if (r !== undefined && a !== undefined) out.set(r, a);
  }
  return out;
}

/** Tags that are rows, list items or cards by themselves. */
const groupTags: ReadonlySet<string> = new Set(["TR", "LI", "ARTICLE"]);
/** ARIA roles of rows, list items and cards. */
const groupRoles: ReadonlySet<string> = new Set(["row", "listitem", "article"]);
/** Tags never made groups by repetition: cells (their row is the group), options, the document. */
const notGroups: ReadonlySet<string> = new Set(["TD", "TH", "OPTION", "HTML", "BODY", "HEAD", "TBODY", "THEAD", "UL", "OL", "TABLE", "svg", "path", "use", "g"]);

/** Whether an element is a group (`DomNode.group`): by its tag or role, or one of several siblings of its kind. */
function isGroup(nodeName: string, role: string | null, kindCount: number): boolean {
  const r = (role ?? "").trim().split(/\s+/)[0] ?? "";
  if (groupRoles.has(r) || (role === null && groupTags.has(nodeName))) return true;
  return kindCount >= 2 && !notGroups.has(nodeName) && role === null;
}

/** One attribute's value from a DOMSnapshot's flat name/value string indexes, or null. */
function attrValue(attrs: readonly number[], str: (i: number | undefined) => string, name: string): string | null {
  for (let a = 0; a + 1 < attrs.length; a += 2) if (str(attrs[a]) === name) return str(attrs[a + 1]);
  return null;
}

/** An element's attributes by name, from a DOMSnapshot's flat name/value string indexes. */
function attrMap(attrs: readonly number[], str: (i: number | undefined) => string): Map<string, string> {
  const m = new Map<string, string>();
  for (let a = 0; a + 1 < attrs.length; a += 2) m.set(str(attrs[a]), str(attrs[a + 1]));
  return m;
}

/** Clip rectangles per index, keyed by backend id (null: nothing clips the node). */
const clipMemo = new WeakMap<DomIndex, Map<number, Rect | null | undefined>>();

/**
 * The part of the document a node can show in, in its document's coordinates: the
 * intersection of the boxes of the ancestors whose overflow clips it, following CSS's
 * containing blocks (an absolutely positioned element escapes non-positioned ancestors, a
 * fixed one escapes them all). Null when nothing clips it; undefined when it is clipped away
 * (a row scrolled out of its list).
 */
export function ancestorClip(index: DomIndex, node: DomNode): Rect | null | undefined {
  let memo = clipMemo.get(index);
  if (!memo) clipMemo.set(index, (memo = new Map()));
  if (memo.has(node.backendId)) return memo.get(node.backendId);
  let clip: Rect | null | undefined = null;
  let mode = node.position;
  for (let cur = node.parent === undefined ? undefined : index.nodes.get(node.parent), hops = 0; cur && cur.doc === node.doc && hops < 200; hops++) {
    // The root elements' overflow is the viewport's, which the frame's clip already is.
    if (mode === "fixed" || cur.nodeName === "HTML" || cur.nodeName === "BODY") break;
    if (mode === "absolute" && cur.position === "static") {
      cur = cur.parent === undefined ? undefined : index.nodes.get(cur.parent);
      continue;
    }
    if (cur.clips && cur.box) {
      const next: Rect | undefined = clip === null ? cur.box : intersectRects(clip, cur.box);
      if (!next) {
        clip = undefined;
        break;
      }
      clip = next;
    }
    // Elements without a box (display: contents) pass their descendants' containing block on.
    if (cur.box) mode = cur.position;
    cur = cur.parent === undefined ? undefined : index.nodes.get(cur.parent);
  }
  memo.set(node.backendId, clip);
  return clip;
}

function intersectRects(a: Rect, b: Rect): Rect | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right - x > 0 && bottom - y > 0 ? { x, y, width: right - x, height: bottom - y } : undefined;
}

/** True when `node` is `ancestor` or lies inside it (composed tree, across same-process frames). */
export function isInside(index: DomIndex, node: number, ancestor: number): boolean {
  let cur: number | undefined = node;
  for (let guard = 0; cur !== undefined && guard < 10_000; guard++) {
    if (cur === ancestor) return true;
    cur = index.nodes.get(cur)?.parent;
  }
  return false;
}
