import type { CaptureSnapshotResult, DocumentSnapshot } from "../../cdp/protocol.js";
import type { ScreenMask } from "../../contract/index.js";
import { documentToViewport, type Rect, topFrameOrigin } from "../base/coordinates.js";
import type { PageSession } from "../page/page-session.js";

/** The boxes to paint over in one frame, in the coordinates the paint is placed in. */
export interface FrameBoxes {
  /** The session that renders the frame. */
  readonly sessionId: string;
  readonly frameId: string;
  readonly boxes: readonly Rect[];
}

/**
 * Where boxes are placed: "viewport" in the frame's own viewport (a fixed overlay, for a shot
 * of what is on screen), "document" in its document (an overlay that scrolls with the page,
 * for a full-page shot).
 */
export type BoxPlace = "viewport" | "document";

/** Styles the snapshot asks for: whether an element starts a block (a run of text ends there). */
const maskStyles = ["display"] as const;

/** Display values whose element's text flows on with its neighbours' (a run crosses them). */
function inline(display: string): boolean {
  return display === "" || display === "contents" || display.startsWith("inline") || display.startsWith("ruby");
}

/**
 * The boxes of one document that show a secret: every `<input>` or `<textarea>` whose value
 * shows one; every text node whose rendered text (after `text-transform`) echoes one; and,
 * for a secret split over several text nodes (spelled out in `<span>`s, bold in the middle),
 * the box of the block that holds the run, when no single node of the run shows it alone.
 */
function documentBoxes(doc: DocumentSnapshot, strings: readonly string[], mask: ScreenMask): Rect[] {
  const str = (i: number | undefined) => (i === undefined || i < 0 ? "" : (strings[i] ?? ""));
  const n = doc.nodes;
  const parents = n.parentIndex ?? [];
  const types = n.nodeType ?? [];
  const values = n.nodeValue ?? [];
  const bounds = new Map<number, Rect>();
  const display = new Map<number, string>();
  const rendered = new Map<number, string>();
  const l = doc.layout;
  for (let i = 0; i < l.nodeIndex.length; i++) {
    const ni = l.nodeIndex[i] ?? -1;
    const b = l.bounds[i];
    if (b && !bounds.has(ni)) bounds.set(ni, { x: b[0] ?? 0, y: b[1] ?? 0, width: b[2] ?? 0, height: b[3] ?? 0 });
    if (!display.has(ni)) display.set(ni, str(l.styles[i]?.[0]));
    const t = l.text?.[i];
    if (t !== undefined && t >= 0) rendered.set(ni, (rendered.get(ni) ?? "") + str(t));
  }
  const out: Rect[] = [];
  const add = (i: number) => {
    const b = bounds.get(i);
    if (b && b.width > 0 && b.height > 0) out.push(b);
  };
  // Field values: the whole field is painted.
  for (const rare of [n.inputValue, n.textValue]) {
    rare?.index.forEach((ni, k) => {
      const v = str(rare.value[k]);
      if (v && mask.shows(v)) add(ni);
    });
  }
  // Text nodes, alone and as runs within their block.
  const blockOf = new Map<number, number>();
  const block = (i: number): number => {
    const known = blockOf.get(i);
    if (known !== undefined) return known;
    let p = parents[i] ?? -1;
    while (p >= 0 && (!bounds.has(p) || inline(display.get(p) ?? ""))) p = parents[p] ?? -1;
    blockOf.set(i, p);
    return p;
  };
  const runs = new Map<number, { texts: string[]; hit: boolean }>();
  for (let i = 0; i < types.length; i++) {
    if (types[i] !== 3 || !bounds.has(i)) continue;
    const shown = rendered.get(i);
    const raw = str(values[i]);
    if (!shown?.trim() && !raw.trim()) continue;
    const run = runs.get(block(i)) ?? { texts: [], hit: false };
    runs.set(block(i), run);
    if ((shown !== undefined && mask.shows(shown)) || mask.shows(raw)) {
      add(i);
      // The rest of the run is still read: it may hold another echo of its own.
      run.texts.push(" ");
      continue;
    }
    run.texts.push(shown ?? raw);
  }
  for (const [b, run] of runs) {
    if (b >= 0 && run.texts.length > 1 && mask.shows(run.texts.join(""))) add(b);
  }
  return out;
}

/**
 * Finds, in every frame of the page (the top document, same-process frames and out-of-process
 * frames, open and closed shadow roots), the boxes to paint over before a screenshot: one
 * `DOMSnapshot` per session, matched against `mask` here, so no secret value is sent to any
 * page. Boxes are placed with the one coordinates module: frame-local to the frame's own
 * viewport for "viewport", as they are for "document".
 */
export async function secretBoxes(page: PageSession, mask: ScreenMask, place: BoxPlace): Promise<FrameBoxes[]> {
  const sessions = [...page.sessions.values()];
  const reads = await Promise.all(
    sessions.map(async (s) => {
      const snap = await page.send<CaptureSnapshotResult>(
        "DOMSnapshot.captureSnapshot",
        { computedStyles: [...maskStyles], includeDOMRects: false, includePaintOrder: false },
        s.id,
      );
      return { sessionId: s.id, snap };
    }),
  );
  const out: FrameBoxes[] = [];
  for (const { sessionId, snap } of reads) {
    for (const doc of snap.documents) {
      const found = documentBoxes(doc, snap.strings, mask);
      if (found.length === 0) continue;
      const frameId = snap.strings[doc.frameId] ?? "";
      const own = topFrameOrigin({ x: 0, y: 0, width: 0, height: 0 }, doc.scrollOffsetX ?? 0, doc.scrollOffsetY ?? 0);
      const boxes = place === "viewport" ? found.map((b) => documentToViewport(b, own)) : found;
      out.push({ sessionId, frameId, boxes });
    }
  }
  return out;
}
