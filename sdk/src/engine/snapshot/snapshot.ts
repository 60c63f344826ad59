import type { AXNode } from "../../cdp/protocol.js";
import { actionableRoles, axProp, axStates, axString, contextRoles, displayRole, silentRoles } from "./roles.js";
import { documentToViewport, type Rect } from "../base/coordinates.js";
import { attrOf, childrenOf, type DomIndex, type DomNode } from "../read/dom-index.js";
import { rules } from "../in-page/element-rules.js";
import { controlNameOf, hiddenTextField, labelBefore, regionLook, toggleStates, visibleName } from "./regions.js";
import type { HiddenControl } from "../read/label-controls.js";
import { topWorld } from "../page/worlds.js";
import { type EarlyProbes, startEarlyProbes, startSpeculativeProbes } from "../hit/early-occlusion.js";
import { readPageLayout, type ReadLayoutOptions } from "../read/frame-layout.js";
import { visibleRect } from "../read/visible-rect.js";
import type { EarlyRootLayout, PageLayout, SessionLayout } from "../read/layout.js";
import { filterOccluded, type HitCandidate, type HitVerdict } from "../hit/occlusion.js";
import { frameUrls, type PageSession } from "../page/page-session.js";
import type { RefEntry, RefTable } from "./refs.js";
import { groupLines, type LineSource } from "./groups.js";
import { dropEchoes, type SnapshotLine } from "./render-text.js";
import { contextLineText, refLineText } from "./line-format.js";
import { frameLabel, quoted, sanitizeText, sanitizeUrl, urlOrigin } from "../base/sanitize.js";

/** An element with a ref, with the client-side facts the model does not see. */
export interface SnapshotElement {
  readonly ref: string;
  readonly role: string;
  readonly name: string;
  readonly value: string;
  /** The state words printed after it (`checked`, `on-hover`, `guess` …). */
  readonly states: readonly string[];
  readonly frameId: string;
  /** Box in top-level viewport coordinates. */
  readonly box: Rect;
  readonly offscreen: boolean;
}

/** A whole-page snapshot, before pagination. */
export interface PageSnapshot {
  readonly url: string;
  readonly title: string;
  readonly lines: SnapshotLine[];
  readonly elements: SnapshotElement[];
  readonly frameCount: number;
  readonly layout: PageLayout;
}

/** Options of one snapshot. */
export interface SnapshotOptions {
  /** List elements outside the viewport too, marked "offscreen" (not hit-tested). */
  includeOffscreen?: boolean;
  /** Drop refs whose element is covered by another element (default true). */
  filterOccluded?: boolean;
  /** Only include the subtree of this ref's element. */
  scope?: RefEntry;
  /** How AX trees are read (see `ReadLayoutOptions.axRead`); "auto" unless testing. */
  axRead?: ReadLayoutOptions["axRead"];
  /**
   * Frames whose document may not be read (a site the policy refuses, loaded before the policy
   * held the tab): listed by their marker only, their content left out. Asked with "" for a
   * frame whose address is not known yet.
   */
  unreadable?: (url: string) => boolean;
}

interface Pending {
  node: AXNode;
  l: SessionLayout;
  frameId: string;
  box: Rect;
  visible: Rect | undefined;
  lineIndex: number;
  role: string;
  name: string;
  value: string;
  states: string[];
  depth: number;
  /** The ref's container among the pending refs (its line's parent ref), if any. */
  container: Pending | undefined;
  /** The element to hover first (`DomNode.hoverAnchor`). */
  hoverAnchor: number | undefined;
}

/**
 * Whether the accessibility tree says a node is something to act on: a widget role, a label
 * standing for a control that is not rendered, an editing host. Everything else that is
 * clickable is decided from the DOM by the shared rules (`DomNode.target`).
 */
function axActionable(role: string, node: AXNode, dom: Pick<DomNode, "hiddenControl"> | undefined): boolean {
  if (actionableRoles.has(role)) return true;
  // A label is its control's name, except for a control that is not rendered (a custom toggle).
  if (role === "LabelText") return dom?.hiddenControl !== undefined;
  if (role === "RootWebArea" || role === "Iframe" || role === "StaticText") return false;
  const editable = axProp(node, "editable");
  // Only the editing host, not every paragraph inside it.
  return (editable === "richtext" || editable === "plaintext") && axProp(node, "focusable") === true;
}

