import type { CaptureSnapshotResult } from "../../cdp/protocol.js";
import { computedAxEligible, computedAxTags } from "./computed-ax.js";
import type { Rect } from "../base/coordinates.js";
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
  /** For a `<label>` whose control is not rendered (a custom toggle): that control. The label is then the ref. */
  readonly hiddenControl: HiddenControl | undefined;
  /** aria-hidden="true" or inert: hides the whole subtree from the AX tree. */
  readonly axHidden: boolean;
  /** For a text node: its text with whitespace collapsed, or undefined when blank. */
  readonly text: string | undefined;
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
   * fields, checkboxes, radios and selects without ARIA state), so the viewport-first read may
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
}

/** Tags whose elements are controls by default. */
const controlTags: ReadonlySet<string> = new Set(["A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY", "OPTION"]);

/** Tags printed as context lines (their AX roles are heading, image, dialog). */
const contextTags: ReadonlySet<string> = new Set(["H1", "H2", "H3", "H4", "H5", "H6", "IMG", "svg", "DIALOG"]);

/** The computed styles the snapshot requests, in order. */
export const snapshotStyles = ["visibility"] as const;

/** Indexes a `DOMSnapshot.captureSnapshot` result (requested with `snapshotStyles`). */
export function indexDomSnapshot(snap: CaptureSnapshotResult): DomIndex {
  const { strings } = snap;
  const str = (i: number | undefined): string => (i === undefined || i < 0 ? "" : (strings[i] ?? ""));
  const nodes = new Map<number, DomNode>();
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
    // The rendered text of text nodes (after text-transform), as the AX tree names them.
    const rendered = new Map<number, string>();
    const layout = d.layout;
    for (let i = 0; i < layout.nodeIndex.length; i++) {
      const ni = layout.nodeIndex[i] ?? -1;
      const b = layout.bounds[i];
      if (b && !boxes.has(ni)) boxes.set(ni, { x: b[0] ?? 0, y: b[1] ?? 0, width: b[2] ?? 0, height: b[3] ?? 0 });
      const t = layout.text?.[i];
      if (t !== undefined && t >= 0 && !rendered.has(ni)) rendered.set(ni, str(t));
      const vis = str(layout.styles[i]?.[0]);
      if (vis === "hidden" || vis === "collapse") invisible.add(ni);
    }
    const hiddenControls = hiddenLabelControls(d, str, boxes, invisible);
    const clickable = new Set(n.isClickable?.index ?? []);
    const contentDocs = new Map<number, number>();
    const cdi = n.contentDocumentIndex;
    if (cdi) cdi.index.forEach((ni, k) => contentDocs.set(ni, cdi.value[k] ?? -1));
    const types = n.nodeType ?? [];
    const values = n.nodeValue ?? [];
    // 1 for nodes under a document fragment (shadow root, template content): not in the light tree.
    const fragment = new Uint8Array(backend.length);
    for (let i = 0; i < backend.length; i++) {
      const attrs = n.attributes?.[i] ?? [];
      let draggable = false;
      let marked = false;
      let axHidden = false;
      // An empty alt with no ARIA attribute or title: the image is presentational.
      let emptyAlt = false;
      let named = false;
      for (let a = 0; a + 1 < attrs.length; a += 2) {
        const attr = str(attrs[a]);
        if (attr === "draggable" && str(attrs[a + 1]) === "true") draggable = true;
        else if (attr === "role" || attr === "tabindex" || attr === "contenteditable") marked = true;
        else if ((attr === "aria-hidden" && str(attrs[a + 1]) === "true") || attr === "inert") axHidden = true;
        else if (attr === "alt") emptyAlt = str(attrs[a + 1]) === "";
        if (attr === "title" || attr.startsWith("aria-")) named = true;
      }
      const nodeName = str(names[i]);
      const pi = parents[i] ?? -1;
      if (pi >= 0 && (fragment[pi] === 1 || types[pi] === 11)) fragment[i] = 1;
      const light = docIdx === 0 && types[i] === 1 && fragment[i] === 0 && !nodeName.startsWith("::");
      const contentDoc = contentDocs.get(i);
      // Documents and text are never refs, even with a click listener on the document.
      const element = types[i] === 1;
      // A label without a role or tabindex is not a ref itself (Chromium's LabelText): its
      // control is, and the label's text is in the control's name. Unless that control is not
      // rendered: then the label is what a user clicks.
      const hiddenControl = nodeName === "LABEL" ? hiddenControls.get(i) : undefined;
      const plainLabel = nodeName === "LABEL" && !marked && !draggable && !hiddenControl;
      const likelyActionable = element && !plainLabel && (marked || draggable || clickable.has(i) || controlTags.has(nodeName));
      const presentational = nodeName === "IMG" && emptyAlt && !named && !marked;
      const text = types[i] === 3 ? (rendered.get(i) ?? str(values[i])).replace(/\s+/g, " ").trim() || undefined : undefined;
      nodes.set(backend[i] ?? -1, {
        backendId: backend[i] ?? -1,
        parent: pi >= 0 ? backend[pi] : undefined,
        nodeName,
        doc: docIdx,
        box: boxes.get(i),
        invisible: invisible.has(i),
        clickable: clickable.has(i),
        draggable,
        likelyActionable,
        axWanted:
          element && (likelyActionable || contentDoc !== undefined || (contextTags.has(nodeName) && !presentational) || nodeName === "IFRAME" || nodeName === "FRAME"),
        axHidden,
        hiddenControl,
        text,
        contentDoc,
        lightIndex: light ? lightElements++ : undefined,
        computedAx: light && computedAxTags.has(nodeName) && computedAxEligible(nodeName, attrMap(attrs, str)),
      });
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
  return { nodes, documents, lightElements };
}

/** An element's attributes by name, from a DOMSnapshot's flat name/value string indexes. */
function attrMap(attrs: readonly number[], str: (i: number | undefined) => string): Map<string, string> {
  const m = new Map<string, string>();
  for (let a = 0; a + 1 < attrs.length; a += 2) m.set(str(attrs[a]), str(attrs[a + 1]));
  return m;
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
