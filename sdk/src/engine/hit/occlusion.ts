import { type Point, probePoints, type Rect, viewportToDocument } from "../base/coordinates.js";
import { isInside } from "../read/dom-index.js";
import type { PageLayout } from "../read/layout.js";
import type { PageSession } from "../page/page-session.js";

/** What hit testing reads from a layout: each session's DOM index, origins and owner. */
export type HitLayout = Pick<PageLayout, "sessions">;

/** An element to hit-test: where it is visible, and who renders it. */
export interface HitCandidate {
  readonly sessionId: string;
  readonly backendId: number;
  /** The part of the element inside the viewport and its frames' clips. */
  readonly visible: Rect;
}

/** The outcome of hit-testing one candidate. */
export type HitVerdict =
  | { readonly ok: true; readonly point: Point }
  | { readonly ok: false; readonly point: Point; readonly coveredBy: number | undefined; readonly coveredIn: string };

interface NodeAt {
  backendNodeId: number;
}

/**
 * Asks the browser what is actually at a point, frame by frame down the session chain. The
 * answer is accepted when it is the element, inside it, or an ancestor of it (descendant-
 * accepting and recall-biased); a label counts for its control; an unanswerable probe passes.
 */
export async function hitTest(page: PageSession, layout: HitLayout, c: HitCandidate, point: Point): Promise<HitVerdict> {
  const chain: string[] = [];
  for (let id: string | undefined = c.sessionId; id !== undefined; id = page.sessions.get(id)?.parentId) {
    chain.unshift(id);
    if (chain.length > 20) break;
  }
  const checks = chain.map(async (sid, i) => {
    const l = layout.sessions.get(sid);
    const origin = l?.docOrigins[0];
    if (!l || !origin) return { ok: true as const };
    const p = viewportToDocument(point, origin);
    let hit: NodeAt;
    try {
      hit = await page.send<NodeAt>(
        "DOM.getNodeForLocation",
        { x: Math.round(p.x), y: Math.round(p.y), includeUserAgentShadowDOM: false, ignorePointerEventsNone: false },
        sid,
      );
    } catch {
      return { ok: true as const };
    }
    const isLast = i === chain.length - 1;
    if (!isLast) {
      const next = layout.sessions.get(chain[i + 1] ?? "");
      const owner = next?.ownerBackendId;
      const ok = owner === undefined || hit.backendNodeId === owner || isInside(l.index, owner, hit.backendNodeId);
      return ok ? { ok: true as const } : { ok: false as const, by: hit.backendNodeId, sid };
    }
    const target = c.backendId;
    const h = hit.backendNodeId;
    const ok =
      isInside(l.index, h, target) ||
      isInside(l.index, target, h) ||
      l.index.nodes.get(h)?.nodeName === "LABEL" ||
      !l.index.nodes.has(h);
    return ok ? { ok: true as const } : { ok: false as const, by: h, sid };
  });
  const results = await Promise.all(checks);
  for (const r of results) if (!r.ok) return { ok: false, point, coveredBy: r.by, coveredIn: r.sid };
  return { ok: true, point };
}

/**
 * Hit-tests every candidate: the centre first, then quadrant points for the ones that failed,
 * all pipelined. Returns the first verdict that passed, or the centre's failure.
 */
export async function filterOccluded(
  page: PageSession,
  layout: HitLayout,
  candidates: readonly HitCandidate[],
): Promise<HitVerdict[]> {
  const points = candidates.map((c) => probePoints(c.visible));
  const first = await Promise.all(candidates.map((c, i) => hitTest(page, layout, c, points[i]![0]!)));
  // Failed centres: probe all their other points at once, first passing point wins.
  await Promise.all(
    first.map(async (v, i) => {
      if (v.ok) return;
      const c = candidates[i]!;
      const again = await Promise.all(points[i]!.slice(1).map((p) => hitTest(page, layout, c, p)));
      const pass = again.find((r) => r.ok);
      if (pass) first[i] = pass;
    }),
  );
  return first;
}