/**
 * A node's role. Chromium makes a `<label>` that only names a checkbox or radio an ignored
 * `none` (a "redundant" label, and its text with it) in whole and per-node AX reads, where a
 * label is otherwise `LabelText`; a label standing for a hidden control is `LabelText` on every
 * read, so it reads as that control (`standInLook`).
 */
function roleOf(node: AXNode, dom: Pick<DomNode, "hiddenControl"> | undefined): string {
  const role = axString(node.role);
  return role === "none" && dom?.hiddenControl !== undefined ? "LabelText" : role;
}

/** How a label standing for a hidden control reads: as a checkbox or radio with its state, else as "label". */
function standInLook(c: HiddenControl): { role: string; states: string[] } {
  return c.type === "checkbox" || c.type === "radio" ? { role: c.type, states: [c.checked ? "checked" : "unchecked"] } : { role: "label", states: [] };
}

/**
 * Takes a whole-page snapshot: reads all frames and sessions, walks the AX trees in document
 * order (descending into same-process and out-of-process frames and shadow roots, which the AX
 * tree flattens), filters hidden, empty, off-viewport and occluded elements, and assigns refs.
 */
export async function takePageSnapshot(page: PageSession, refs: RefTable, options: SnapshotOptions = {}): Promise<PageSnapshot> {
  // Off-screen elements need every node, so they always read whole AX trees.
  let early: EarlyProbes | undefined;
  const probeEarly = options.filterOccluded !== false && options.scope === undefined;
  // The isolated world for batched hit tests is made (once per document) alongside the reads.
  const world = probeEarly ? topWorld(page) : undefined;
  const layoutP = readPageLayout(page, {
    wholePage: options.includeOffscreen === true,
    ...(options.axRead ? { axRead: options.axRead } : {}),
    // Hover-revealed controls are read in the same world (made once per document).
    hoverWorld: world ?? topWorld(page),
    ...(world ? { onRootLayout: (e: EarlyRootLayout) => void (early = startEarlyProbes(page, e, world, speculative)) } : {}),
  });
  // Sent right behind the first reads: the last snapshot's hit tests, reused where nothing moved.
  const speculative = world ? startSpeculativeProbes(page, world) : undefined;
  const layout = await layoutP;
  const root = layout.sessions.get(page.rootId);
  const main = page.mainFrame();
  const mainOrigin = urlOrigin(main?.url ?? "");
  const lines: (SnapshotLine | undefined)[] = [];
  // The DOM node each line was printed for (for grouping rows, `groups.ts`).
  const sources = new Map<SnapshotLine, LineSource>();
  const emit = (line: SnapshotLine, l: SessionLayout, backendId: number | undefined): void => {
    lines.push(line);
    if (backendId !== undefined) sources.set(line, { index: l.index, session: l.session.id, backendId });
  };
  const pending: Pending[] = [];
  let frameCount = 0;
  const scope = options.scope;

  const walkFrame = (l: SessionLayout, frameId: string, depth: number, inScope: boolean): void => {
    const nodes = l.ax.get(frameId);
    if (!nodes || nodes.length === 0) return;
    frameCount++;
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const rootNode = nodes.find((n) => !n.parentId) ?? nodes[0]!;
    const visit = (node: AXNode, depth: number, inScope: boolean, containerName: string, inRef: Pending | undefined): void => {
      const dom = node.backendDOMNodeId === undefined ? undefined : l.index.nodes.get(node.backendDOMNodeId);
      const role = roleOf(node, dom);
      const here = inScope || (scope !== undefined && scope.sessionId === l.session.id && scope.backendNodeId === node.backendDOMNodeId);
      let childDepth = depth;
      let childContainer = containerName;
      let childInRef = inRef;
      // A target of the shared rules prints even where the accessibility tree ignores it.
      const region = dom?.target === true;
      const ignored = node.ignored && !region;
      if (!ignored && role === "Iframe") {
        walkIframe(l, node, depth, here);
        return;
      }
      if (!ignored && role !== "RootWebArea") {
        const name = axString(node.name);
        const origin = dom ? l.docOrigins[dom.doc] : undefined;
        const box = dom?.box && origin ? documentToViewport(dom.box, origin) : undefined;
        const rendered = !!box && box.width > 0 && box.height > 0 && !dom?.invisible;
        const visible = rendered && dom ? visibleRect(l, dom) : undefined;
        const shown = visible !== undefined || (options.includeOffscreen === true && rendered);
        const axAction = axActionable(role, node, dom);
        const actionable = axAction || region;
        // An invisible control hides its text too; a zero-size one only when it clips its
        // overflow (a zero-height list of floats shows its items).
        if (dom?.box && !rendered && role !== "StaticText" && actionable) {
          if (dom.invisible || ((dom.box.width <= 0 || dom.box.height <= 0) && dom.clips)) return;
        }
        if (role === "StaticText") {
          // Text drawn at font-size 0 is not shown to the user, whatever the AX tree says; an
          // icon's text is not words to read.
          const text = dom ?? textDom(node, byId, l.index);
          // Inside a ref, a symbol ("⟳", "⚑") is the ref's icon, already read in its name.
          const symbol = inRef !== undefined && rules.symbolOnly(name);
          if (shown && here && name.trim() && text?.hiddenText === undefined && !text?.iconText && !symbol && !containerName.includes(name.trim())) {
            emit({ depth, text: quoted(name, 100), plain: sanitizeText(name, 100) }, l, text?.backendId);
          }
        } else if (actionable) {
          if (shown && here && box) {
            const look = describe(l, node, role, name, dom, axAction, byId);
            const states = dom?.hoverAnchor !== undefined ? [...look.states, "on-hover"] : look.states;
            const p: Pending = { node, l, frameId, box, visible, lineIndex: lines.length, role: look.role, name: look.name, value: look.value, states, depth, container: inRef, hoverAnchor: dom?.hoverAnchor };
            pending.push(p);
            lines.push(undefined);
            childDepth = depth + 1;
            childContainer = `${containerName} ${look.context ?? look.name} ${look.value}`;
            childInRef = p;
          }
        } else if (contextRoles.has(role) && !silentRoles.has(role) && shown && here && !(inRef && (role === "image" || role === "img") && (!name || containerName.includes(name)))) {
          // (An image inside a ref says nothing its name does not: an icon.)
          const level = axProp(node, "level");
          emit({ depth, text: contextLineText(role === "heading" ? role : displayRole(role), name, typeof level === "number" ? level : undefined) }, l, dom?.backendId);
          if (role === "heading" || role === "image") childContainer = `${containerName} ${name}`;
          if (role === "dialog" || role === "alertdialog") childDepth = depth + 1;
        }
      }
      for (const id of node.childIds ?? []) {
        const child = byId.get(id);
        if (child) visit(child, childDepth, here, childContainer, childInRef);
      }
    };
    visit(rootNode, depth, inScope, "", undefined);
  };

  const walkIframe = (l: SessionLayout, node: AXNode, depth: number, inScope: boolean): void => {
    const owner = node.backendDOMNodeId;
    if (owner === undefined) return;
    const dom = l.index.nodes.get(owner);
    const origin = dom ? l.docOrigins[dom.doc] : undefined;
    const box = dom?.box && origin ? documentToViewport(dom.box, origin) : undefined;
    const visible = box && dom ? visibleRect(l, dom) : undefined;
    if (!visible && !options.includeOffscreen) return;
    // Same-process child document, or an out-of-process frame's session.
    let target: { l: SessionLayout; frameId: string; docUrl: string | undefined } | undefined;
    if (dom?.contentDoc !== undefined) {
      const doc = l.index.documents[dom.contentDoc];
      if (doc) target = { l, frameId: doc.frameId, docUrl: doc.url };
    } else {
      for (const child of layout.sessions.values()) {
        if (child.session.parentId === l.session.id && child.ownerBackendId === owner && child.session.frameId) {
          target = { l: child, frameId: child.session.frameId, docUrl: child.index.documents[0]?.url };
        }
      }
    }
    if (!target) return;
    // Either URL the frame is known by that the policy refuses keeps it unread.
    const urls = frameUrls({ url: page.frames.get(target.frameId)?.url ?? "", docUrl: target.docUrl });
    const url = target.docUrl || urls[0]!;
    const cross = urlOrigin(url) !== mainOrigin;
    const title = axString(node.name);
    const marker = cross ? `iframe [cross-origin ${frameLabel(url)}]` : `iframe${title ? ` ${quoted(title, 60)}` : ""}`;
    if (options.unreadable && urls.some(options.unreadable)) {
      if (inScope) lines.push({ depth, text: `${marker} [refused by the site policy: not read]` });
      return;
    }
    if (inScope) lines.push({ depth, text: marker });
    walkFrame(target.l, target.frameId, inScope ? depth + 1 : depth, inScope);
  };

  if (root && main) walkFrame(root, main.id, 0, scope === undefined);

  // Occlusion: hit-test every in-viewport candidate once, in parallel; reuse the early probes.
  const inView = pending.filter((p) => p.visible !== undefined);
  const verdictOf = new Map<Pending, HitVerdict | undefined>();
  if (options.filterOccluded !== false) {
    // A control shown only on hover is hidden until then, so whatever lies under it is hit
    // instead: it passes where the hit lands inside the row that shows it (not under a dialog).
    const candidate = (p: Pending): HitCandidate => ({ sessionId: p.l.session.id, backendId: p.hoverAnchor ?? p.node.backendDOMNodeId!, visible: p.visible! });
    const probe = async (ps: Pending[]): Promise<void> => {
      const verdicts = await filterOccluded(page, layout, ps.map(candidate));
      ps.forEach((p, i) => verdictOf.set(p, verdicts[i]));
    };
    const late: Pending[] = [];
    const jobs: Promise<void>[] = [];
    for (const p of inView) {
      // (The cast: TypeScript cannot see that the layout hook assigned `early`.)
      const v = p.hoverAnchor === undefined ? (early as EarlyProbes | undefined)?.take(p.l.session.id, p.node.backendDOMNodeId!, p.visible!) : undefined;
      // An early probe that failed outright is simply made again.
      if (v) jobs.push(v.then((verdict) => (verdict ? void verdictOf.set(p, verdict) : probe([p]))));
      else late.push(p);
    }
    await Promise.all([...jobs, probe(late)]);
  }
  const elements: SnapshotElement[] = [];
  // The boxes of each ref's refs inside it (set on the container's entry below).
  const inner = new Map<Pending, Rect[]>();
  const entries = new Map<Pending, RefEntry>();
  for (const p of pending) {
    const v = verdictOf.get(p);
    if (v && !v.ok) continue;
    const entry = refs.refFor(p.l.session.id, p.l.session.targetId, p.frameId, p.node.backendDOMNodeId!);
    entries.set(p, entry);
    entry.role = p.role;
    entry.name = p.name;
    entry.box = p.box;
    entry.hitPoint = v?.ok ? v.point : undefined;
    entry.hoverAnchor = p.hoverAnchor;
    entry.inner = [];
    // Kept relative to the container's box, so they stay right when the page scrolls.
    const c = p.container;
    if (c) (inner.get(c) ?? inner.set(c, []).get(c)!).push({ x: p.box.x - c.box.x, y: p.box.y - c.box.y, width: p.box.width, height: p.box.height });
    const offscreen = p.visible === undefined;
    const states = offscreen ? [...p.states, "offscreen"] : p.states;
    const line: SnapshotLine = {
      depth: p.depth,
      ref: entry.ref,
      plain: sanitizeText(p.name),
      // A snapshot scoped to one element shows a field's value whole; a page snapshot cuts it.
      text: refLineText({ ref: entry.ref, role: p.role, name: p.name, value: p.value, states, valueMax: scope ? 20_000 : 80 }),
    };
    lines[p.lineIndex] = line;
    sources.set(line, { index: p.l.index, session: p.l.session.id, backendId: p.node.backendDOMNodeId! });
    elements.push({
      ref: entry.ref,
      role: p.role,
      name: sanitizeText(p.name),
      value: sanitizeText(p.value, 200),
      states,
      frameId: p.frameId,
      box: p.box,
      offscreen,
    });
  }
  for (const [p, boxes] of inner) {
    const entry = entries.get(p);
    if (entry) entry.inner = boxes;
  }
  const doc0 = root?.index.documents[0];
  return {
    url: sanitizeUrl(main?.url ?? doc0?.url ?? ""),
    title: sanitizeText(doc0?.title ?? "", 200),
    lines: fixDepths(groupLines(dropEchoes(lines.filter((x): x is SnapshotLine => x !== undefined)), (line) => sources.get(line))),
    elements,
    frameCount,
    layout,
  };
}

