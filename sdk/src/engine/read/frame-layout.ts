import type { AXNode, CaptureSnapshotResult, LayoutMetrics } from "../../cdp/protocol.js";
import { childFrameOrigin, type FrameOrigin, quadToRect, type Rect, sessionToViewport, topFrameOrigin } from "../base/coordinates.js";
import { type DomIndex, indexDomSnapshot, snapshotStyles } from "./dom-index.js";
import {
  addMissingTargets,
  type DocumentSize,
  documentSizeExpression,
  readFullAx,
  readViewportAx,
  type SpeculativeAx,
  startSpeculativeAx,
  viewportFirst,
} from "./ax-read.js";
import { computedAxSupported } from "./computed-ax.js";
import { hoverReveals } from "./hover-reveal.js";
import { clickListeners } from "./listeners.js";
import type { PageSession } from "../page/page-session.js";
import type { EarlyRootLayout, PageLayout, SessionLayout } from "./layout.js";

/** Sizes of documents already seen, keyed by session and document (loader) id. */
const documentSizes = new Map<string, DocumentSize>();

function rememberSize(key: string, size: DocumentSize): void {
  documentSizes.set(key, size);
  // Bounded: the oldest entries go first.
  if (documentSizes.size > 500) documentSizes.delete(documentSizes.keys().next().value!);
}

/** Options of `readPageLayout`. */
export interface ReadLayoutOptions {
  /** Read AX trees too (default true); actions only need layout. */
  axTrees?: boolean;
  /** Read whole AX trees even for large documents (off-screen listings need every node). */
  wholePage?: boolean;
  /**
   * How to read AX trees: "auto" (default) chooses per document by size (`viewportFirst`),
   * "whole" always reads whole trees, "viewport" always reads viewport-first (tests compare
   * the two). `wholePage` overrides it.
   */
  axRead?: "auto" | "whole" | "viewport";
  /**
   * The top document's hit world: when given, its hover-revealed elements are read there
   * beside the DOMSnapshot (`read/hover-reveal.ts`), so the index counts them as shown.
   */
  hoverWorld?: Promise<number | undefined>;
  /** Called once with the top document's layout before the AX trees arrive. */
  onRootLayout?: (early: EarlyRootLayout) => void;
}

/** The top-level frame's origin from the layout metrics and the top document's scroll. */
function rootOrigin(metrics: LayoutMetrics, index: DomIndex): { viewport: Rect; origin: FrameOrigin } {
  const vv = metrics.cssVisualViewport;
  const lv = metrics.cssLayoutViewport;
  const viewport: Rect = { x: 0, y: 0, width: vv.clientWidth || lv.clientWidth, height: vv.clientHeight || lv.clientHeight };
  const doc0 = index.documents[0];
  return { viewport, origin: topFrameOrigin(viewport, doc0?.scrollX ?? lv.pageX, doc0?.scrollY ?? lv.pageY) };
}

/**
 * Reads every session of the page in parallel (DOMSnapshot, AX trees, frame owners), then
 * places every document in top-level viewport coordinates, parents before children.
 */
