import type { CaptureSnapshotResult } from "../../cdp/protocol.js";
import { documentToViewport, type Rect, topFrameOrigin } from "../base/coordinates.js";
import { type FrameInfo, frameUrls, type PageSession } from "../page/page-session.js";
import type { BoxPlace, FrameBoxes } from "./secret-boxes.js";

/**
 * The frames of sites the policy refuses (`unreadable` of any URL the frame is known by, ""
 * when none is known yet), as boxes to paint over before a screenshot: each frame's `<iframe>` element, in
 * the frame that holds it, so what the refused site drew is covered whichever process drew it.
 * A refused frame inside another refused frame is covered by its parent's box. Throws when a
 * refused frame's element cannot be found: the caller then withholds the screenshot.
 */
export async function refusedFrameBoxes(page: PageSession, unreadable: (url: string) => boolean, place: BoxPlace): Promise<FrameBoxes[]> {
  const refused = [...page.frames.values()].filter((f) => f.parentId !== undefined && frameUrls(f).some(unreadable));
  const ids = new Set(refused.map((f) => f.id));
  const coveredAbove = (f: FrameInfo): boolean => {
    for (let p = f.parentId; p !== undefined; p = page.frames.get(p)?.parentId) if (ids.has(p)) return true;
    return false;
  };
  const byParent = new Map<string, FrameInfo[]>();
  for (const f of refused) if (!coveredAbove(f)) (byParent.get(f.parentId!) ?? byParent.set(f.parentId!, []).get(f.parentId!)!).push(f);
  const out: FrameBoxes[] = [];
  for (const [parentId, frames] of byParent) {
    const parent = page.frames.get(parentId);
    if (!parent) throw new Error(`the frame that holds ${frames[0]!.url || "a refused frame"} is not known`);
    const owners = await Promise.all(frames.map((f) => page.send<{ backendNodeId: number }>("DOM.getFrameOwner", { frameId: f.id }, parent.sessionId).then((r) => r.backendNodeId)));
    const snap = await page.send<CaptureSnapshotResult>("DOMSnapshot.captureSnapshot", { computedStyles: [], includeDOMRects: false, includePaintOrder: false }, parent.sessionId);
    const doc = snap.documents.find((d) => snap.strings[d.frameId] === parentId);
    if (!doc) throw new Error("the document that holds a refused frame could not be read");
    const backend = doc.nodes.backendNodeId ?? [];
    const boxes: Rect[] = [];
    for (const owner of owners) {
      const node = backend.indexOf(owner);
      if (node < 0) throw new Error("a refused frame's element could not be found");
      const at = doc.layout.nodeIndex.indexOf(node);
      const b = at >= 0 ? doc.layout.bounds[at] : undefined;
      // Not laid out (display: none): nothing of it is drawn.
      if (b && (b[2] ?? 0) > 0 && (b[3] ?? 0) > 0) boxes.push({ x: b[0] ?? 0, y: b[1] ?? 0, width: b[2] ?? 0, height: b[3] ?? 0 });
    }
    if (boxes.length === 0) continue;
    const own = topFrameOrigin({ x: 0, y: 0, width: 0, height: 0 }, doc.scrollOffsetX ?? 0, doc.scrollOffsetY ?? 0);
    out.push({ sessionId: parent.sessionId, frameId: parentId, boxes: place === "viewport" ? boxes.map((b) => documentToViewport(b, own)) : boxes });
  }
  return out;
}