/** How a ref line reads: role, name, value and states. */
interface Look {
  readonly role: string;
  readonly name: string;
  readonly value: string;
  readonly states: string[];
  /** All the text the ref stands for (a region's name is cut): its children do not repeat it. */
  readonly context?: string;
}

/**
 * The role, name, value and states of an element that gets a ref. A widget the accessibility
 * tree knows reads with its role, name and states; a clickable region the shared rules found
 * reads with the rules' role (`regions.ts`), its visible text as its name, and a slider's
 * position or a custom select's current text as its value. A control without a name in words
 * is named by the shared order (`controlNameOf`: a title, a glyph, a ligature, an icon class,
 * the label before it, and last a class word marked "guess"); a field without a label by the
 * text before it. Text drawn at font-size 0 is left out of names; a field is never named by its
 * own content; a switch always says on or off; icon toggles say their state.
 */
function describe(l: SessionLayout, node: AXNode, role: string, axName: string, dom: DomNode | undefined, axAction: boolean, byId: Map<string, AXNode>): Look {
  let out: Look;
  if (!axAction && dom && !(dom.signs & (rules.signs.NATIVE | rules.signs.ROLE))) {
    const labelled = attrOf(l.index, dom, "aria-label") !== null || attrOf(l.index, dom, "aria-labelledby") !== null;
    const text = textOf(node, byId, l.index, false, dom) || (dom.hoverAnchor !== undefined ? domText(l.index, dom) : "");
    const look = regionLook(l.index, dom, text !== "" && !rules.symbolOnly(text));
    const keys = hiddenTextField(l.index, dom);
    if (keys) {
      // A terminal's screen: it passes the keys typed to a hidden field, so it reads as a text field.
      const label = attrOf(l.index, keys, "aria-label") ?? attrOf(l.index, keys, "placeholder") ?? "";
      return { role: "textbox", name: labelled ? axName : label || labelBefore(l.index, dom, true), value: rules.regionName(text), states: [], context: text };
    }
    if (look.role === "combobox") {
      // A custom select shows its current value; its name is the label before it.
      const value = text.split(/\s+/).filter((w) => !rules.symbolOnly(w)).join(" ");
      return { role: "combobox", name: labelled ? axName : labelBefore(l.index, dom, true), value: rules.regionName(value), states: look.states, context: text };
    }
    out = { role: look.role, name: labelled ? axName : rules.regionName(text), value: look.value, states: look.states, context: text };
  } else {
    // A label standing for its hidden control reads as that control.
    const standIn = role === "LabelText" && dom?.hiddenControl ? standInLook(dom.hiddenControl) : undefined;
    const editable = role === "generic" && !!axProp(node, "editable");
    const shownRole = editable ? "textbox" : standIn ? standIn.role : displayRole(role);
    const states = standIn?.states ?? axStates(node, role);
    // An editing host takes line breaks: it is a multi-line field, as a textarea is.
    if (axProp(node, "editable") === "richtext" && !states.includes("multiline") && (!dom || attrOf(l.index, dom, "aria-multiline") !== "false")) states.push("multiline");
    out = {
      role: shownRole,
      name: axName || (rules.nameFromContent(shownRole) ? textOf(node, byId, l.index, standIn !== undefined) : ""),
      // An editing host's value is its text, as for any other field.
      value: axString(node.value) || (editable ? textOf(node, byId, l.index) : ""),
      // A switch says on or off.
      states: shownRole === "switch" ? states.map((x) => (x === "checked" ? "on" : x === "unchecked" ? "off" : x)) : states,
    };
  }
  if (!dom) return out;
  if (!rules.nameFromContent(role) || !rules.nameFromContent(out.role)) {
    // A field without a label: the text before it in its row or field names it.
    return out.name ? out : { ...out, name: labelBefore(l.index, dom, true) };
  }
  const named = controlNameOf(l.index, dom, visibleName(l.index, dom, out.name));
  const toggles = toggleStates(l.index, dom);
  return { ...out, name: named.name, states: [...out.states, ...toggles, ...named.states] };
}

