import type { AXNode } from "../../cdp/protocol.js";
import { invocation } from "../base/page-function.js";
import { topWorld } from "../page/worlds.js";
import { type ComputedAxItem, computedAxSupported, readComputedAx } from "./computed-ax.js";
import { documentToViewport, intersect } from "../base/coordinates.js";
import { rules } from "../in-page/element-rules.js";
import { attrOf, type DomNode, isInside } from "./dom-index.js";
import type { SessionLayout } from "./layout.js";
import type { PageSession } from "../page/page-session.js";
import { documentSizeInPage } from "../in-page/document-size.js";

/** How big a document is, for choosing how to read its AX tree. */
export interface DocumentSize {
  /** Elements in the document. */
  readonly elements: number;
  /** Scrollable content area over viewport area (1 when everything fits). */
  readonly screens: number;
}

/**
 * Documents with more elements than this are always read viewport-first: `getFullAXTree` on a
 * 5,000-node page is a 4 MB reply that takes hundreds of milliseconds.
 */
export const largeDocumentElements = 3000;

/**
 * Below this many elements estimated off-screen, the whole tree is read: it is sent alongside
 * the DOMSnapshot, while the viewport-first read must wait for the DOMSnapshot and then pays
 * ~0.2 ms per element it fetches, so it only wins when most of the document is out of view
 * (measured with `npm run bench:snapshot`: /shop, 587 elements over 4 screens, 50 → 25 ms;
 * /app, 144 elements on about one screen, is faster whole).
 */
export const offscreenElements = 250;

/**
 * With Blink's computed role and name (`computed-ax.ts`), the viewport-first read fetches one
 * node per stateful element only, and none for the clickable regions the shared rules find
 * (they read from the DOM), so it wins from this many elements wherever they are
 * (`sdk/bench/ax-read-modes.ts`, 20 interleaved runs each: /apps/booking, 38 elements, 17.7 →
 * 13.3 ms; /apps/settings, 41, 10.8 → 9.8; /app, 144, 26.5 → 17.9; /toggles, 35, is faster
 * whole: 7.3 against 8.6).
 */
export const computedViewportElements = 36;

/**
 * Whether to read a document's AX tree viewport-first rather than whole; `computed` when the
 * top document's common elements can be read in one page call.
 */
export function viewportFirst(size: DocumentSize, computed = false): boolean {
  const offscreen = size.elements * (1 - 1 / Math.max(1, size.screens));
  return size.elements > largeDocumentElements || offscreen > offscreenElements || (computed && size.elements >= computedViewportElements);
}

/** The page expression `DocumentSize` is read with: element count and content/viewport area. */
export const documentSizeExpression: string = invocation(documentSizeInPage);

/** Whole AX trees of a session's frames, one `getFullAXTree` per frame, in parallel. */
export async function readFullAx(
  page: PageSession,
  sessionId: string,
  frames: readonly { id: string; root: boolean }[],
): Promise<Map<string, AXNode[]>> {
  const pairs = await Promise.all(
    frames.map(async (f) => {
      const r = await page
        .send<{ nodes: AXNode[] }>("Accessibility.getFullAXTree", f.root ? {} : { frameId: f.id }, sessionId)
        .catch(() => ({ nodes: [] as AXNode[] }));
      return [f.id, r.nodes] as const;
    }),
  );
  return new Map(pairs);
}

/**
 * A target of the shared rules that is neither a native control nor an ARIA widget, and has no
 * ARIA label: the snapshot reads it from the DOM alone (`snapshot/regions.ts`), so the
 * viewport-first read needs no AX node for it.
 */
function isPlainRegion(l: SessionLayout, n: DomNode): boolean {
  return (
    n.target &&
    !(n.signs & (rules.signs.NATIVE | rules.signs.ROLE)) &&
    attrOf(l.index, n, "aria-label") === null &&
    attrOf(l.index, n, "aria-labelledby") === null
  );
}

/**
 * A whole AX tree leaves out some elements entirely (an inline `<span>` whose only signs are a
 * listener or a pointer cursor). A target of the shared rules among them gets a node of its
 * own, as the viewport-first read gives it, with the nodes of its DOM subtree moved under it,
 * so both reads print the same.
 */
