import type { AXNode } from "../cdp/protocol.js";
import { documentToViewport, intersect } from "./coordinates.js";
import type { SessionLayout } from "./frame-layout.js";
import type { PageSession } from "./page-session.js";

/**
 * Documents with more elements than this are read viewport-first: `getFullAXTree` on a
 * 5,000-node page is a 4 MB reply that takes hundreds of milliseconds, while the viewport
 * rarely holds more than a few hundred nodes.
 */
export const largeDocumentElements = 3000;

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
 * The AX nodes of only the DOM nodes visible in the viewport (from the session's DOMSnapshot
 * and frame origins), fetched node by node and pipelined, then linked into one tree per
 * document by DOM ancestry so the snapshot walker reads them like a full tree.
 */
export async function readViewportAx(page: PageSession, l: SessionLayout): Promise<void> {
  const wanted: { backendId: number; doc: number }[] = [];
  for (const node of l.index.nodes.values()) {
    const origin = l.docOrigins[node.doc];
    if (!node.box || !origin) continue;
    // Iframe owners always count: their documents are placed from them.
    if (node.contentDoc === undefined && (node.box.width <= 0 || node.box.height <= 0)) continue;
    if (!intersect(documentToViewport(node.box, origin), origin.clip) && node.contentDoc === undefined) continue;
    wanted.push({ backendId: node.backendId, doc: node.doc });
  }
  const fetched = await Promise.all(
    wanted.map((w) =>
      page
        .send<{ nodes: AXNode[] }>("Accessibility.getPartialAXTree", { backendNodeId: w.backendId, fetchRelatives: false }, l.session.id)
        .then((r) => r.nodes.find((n) => n.backendDOMNodeId === w.backendId))
        .catch(() => undefined),
    ),
  );
  const byBackend = new Map<number, AXNode>();
  fetched.forEach((n, i) => {
    if (n) byBackend.set(wanted[i]!.backendId, { ...n, childIds: [] });
  });
  const order = new Map<number, number>();
  let k = 0;
  for (const id of l.index.nodes.keys()) order.set(id, k++);
  l.index.documents.forEach((doc, docIdx) => {
    const root: AXNode = { nodeId: `baton-root-${docIdx}`, ignored: false, role: { type: "role", value: "RootWebArea" }, childIds: [] };
    const nodes: AXNode[] = [root];
    const members = wanted.filter((w) => w.doc === docIdx && byBackend.has(w.backendId));
    members.sort((a, b) => (order.get(a.backendId) ?? 0) - (order.get(b.backendId) ?? 0));
    for (const m of members) {
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