/** The rendered text inside a node (for an element the AX tree leaves out: hidden until hovered). */
function domText(index: DomIndex, node: DomNode): string {
  const parts: string[] = [];
  let budget = 100;
  const visit = (id: number): void => {
    if (--budget < 0) return;
    const n = index.nodes.get(id);
    if (!n) return;
    if (n.text !== undefined && !n.iconText) parts.push(n.text);
    for (const c of childrenOf(index, id)) visit(c);
  };
  visit(node.backendId);
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

/**
 * The DOM node behind an AX text node: its own, or for generated content (which has none) the
 * `::before`/`::after` pseudo-element the AX tree puts it under.
 */
function textDom(n: AXNode, byId: Map<string, AXNode>, index: DomIndex): DomNode | undefined {
  const id = n.backendDOMNodeId ?? (n.parentId === undefined ? undefined : byId.get(n.parentId)?.backendDOMNodeId);
  return id === undefined ? undefined : index.nodes.get(id);
}

/** Text content of a nameless clickable, from its StaticText descendants (and, with `ignoredText`, from text Chromium ignored). */
function textOf(node: AXNode, byId: Map<string, AXNode>, index: DomIndex, ignoredText = false, region?: DomNode): string {
  const parts: string[] = [];
  const visit = (n: AXNode, depth: number): void => {
    if (depth > 20 || parts.join(" ").length > 80) return;
    // Text drawn at font-size 0 is not shown to the user; an icon's text is not words.
    const dom = textDom(n, byId, index);
    // In a region, a glyph of a control inside it (a row's ☆) is that control's name, not the row's.
    const innerGlyph = region !== undefined && dom !== undefined && rules.symbolOnly(axString(n.name)) && insideInnerTarget(index, dom, region);
    if (axString(n.role) === "StaticText" && dom?.hiddenText === undefined && !dom?.iconText && !innerGlyph) parts.push(axString(n.name));
    // A redundant label's text, which Chromium ignores with it (`roleOf`): the rendered text, as the viewport-first read has it.
    else if (ignoredText && n.ignored && dom?.text && dom.box && !dom.axHiddenTree && !dom.iconText) parts.push(dom.text);
    for (const id of n.childIds ?? []) {
      const c = byId.get(id);
      if (c) visit(c, depth + 1);
    }
  };
  visit(node, 0);
  return parts.join(" ").trim();
}

/** Whether a node lies inside a target that is itself inside `region` (a control in a clickable row). */
function insideInnerTarget(index: DomIndex, dom: DomNode, region: DomNode): boolean {
  for (let cur: DomNode | undefined = dom, hops = 0; cur && cur !== region && hops < 30; hops++) {
    if (cur.target && cur.backendId !== region.backendId) return true;
    cur = cur.parent === undefined ? undefined : index.nodes.get(cur.parent);
  }
  return false;
}

/**
 * Children of a dropped (occluded) element were indented under it; pull every line up so no
 * line is deeper than one level below the line before it.
 */
function fixDepths(lines: SnapshotLine[]): SnapshotLine[] {
  const out: SnapshotLine[] = [];
  let prev = -1;
  for (const line of lines) {
    const depth = Math.min(line.depth, prev + 1);
    out.push(depth === line.depth ? line : { ...line, depth });
    prev = depth;
  }
  return out;
}