export function addMissingTargets(l: SessionLayout): void {
  let order: Map<number, number> | undefined;
  const position = (id: number | undefined): number => {
    if (!order) {
      order = new Map();
      let k = 0;
      for (const nid of l.index.nodes.keys()) order.set(nid, k++);
    }
    return id === undefined ? -1 : (order.get(id) ?? -1);
  };
  for (const [frameId, nodes] of l.ax) {
    const docIdx = l.index.documents.findIndex((d) => d.frameId === frameId);
    if (docIdx < 0 || nodes.length === 0) continue;
    const byBackend = new Map<number, AXNode>();
    for (const n of nodes) if (n.backendDOMNodeId !== undefined && !byBackend.has(n.backendDOMNodeId)) byBackend.set(n.backendDOMNodeId, n);
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    for (const dom of l.index.nodes.values()) {
      if (!dom.target || dom.doc !== docIdx || byBackend.has(dom.backendId)) continue;
      let parent: AXNode | undefined;
      for (let cur = dom.parent; cur !== undefined && !parent; cur = l.index.nodes.get(cur)?.parent) parent = byBackend.get(cur);
      if (!parent) continue;
      const node: AXNode = {
        nodeId: `baton-target-${dom.backendId}`,
        ignored: false,
        role: { type: "role", value: "generic" },
        name: { type: "computedString", value: "" },
        backendDOMNodeId: dom.backendId,
        parentId: parent.nodeId,
        childIds: [],
      };
      const kids = parent.childIds ?? [];
      const inside = (id: string): boolean => {
        const c = byId.get(id)?.backendDOMNodeId;
        return c !== undefined && isInside(l.index, c, dom.backendId);
      };
      node.childIds = kids.filter(inside);
      for (const id of node.childIds) byId.get(id)!.parentId = node.nodeId;
      const rest = kids.filter((id) => !inside(id));
      const at = position(dom.backendId);
      let insertAt = rest.findIndex((id) => position(byId.get(id)?.backendDOMNodeId) > at);
      if (insertAt < 0) insertAt = rest.length;
      rest.splice(insertAt, 0, node.nodeId);
      parent.childIds = rest;
      nodes.push(node);
      byBackend.set(dom.backendId, node);
      byId.set(node.nodeId, node);
    }
  }
}

/** The last viewport-first read's page-call items for a page's top document, to read again at once. */
interface AxPlan {
  readonly loaderId: string;
  readonly sessionId: string;
  readonly lightElements: number;
  readonly items: readonly ComputedAxItem[];
  /** Elements read node by node (`getPartialAXTree`), by backend id. */
  reads: readonly number[];
}

/** At most this many node-by-node reads are sent ahead. */
const maxSpeculativeReads = 24;

/** One element's AX node, read on its own (undefined when it is gone or has none). */
function readAxNode(page: PageSession, sessionId: string, backendId: number): Promise<AXNode | undefined> {
  return page
    .send<{ nodes: AXNode[] }>("Accessibility.getPartialAXTree", { backendNodeId: backendId, fetchRelatives: false }, sessionId)
    .then((r) => r.nodes.find((n) => n.backendDOMNodeId === backendId))
    .catch(() => undefined);
}

const axPlans = new WeakMap<PageSession, AxPlan>();

/** A computed-AX page call sent with a snapshot's first reads, for the items the last read asked about. */
export interface SpeculativeAx {
  readonly plan: AxPlan;
  readonly nodes: Promise<(AXNode | undefined)[] | undefined>;
  /** The plan's node-by-node reads, by backend id. */
  readonly reads: ReadonlyMap<number, Promise<AXNode | undefined>>;
}

/**
 * Sends, beside the DOMSnapshot, the computed-AX page call the last viewport-first read of the
 * same top document made. `readViewportAx` takes an answer from it only for an element that
 * is still the same light-tree index and tag in a document of the same element count (the
 * page call itself checks both against the live page); any other element is asked about as
 * before. Undefined when there is no such plan.
 */
export function startSpeculativeAx(page: PageSession): SpeculativeAx | undefined {
  const plan = axPlans.get(page);
  const main = page.mainFrame();
  if (!plan || !main || plan.loaderId !== main.loaderId || plan.sessionId !== page.rootId || !computedAxSupported(page)) return undefined;
  if (plan.items.length === 0 && plan.reads.length === 0) return undefined;
  const nodes = topWorld(page)
    .then((contextId) => (contextId === undefined ? undefined : readComputedAx(page, contextId, plan.lightElements, plan.items)))
    .catch(() => undefined);
  const reads = new Map(plan.reads.map((id) => [id, readAxNode(page, plan.sessionId, id)] as const));
  return { plan, nodes, reads };
}