export async function readPageLayout(page: PageSession, options: ReadLayoutOptions = {}): Promise<PageLayout> {
  const withAx = options.axTrees !== false;
  const partial = new Set<string>();
  const sessions = [...page.sessions.values()];
  let rootSpeculation: SpeculativeAx | undefined;
  const metricsP = page.send<LayoutMetrics>("Page.getLayoutMetrics");
  const reads = sessions.map(async (session) => {
    const frames = withAx ? [...page.frames.values()].filter((f) => f.sessionId === session.id) : [];
    const snapP = page.send<CaptureSnapshotResult>(
      "DOMSnapshot.captureSnapshot",
      { computedStyles: [...snapshotStyles], includeDOMRects: false, includePaintOrder: false },
      session.id,
    );
    // Click-type listeners, read beside the DOMSnapshot and before the AX trees, so the index
    // (and the early hit tests) need not wait for those (snapshots only: actions need boxes).
    const loaderId = page.frames.get(session.frameId ?? page.mainFrame()?.id ?? "")?.loaderId ?? "";
    const listenersP = withAx ? clickListeners(page, session.id, loaderId) : Promise.resolve(undefined);
    const hoverP =
      session.id === page.rootId && options.hoverWorld
        ? options.hoverWorld.then((contextId) => (contextId === undefined ? undefined : hoverReveals(page, contextId)))
        : Promise.resolve(undefined);
    // The last viewport-first read's page call, sent now (it is only used where it still fits).
    if (session.id === page.rootId && withAx && !options.wholePage && options.axRead !== "whole") rootSpeculation = startSpeculativeAx(page);
    const full = frames.map((f) => ({
      id: f.id,
      root: session.parentId === undefined ? !f.parentId : f.id === session.frameId,
    }));
    // One cheap count decides between whole AX trees and the viewport-first read; a document
    // already counted (same session, same main-frame document) is not counted again.
    const sizeKey = `${session.id}|${page.frames.get(session.frameId ?? page.mainFrame()?.id ?? "")?.loaderId ?? ""}`;
    const known = documentSizes.get(sizeKey);
    const sizeP: Promise<DocumentSize | undefined> =
      known !== undefined
        ? Promise.resolve(known)
        : withAx && !options.wholePage && (options.axRead ?? "auto") === "auto"
        ? page
            .send<{ result: { value?: [number, number] } }>("Runtime.evaluate", { expression: documentSizeExpression, returnByValue: true }, session.id)
            .then((r) => (r.result.value ? { elements: r.result.value[0], screens: r.result.value[1] } : undefined))
            .catch(() => undefined)
        : Promise.resolve(undefined);
    const axP = sizeP.then((size) => {
      if (known === undefined && size) rememberSize(sizeKey, size);
      const mode = options.axRead ?? "auto";
      if (!options.wholePage && (mode === "viewport" || (mode === "auto" && size && viewportFirst(size, session.id === page.rootId && computedAxSupported(page))))) {
        partial.add(session.id);
        return new Map<string, AXNode[]>();
      }
      return readFullAx(page, session.id, full);
    });
    const ownerP =
      session.parentId !== undefined && session.frameId
        ? page
            .send<{ backendNodeId: number }>("DOM.getFrameOwner", { frameId: session.frameId }, session.parentId)
            .then((r) => r.backendNodeId)
            .catch(() => undefined)
        : Promise.resolve(undefined);
    // Index the DOMSnapshot as soon as it arrives, while the AX trees are still on the wire.
    const snapOrEmpty = session.id === page.rootId ? snapP : snapP.catch(() => ({ documents: [], strings: [] }));
    const layoutP = Promise.all([snapOrEmpty, listenersP, hoverP]).then(([snap, listeners, hover]): SessionLayout => {
      const index = indexDomSnapshot(snap, listeners, hover);
      for (const d of index.documents) {
        const f = page.frames.get(d.frameId);
        if (f) f.docUrl = d.url;
      }
      return { session, index, ax: new Map(), docOrigins: [], ownerBackendId: undefined };
    });
    if (session.id === page.rootId && options.onRootLayout) {
      const hook = options.onRootLayout;
      void Promise.all([layoutP, metricsP])
        .then(([l, metrics]) => {
          l.docOrigins[0] = rootOrigin(metrics, l.index).origin;
          hook({ layout: l, sessions: new Map([[session.id, l]]) });
        })
        .catch(() => undefined);
    }
    const [layout, ax, owner] = await Promise.all([layoutP, axP, ownerP]);
    const { index } = layout;
    for (const [frameId, nodes] of ax) layout.ax.set(frameId, nodes);
    if (!partial.has(session.id)) addMissingTargets(layout);
    layout.ownerBackendId = owner;
    // Keep the size current for the next read: documents grow and shrink under one loader.
    let elements = 0;
    for (const n of index.nodes.values()) if (!n.nodeName.startsWith("#")) elements++;
    if (elements > 0) rememberSize(sizeKey, { elements, screens: documentSizes.get(sizeKey)?.screens ?? 1 });
    // Frames the registry did not know yet (added since the last event) still get read.
    for (const doc of index.documents) {
      if (withAx && !partial.has(session.id) && doc.frameId && !layout.ax.has(doc.frameId)) {
        const r = await page
          .send<{ nodes: AXNode[] }>("Accessibility.getFullAXTree", { frameId: doc.frameId }, session.id)
          .catch(() => ({ nodes: [] as AXNode[] }));
        layout.ax.set(doc.frameId, r.nodes);
      }
    }
    return layout;
  });
  const [metrics, ...layouts] = await Promise.all([metricsP, ...reads]);
  const byId = new Map(layouts.map((l) => [l.session.id, l]));
  const root = byId.get(page.rootId);
  const { viewport, origin: topOrigin } = rootOrigin(metrics, root?.index ?? { nodes: new Map(), documents: [], lightElements: 0, strings: [], hiddenTexts: [], iconTexts: [] });

  // Owner content boxes, all in parallel: same-process child documents and OOPIF owners.
  const boxOf = (backendNodeId: number, sessionId: string): Promise<Rect | undefined> =>
    page
      .send<{ model: { content: number[] } }>("DOM.getBoxModel", { backendNodeId }, sessionId)
      .then((r) => quadToRect(r.model.content))
      .catch(() => undefined);
  const childBoxes = new Map<string, Rect | undefined>();
  await Promise.all(
    layouts.flatMap((l) => {
      const jobs: Promise<void>[] = [];
      l.index.documents.forEach((doc, i) => {
        if (i > 0 && doc.ownerBackendId !== undefined) {
          const owner = doc.ownerBackendId;
          jobs.push(boxOf(owner, l.session.id).then((b) => void childBoxes.set(`${l.session.id}:${i}`, b)));
        }
      });
      if (l.session.parentId !== undefined && l.ownerBackendId !== undefined) {
        const parentId = l.session.parentId;
        const owner = l.ownerBackendId;
        jobs.push(boxOf(owner, parentId).then((b) => void childBoxes.set(`${l.session.id}:owner`, b)));
      }
      return jobs;
    }),
  );

  // Place documents top-down: a session's root document, then its same-process children.
  const hidden: FrameOrigin = { x: 0, y: 0, scrollX: 0, scrollY: 0, clip: { x: 0, y: 0, width: 0, height: 0 } };
  const place = (l: SessionLayout, rootOrigin: FrameOrigin): void => {
    const docs = l.index.documents;
    const origins: (FrameOrigin | undefined)[] = docs.map((_, i) => (i === 0 ? rootOrigin : undefined));
    const resolve = (i: number, depth = 0): FrameOrigin => {
      const known = origins[i];
      if (known) return known;
      const doc = docs[i];
      const ownerNode = doc?.ownerBackendId === undefined ? undefined : l.index.nodes.get(doc.ownerBackendId);
      const box = childBoxes.get(`${l.session.id}:${i}`);
      if (!doc || !ownerNode || !box || depth > 50) return hidden;
      const parent = resolve(ownerNode.doc, depth + 1);
      const o = childFrameOrigin(parent, sessionToViewport(box, rootOrigin), doc.scrollX, doc.scrollY);
      origins[i] = o;
      return o;
    };
    // By index: the top document's origin may already be set (by the early hook), identically.
    docs.forEach((_, i) => {
      l.docOrigins[i] = resolve(i);
    });
    for (const child of layouts) {
      if (child.session.parentId !== l.session.id) continue;
      const ownerNode = child.ownerBackendId === undefined ? undefined : l.index.nodes.get(child.ownerBackendId);
      const box = childBoxes.get(`${child.session.id}:owner`);
      const doc0 = child.index.documents[0];
      if (!ownerNode || !box || !doc0) {
        place(child, hidden);
        continue;
      }
      const parentOrigin = l.docOrigins[ownerNode.doc] ?? hidden;
      place(child, childFrameOrigin(parentOrigin, sessionToViewport(box, rootOrigin), doc0.scrollX, doc0.scrollY));
    }
  };
  if (root) place(root, topOrigin);
  await Promise.all([...partial].map((id) => (byId.get(id) ? readViewportAx(page, byId.get(id)!, id === page.rootId ? rootSpeculation : undefined) : undefined)));
  return { viewport, metrics, sessions: byId };
}
