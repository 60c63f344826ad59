import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { topWorld } from "../page/worlds.js";
import { batchHitTest, type LightCandidate, topElementBox, topElementHit } from "./batch-occlusion.js";
import { documentToViewport, intersect, probePoints } from "../base/coordinates.js";
import { readPageLayout } from "../read/frame-layout.js";
import { type Harness, startHarness } from "../fixtures/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** The light-tree candidate of the top document's button with this `data-t`. */
async function candidateFor(name: string): Promise<{ c: LightCandidate; count: number }> {
  const page = h.engine.page;
  const { result } = await page.send<{ result: { objectId: string } }>("Runtime.evaluate", {
    expression: `document.querySelector('[data-t="${name}"]')`,
  });
  const { node } = await page.send<{ node: { backendNodeId: number } }>("DOM.describeNode", { objectId: result.objectId });
  const layout = await readPageLayout(page, { axTrees: false });
  const l = layout.sessions.get(page.rootId)!;
  const dom = l.index.nodes.get(node.backendNodeId)!;
  const box = documentToViewport(dom.box!, l.docOrigins[0]!);
  const visible = intersect(box, l.docOrigins[0]!.clip)!;
  return {
    c: {
      candidate: { sessionId: page.rootId, backendId: dom.backendId, visible },
      box,
      lightIndex: dom.lightIndex!,
      nodeName: dom.nodeName,
      points: probePoints(visible),
    },
    count: l.index.lightElements,
  };
}

describe("batched hit tests in the top document", () => {
  it("passes a visible button, fails one under a cookie banner, in one page call", async () => {
    await h.goto("/modal");
    const world = (await topWorld(h.engine.page))!;
    const accept = await candidateFor("Accept cookies");
    const buy = await candidateFor("Buy now");
    const partly = await candidateFor("Partly covered");
    const [a, b, p] = (await batchHitTest(h.engine.page, world, accept.count, [accept.c, buy.c, partly.c]))!;
    expect(a).toMatchObject({ ok: true });
    expect(b).toMatchObject({ ok: false });
    // Its top is under the 40 px fixed header; the passing point is below it.
    expect(p).toMatchObject({ ok: true });
    expect(p!.point.y).toBeGreaterThanOrEqual(40);
  });

  it("refuses to decide when the document or the element no longer matches the snapshot", async () => {
    await h.goto("/modal");
    const world = (await topWorld(h.engine.page))!;
    const accept = await candidateFor("Accept cookies");
    const buy = await candidateFor("Buy now");
    expect(await batchHitTest(h.engine.page, world, accept.count + 1, [accept.c])).toBeUndefined();
    // The right tag at the wrong index (a neighbour after a re-render) is not taken for the element.
    const swapped: LightCandidate = { ...accept.c, lightIndex: buy.c.lightIndex };
    expect(await batchHitTest(h.engine.page, world, accept.count, [swapped])).toEqual([undefined]);
  });
});

describe("one top-document element (the click fast path)", () => {
  it("reads the same box as the layout read, passes a visible button and fails a covered one", async () => {
    await h.goto("/modal");
    const page = h.engine.page;
    const accept = await candidateFor("Accept cookies");
    const buy = await candidateFor("Buy now");
    const a = (await topElementBox(page, accept.c.candidate.backendId))!;
    for (const k of ["x", "y", "width", "height"] as const) expect(a.box[k]).toBeCloseTo(accept.c.box[k], 0);
    expect(a.invisible).toBe(false);
    expect(await topElementHit(page, a, accept.c.points)).toEqual(accept.c.points[0]);
    const b = (await topElementBox(page, buy.c.candidate.backendId))!;
    expect(await topElementHit(page, b, buy.c.points)).toBeUndefined();
  });

  it("declines elements in shadow trees and frames, leaving them to the layout read", async () => {
    await h.goto("/shadow");
    const page = h.engine.page;
    const { result } = await page.send<{ result: { objectId: string } }>("Runtime.evaluate", {
      expression: `(() => { for (const el of document.querySelectorAll("*")) if (el.shadowRoot) { const b = el.shadowRoot.querySelector("button"); if (b) return b; } })()`,
    });
    expect(result.objectId).toBeDefined();
    const { node } = await page.send<{ node: { backendNodeId: number } }>("DOM.describeNode", { objectId: result.objectId });
    expect(await topElementBox(page, node.backendNodeId)).toBeUndefined();
  });
});