/**
 * The viewport-first read: AX nodes for only the elements in view that the snapshot may print
 * (`DomNode.axWanted`: likely controls, frame owners, headings, images, dialogs): the top
 * document's common elements in one page call where the browser computes roles and names for
 * scripts (`computed-ax.ts`), the rest fetched node by node and pipelined; plus text nodes in
 * view as `StaticText` taken from the DOMSnapshot (skipping aria-hidden and inert subtrees);
 * all linked into one tree per document by DOM ancestry so the snapshot walker reads them like
 * a full tree. Chromium's cost is per AX node
 * serialised, so this beats `getFullAXTree` once a document is much larger than its viewport's
 * worth of controls.
 */
export async function readViewportAx(page: PageSession, l: SessionLayout, speculative?: SpeculativeAx): Promise<void> {
  const wanted: { backendId: number; doc: number }[] = [];
  const texts: { backendId: number; doc: number; text: string }[] = [];
  // Memo: whether a node lies in an aria-hidden or inert subtree (composed tree, same document),
  // or inside a laid-out control of zero size or hidden visibility, which hides its text too
  // (as the snapshot walker does with whole trees).
  const hiddenMemo = new Map<number, boolean>();
  const hidden = (id: number | undefined, doc: number): boolean => {
    const chain: number[] = [];
    let verdict = false;
    for (let cur = id; cur !== undefined; ) {
      const known = hiddenMemo.get(cur);
      if (known !== undefined) {
        verdict = known;
        break;
      }
      const n = l.index.nodes.get(cur);
      if (!n || n.doc !== doc) break;
      chain.push(cur);
      const collapsed = n.axWanted && n.box !== undefined && (n.invisible || n.box.width <= 0 || n.box.height <= 0);
      if (n.axHidden || collapsed) {
        verdict = true;
        break;
      }
      cur = n.parent;
    }
    for (const c of chain) hiddenMemo.set(c, verdict);
    return verdict;
  };
  const inView = (node: DomNode): boolean => {
    const origin = l.docOrigins[node.doc];
    return !!node.box && !!origin && node.box.width > 0 && node.box.height > 0 && intersect(documentToViewport(node.box, origin), origin.clip) !== undefined;
  };
  // Text outside the viewport still names a target in view (the tail of a row at the bottom).
  const insideTargetInView = (node: DomNode): boolean => {
    for (let cur = node.parent, hops = 0; cur !== undefined && hops < 30; hops++) {
      const n = l.index.nodes.get(cur);
      if (!n || n.doc !== node.doc) return false;
      if (n.axWanted) return n.target && inView(n);
      cur = n.parent;
    }
    return false;
  };
  for (const node of l.index.nodes.values()) {
    const origin = l.docOrigins[node.doc];
    if (!node.box || !origin) continue;
    const owner = node.contentDoc !== undefined;
    if (!owner && !node.axWanted && node.text === undefined) continue;
    // Iframe owners always count: their documents are placed from them.
    if (!owner && (node.box.width <= 0 || node.box.height <= 0)) continue;
    if (!owner && !intersect(documentToViewport(node.box, origin), origin.clip) && !(node.text !== undefined && insideTargetInView(node))) continue;
    if (node.text !== undefined) {
      if (!hidden(node.parent, node.doc)) texts.push({ backendId: node.backendId, doc: node.doc, text: node.text });
    } else {
      wanted.push({ backendId: node.backendId, doc: node.doc });
    }
  }
  // (Set below: the node-by-node reads the speculative call already sent, for this session.)
  let early: ReadonlyMap<number, Promise<AXNode | undefined>> | undefined;
  const readOne = (backendId: number): Promise<AXNode | undefined> => early?.get(backendId) ?? readAxNode(page, l.session.id, backendId);
  // Common elements of the top document (computed-ax.ts): role, name and state in one page
  // call, sent first; every other node, and any the call turns back, read one by one. The hit
  // world was made with the snapshot's first reads, so this await does not wait for Chromium.
  const contextId = l.session.id === page.rootId && computedAxSupported(page) ? await topWorld(page) : undefined;
  const quick: ComputedAxItem[] = [];
  const rest: number[] = [];
  const regions: number[] = [];
  for (const w of wanted) {
    const n = l.index.nodes.get(w.backendId);
    if (n && isPlainRegion(l, n)) {
      regions.push(w.backendId);
    } else if (contextId !== undefined && n?.computedAx && n.lightIndex !== undefined && !n.axHiddenTree) {
      quick.push({ backendId: w.backendId, lightIndex: n.lightIndex, nodeName: n.nodeName });
    } else {
      rest.push(w.backendId);
    }
  }
  const main = page.mainFrame();
  const plan: AxPlan | undefined =
    contextId !== undefined && main ? { loaderId: main.loaderId, sessionId: l.session.id, lightElements: l.index.lightElements, items: quick, reads: [] } : undefined;
  if (plan) axPlans.set(page, plan);
  // Items the speculative call asked about exactly so are taken from it; the rest asked now.
  // (A node read ahead is the same node by its backend id, read live beside the DOMSnapshot.)
  if (speculative?.plan.sessionId === l.session.id) early = speculative.reads;
  const spec = speculative && speculative.plan.sessionId === l.session.id && speculative.plan.lightElements === l.index.lightElements ? speculative : undefined;
  const planned = new Map<number, number>();
  spec?.plan.items.forEach((x, j) => planned.set(x.backendId, j));
  const reused: { i: number; j: number }[] = [];
  const fresh: number[] = [];
  quick.forEach((q, i) => {
    const j = planned.get(q.backendId);
    const x = j === undefined ? undefined : spec?.plan.items[j];
    if (x && j !== undefined && x.lightIndex === q.lightIndex && x.nodeName === q.nodeName) reused.push({ i, j });
    else fresh.push(i);
  });
  const freshP =
    contextId === undefined || fresh.length === 0
      ? Promise.resolve([])
      : readComputedAx(page, contextId, l.index.lightElements, fresh.map((i) => quick[i]!));
  const quickP = Promise.all([spec?.nodes, freshP]).then(([sv, fv]) => {
    // A call that could not run leaves its items to the AX read, as a turned-back element.
    const out: (AXNode | undefined)[] = quick.map(() => undefined);
    for (const { i, j } of reused) out[i] = sv?.[j];
    fresh.forEach((i, k) => (out[i] = fv?.[k]));
    return out;
  });
  const restP = Promise.all(rest.map(readOne));
  const quickNodes = await quickP;
  const again = quick.filter((_, i) => quickNodes?.[i] === undefined).map((q) => q.backendId);
  if (plan) plan.reads = [...rest, ...again].slice(0, maxSpeculativeReads);
  const [restNodes, againNodes] = await Promise.all([restP, Promise.all(again.map(readOne))]);
  const byBackend = new Map<number, AXNode>();
  const keep = (ids: readonly number[], nodes: readonly (AXNode | undefined)[]): void =>
    ids.forEach((id, i) => {
      const n = nodes[i];
      if (n) byBackend.set(id, { ...n, childIds: [] });
    });
  keep(quick.map((q) => q.backendId), quickNodes ?? []);
  keep(rest, restNodes);
  keep(again, againNodes);
  // A clickable region reads from the DOM alone (the snapshot takes its role, name and states
  // from the shared rules): no AX read, just a node to hang its text on.
  for (const id of regions) {
    byBackend.set(id, { nodeId: `baton-region-${id}`, ignored: false, role: { type: "role", value: "generic" }, name: { type: "computedString", value: "" }, backendDOMNodeId: id, childIds: [] });
  }
  for (const t of texts) {
    byBackend.set(t.backendId, {
      nodeId: `baton-text-${t.backendId}`,
      ignored: false,
      role: { type: "role", value: "StaticText" },
      name: { type: "computedString", value: t.text },
      backendDOMNodeId: t.backendId,
      childIds: [],
    });
  }
  const members = [...wanted, ...texts].filter((m) => byBackend.has(m.backendId));
  const order = new Map<number, number>();
  let k = 0;
  for (const id of l.index.nodes.keys()) order.set(id, k++);
  members.sort((a, b) => (order.get(a.backendId) ?? 0) - (order.get(b.backendId) ?? 0));
  l.index.documents.forEach((doc, docIdx) => {
    const root: AXNode = { nodeId: `baton-root-${docIdx}`, ignored: false, role: { type: "role", value: "RootWebArea" }, childIds: [] };
    const nodes: AXNode[] = [root];
    for (const m of members) {
      if (m.doc !== docIdx) continue;
      const ax = byBackend.get(m.backendId)!;
      // Parent: the nearest DOM ancestor in the same document that has an AX node here.
      let parent: AXNode = root;
      for (let cur = l.index.nodes.get(m.backendId)?.parent; cur !== undefined; cur = l.index.nodes.get(cur)?.parent) {
        const dom = l.index.nodes.get(cur);
        if (!dom || dom.doc !== docIdx) break;
        const hit = byBackend.get(cur);
        if (hit) {
          parent = hit;
          break;
        }
      }
      ax.parentId = parent.nodeId;
      parent.childIds!.push(ax.nodeId);
      nodes.push(ax);
    }
    if (doc.frameId) l.ax.set(doc.frameId, nodes);
  });
}
