import { batchHitTest, type LightCandidate } from "./batch-occlusion.js";
import { documentToViewport, probePoints, type Rect } from "../base/coordinates.js";
import type { EarlyRootLayout } from "../read/layout.js";
import { visibleRect } from "../read/visible-rect.js";
import { filterOccluded, type HitCandidate, type HitVerdict } from "./occlusion.js";
import type { PageSession } from "../page/page-session.js";

/** More guesses than this and the early probes would cost more than the round trip they save. */
const maxEarlyProbes = 600;

/** The last snapshot's light-tree candidates of a page's top document, to probe again at once. */
interface Plan {
  readonly loaderId: string;
  readonly sessionId: string;
  readonly lightElements: number;
  readonly light: readonly LightCandidate[];
}

const plans = new WeakMap<PageSession, Plan>();

/** Hit tests sent with a snapshot's first reads, for the elements the last snapshot probed. */
export interface SpeculativeProbes {
  readonly plan: Plan;
  readonly verdicts: Promise<(HitVerdict | undefined)[] | undefined>;
}

/**
 * Sends, beside the DOMSnapshot, the batched hit test the last snapshot of the same top
 * document made (same elements, boxes and points). `startEarlyProbes` takes a verdict from it
 * only for an element the new DOMSnapshot places exactly there again (same light-tree index,
 * tag, box and visible rectangle, same element count); every other candidate is probed once
 * the DOMSnapshot is in, as before. On a page that did not move, the snapshot then needs no
 * second wave of commands. Undefined when there is no such plan.
 */
export function startSpeculativeProbes(page: PageSession, world: Promise<number | undefined>): SpeculativeProbes | undefined {
  const plan = plans.get(page);
  const main = page.mainFrame();
  if (!plan || !main || plan.loaderId !== main.loaderId || plan.sessionId !== page.rootId || plan.light.length === 0) return undefined;
  const verdicts = world
    .then((contextId) => (contextId === undefined ? undefined : batchHitTest(page, contextId, plan.lightElements, plan.light)))
    .catch(() => undefined);
  return { plan, verdicts };
}

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
export function startEarlyProbes(
  page: PageSession,
  early: EarlyRootLayout,
  world: Promise<number | undefined>,
  speculative?: SpeculativeProbes,
): EarlyProbes {
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
      if (light.length + other.length > maxEarlyProbes) {
        plans.delete(page);
        return { take: () => undefined };
      }
    }
  }
  light.sort((a, b) => a.lightIndex - b.lightIndex);
  const main = page.mainFrame();
  if (main) plans.set(page, { loaderId: main.loaderId, sessionId: l.session.id, lightElements: l.index.lightElements, light });
  if (light.length + other.length === 0) return { take: () => undefined };
  // Candidates the speculative batch probed exactly as this snapshot would, and the rest.
  const planned = new Map<number, number>();
  const spec = speculative && speculative.plan.sessionId === l.session.id && speculative.plan.lightElements === l.index.lightElements ? speculative : undefined;
  spec?.plan.light.forEach((x, j) => planned.set(x.candidate.backendId, j));
  const reused: { i: number; j: number }[] = [];
  const fresh: number[] = [];
  light.forEach((c, i) => {
    const j = planned.get(c.candidate.backendId);
    const x = j === undefined ? undefined : spec?.plan.light[j];
    if (x && j !== undefined && x.lightIndex === c.lightIndex && x.nodeName === c.nodeName && sameRect(x.box, c.box) && sameRect(x.candidate.visible, c.candidate.visible)) {
      reused.push({ i, j });
    } else {
      fresh.push(i);
    }
  });
  const freshVerdicts =
    fresh.length === 0
      ? Promise.resolve([])
      : world.then((contextId) => (contextId === undefined ? undefined : batchHitTest(page, contextId, l.index.lightElements, fresh.map((i) => light[i]!))));
  const lightVerdicts = Promise.all([spec?.verdicts, freshVerdicts])
    .then(async ([sv, fv]): Promise<(HitVerdict | undefined)[]> => {
      const v: (HitVerdict | undefined)[] = light.map(() => undefined);
      for (const { i, j } of reused) v[i] = sv?.[j];
      fresh.forEach((i, k) => (v[i] = fv?.[k]));
      // A batch could not run, or could not confirm some elements: probe those point by point.
      const redo = light.map((_, i) => i).filter((i) => v[i] === undefined);
      if (redo.length === 0) return v;
      const again = await filterOccluded(page, early, redo.map((i) => light[i]!.candidate));
      redo.forEach((i, k) => (v[i] = again[k]));
      return v;
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
