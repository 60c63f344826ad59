import { batchHitTest, type LightCandidate } from "./batch-occlusion.js";
import { documentToViewport, probePoints, type Rect } from "../base/coordinates.js";
import type { EarlyRootLayout } from "../read/layout.js";
import { visibleRect } from "../read/visible-rect.js";
import { filterOccluded, type HitCandidate, type HitVerdict } from "./occlusion.js";
import type { PageSession } from "../page/page-session.js";

/** More guesses than this and the early probes would cost more than the round trip they save. */
const maxEarlyProbes = 600;

/** Hit tests started from the top document's DOMSnapshot, before the AX trees arrived. */
export interface EarlyProbes {
  /** The verdict for an element, if it was probed early at exactly this visible rectangle. */
  take(sessionId: string, backendId: number, visible: Rect): Promise<HitVerdict | undefined> | undefined;
}

/**
 * Starts hit tests for the top document's likely controls as soon as its layout is known. The
 * renderer answers them right after the AX tree it is still serialising, so the snapshot no
 * longer waits for a second round trip after the AX reply. Light-tree elements are tested in
 * one page call (`batchHitTest`); shadow-tree ones, or all of them when the batch cannot run,
 * by per-point `DOM.getNodeForLocation`. The probes are exactly the ones the snapshot would
 * make (same layout, rectangle and points), so a verdict is reused only for the same element at
 * the same rectangle; every other candidate is probed as before.
 */
export function startEarlyProbes(page: PageSession, early: EarlyRootLayout, world: Promise<number | undefined>): EarlyProbes {
  const l = early.layout;
  const origin = l.docOrigins[0];
  const light: LightCandidate[] = [];
  const other: HitCandidate[] = [];
  if (origin) {
    for (const node of l.index.nodes.values()) {
      if (node.doc !== 0 || !node.likelyActionable || !node.box || node.invisible) continue;
      if (node.box.width <= 0 || node.box.height <= 0) continue;
      const box = documentToViewport(node.box, origin);
      const visible = visibleRect(l, node);
      if (!visible) continue;
      const candidate: HitCandidate = { sessionId: l.session.id, backendId: node.backendId, visible };
      if (node.lightIndex === undefined) other.push(candidate);
      else light.push({ candidate, box, lightIndex: node.lightIndex, nodeName: node.nodeName, points: probePoints(visible) });
      if (light.length + other.length > maxEarlyProbes) return { take: () => undefined };
    }
  }
  if (light.length + other.length === 0) return { take: () => undefined };
  light.sort((a, b) => a.lightIndex - b.lightIndex);
  const lightVerdicts = world
    .then((contextId) => (contextId === undefined ? undefined : batchHitTest(page, contextId, l.index.lightElements, light)))
    .then(async (v): Promise<(HitVerdict | undefined)[]> => {
      // The batch could not run, or could not confirm some elements: probe those point by point.
      const redo = light.map((_, i) => i).filter((i) => v?.[i] === undefined);
      if (redo.length === 0) return v ?? [];
      const again = await filterOccluded(page, early, redo.map((i) => light[i]!.candidate));
      const out = v ? [...v] : light.map(() => undefined);
      redo.forEach((i, k) => (out[i] = again[k]));
      return out;
    })
    .catch(() => undefined);
  const otherVerdicts = filterOccluded(page, early, other).catch(() => undefined);
  const byId = new Map<number, { c: HitCandidate; verdict: () => Promise<HitVerdict | undefined> }>();
  light.forEach((x, i) => byId.set(x.candidate.backendId, { c: x.candidate, verdict: () => lightVerdicts.then((v) => v?.[i]) }));
  other.forEach((c, i) => byId.set(c.backendId, { c, verdict: () => otherVerdicts.then((v) => v?.[i]) }));
  return {
    take(sessionId, backendId, visible) {
      const hit = byId.get(backendId);
      if (!hit || sessionId !== l.session.id || !sameRect(hit.c.visible, visible)) return undefined;
      return hit.verdict();
    },
  };
}

function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}
