import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { topWorld } from "../page/worlds.js";
import { batchHitTest, type LightCandidate, topElementBox, topElementHit } from "./batch-occlusion.js";
import { documentToViewport, intersect, probePoints } from "../base/coordinates.js";
import { readPageLayout } from "../read/frame-layout.js";
import { type Harness, startHarness } from "../fixtures/harness.js";
import { takePageSnapshot } from "../snapshot/snapshot.js";

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

describe("the last snapshot's hit tests and AX reads, sent with the first reads", () => {
  /** Takes a snapshot and lists the commands sent after the DOMSnapshot's reply (the second wave). */
  async function snapshotWaves(): Promise<{ text: string; late: string[] }> {
    const page = h.engine.page;
    const late: string[] = [];
    let snapped = false;
    const original = page.send;
    page.send = ((method: string, ...rest: unknown[]) => {
      if (snapped) late.push(method);
      const p = (original as (...a: unknown[]) => Promise<unknown>).call(page, method, ...rest);
      if (method === "DOMSnapshot.captureSnapshot") void p.then(() => (snapped = true)).catch(() => undefined);
      return p;
    }) as typeof page.send;
    try {
      const snap = await takePageSnapshot(page, h.engine.refs, { axRead: "viewport" });
      return { text: snap.lines.map((l) => l.text).join("\n"), late };
    } finally {
      delete (page as { send?: unknown }).send;
    }
  }

  it("needs no second wave on a page that did not move, and still sees what changed since", async () => {
    await h.goto("/basic");
    await h.evaluate(`(() => { document.body.insertAdjacentHTML("beforeend", '<div id="ed" contenteditable="true">Draft</div><div id="veil" style="position:fixed;left:0;top:0;width:0;height:0;background:#fff;z-index:9"></div>'); return true; })()`);
    const first = await snapshotWaves();
    expect(first.text).toMatch(/e\d+ button "Save"/);
    expect(first.text).toMatch(/e\d+ textbox = "Draft"/);
    // The first snapshot of a document has no plan: hit tests, the page call and the editing
    // host's own AX read wait for the DOMSnapshot.
    expect(first.late).toContain("Runtime.callFunctionOn");
    expect(first.late).toContain("Accessibility.getPartialAXTree");
    const still = await snapshotWaves();
    expect(still.text).toBe(first.text);
    expect(still.late).toEqual([]);
    // The veil now covers the page and the field holds new text: same elements, same boxes. The
    // early reads are live reads, so the covered refs go and the value is the new one.
    await h.evaluate(`(() => { const v = document.getElementById("veil"); v.style.width = "100vw"; v.style.height = "100vh"; return true; })()`);
    const covered = await snapshotWaves();
    expect(covered.text).not.toMatch(/e\d+ button "Save"/);
    expect(covered.late).toEqual([]);
    await h.evaluate(`(() => { document.getElementById("veil").style.width = "0"; document.querySelector("input").value = "Ada Lovelace"; document.getElementById("ed").firstChild.data = "Second draft"; return true; })()`);
    const changed = await snapshotWaves();
    expect(changed.text).toMatch(/e\d+ button "Save"/);
    expect(changed.text).toMatch(/e\d+ textbox "Full name" = "Ada Lovelace"/);
    expect(changed.text).toMatch(/e\d+ textbox = "Second draft"/);
    expect(changed.late).toEqual([]);
    // A new element changes the element count: nothing planned is taken, the reads wait as before.
    await h.evaluate(`(() => { document.body.insertAdjacentHTML("afterbegin", "<button>New</button>"); return true; })()`);
    const grown = await snapshotWaves();
    expect(grown.text).toMatch(/e\d+ button "New"/);
    expect(grown.late).toContain("Runtime.callFunctionOn");
  });
});

describe("light-tree positions beside shadow trees", () => {
  it("count only light-tree elements, as getElementsByTagName does, with a closed shadow root before and after", async () => {
    // The extension's mask is such a host at the end of the document: with its shadow tree's
    // elements counted, every batch was refused as "the document changed".
    await h.goto("/modal");
    await h.evaluate(`(() => {
      for (const where of ["prepend", "append"]) {
        const host = document.createElement("x-host");
        host.attachShadow({ mode: "closed" }).innerHTML = "<style>p{color:red}</style><p>in the shadow</p><div><span>deeper</span></div>";
        document.body[where](host);
      }
      return 1;
    })()`);
    const buy = await candidateFor("Buy now");
    expect(buy.count).toBe(await h.evaluate<number>('document.getElementsByTagName("*").length'));
    expect(buy.c.lightIndex).toBe(await h.evaluate<number>(`[...document.getElementsByTagName("*")].indexOf(document.querySelector('[data-t="Buy now"]'))`));
    const world = (await topWorld(h.engine.page))!;
    const [v] = (await batchHitTest(h.engine.page, world, buy.count, [buy.c]))!;
    expect(v).toBeDefined();
  });
});
