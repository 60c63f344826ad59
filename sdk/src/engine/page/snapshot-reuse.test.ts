import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema, TakeSnapshotParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../fixtures/harness.js";
import type { PageSnapshot } from "../snapshot/snapshot.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/**
 * Runs an expression in a session's main world straight over the transport, as the page itself
 * or a user would change it: the engine's own bookkeeping of what it sent does not see it.
 */
async function pageDoes(expression: string, sessionId = h.engine.page.rootId): Promise<unknown> {
  const r = await h.transport.send<{ result: { value?: unknown }; exceptionDetails?: { text: string } }>(
    "Runtime.evaluate",
    { expression, awaitPromise: true, returnByValue: true },
    sessionId || undefined,
  );
  if (r.exceptionDetails) throw new Error(r.exceptionDetails.text);
  return r.result.value;
}

const nextFrame = "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))";
const snap = (includeOffscreen = false): Promise<PageSnapshot> => h.engine.pageSnapshot({ includeOffscreen });

/** Takes a snapshot, lets `change` happen, snapshots again: the second must be a new one. */
async function expectFreshAfter(change: () => Promise<unknown>): Promise<{ before: PageSnapshot; after: PageSnapshot }> {
  const before = await snap();
  expect(await snap()).toBe(before);
  await change();
  const after = await snap();
  expect(after).not.toBe(before);
  return { before, after };
}

describe("snapshot reuse: the last whole-page snapshot, while nothing can have changed", () => {
  it("reuses it for an immediately following snapshot of an unchanged page, and after an action's evidence", async () => {
    await h.goto("/basic");
    const a = await snap();
    expect(await snap()).toBe(a);
    // A click: its evidence takes a fresh snapshot; take_snapshot right after is served from it.
    await pageDoes(`document.querySelector("[data-t=Save]").onclick = () => document.body.append("Saved!"); 1`);
    const save = a.elements.find((e) => e.name === "Save")!.ref;
    await h.tools.click(create(ClickParamsSchema, { ref: save }), undefined);
    const evidence = h.engine.lastSnapshot;
    expect(evidence).not.toBe(a);
    const r = await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined);
    expect(h.engine.lastSnapshot).toBe(evidence);
    expect(r.text).toContain("Saved!");
    // Pagination is done on the reused snapshot.
    const page2 = await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, { offset: 2, maxChars: 60 }), undefined);
    expect(h.engine.lastSnapshot).toBe(evidence);
    expect(page2.totalRefCount).toBe(r.totalRefCount);
  });

  it("not after a DOM mutation", async () => {
    await h.goto("/basic");
    const { after } = await expectFreshAfter(() => pageDoes(`document.body.insertAdjacentHTML("afterbegin", "<button>New one</button>"); 1`));
    expect(after.elements.some((e) => e.name === "New one")).toBe(true);
  });

  it("not after the window scrolls, nor after a scroll container scrolls", async () => {
    await h.goto("/long");
    const { after } = await expectFreshAfter(() => pageDoes("scrollBy(0, 300); 1"));
    expect(after.layout.metrics.cssLayoutViewport.pageY).toBe(300);
    await pageDoes(`document.body.insertAdjacentHTML("afterbegin", '<div id="box" style="height:80px;overflow:auto"><div style="height:400px">tall</div></div>'); ${nextFrame}`);
    await expectFreshAfter(() => pageDoes(`document.getElementById("box").scrollTop = 120; ${nextFrame}`));
  });

  it("not after typing into an input, nor after a focus change", async () => {
    await h.goto("/basic");
    await pageDoes(`document.querySelector("[data-t='Full name']").focus(); 1`);
    const { after } = await expectFreshAfter(() => h.transport.send("Input.insertText", { text: "Ada" }, h.engine.page.rootId));
    expect(after.lines.some((l) => l.text.includes('= "Ada"'))).toBe(true);
    await expectFreshAfter(() => pageDoes(`document.querySelector("[data-t=Save]").focus(); 1`));
  });

  it("not while a CSS transition or animation runs", async () => {
    await h.goto("/basic");
    await pageDoes(`document.head.insertAdjacentHTML("beforeend", "<style>.fade { transition: opacity 3s linear; } .faded { opacity: 0.2; } @keyframes spin { to { transform: rotate(360deg); } } .spin { animation: spin 3s linear infinite; }</style>"); document.querySelector("[data-t=Save]").classList.add("fade"); ${nextFrame}`);
    await snap();
    await pageDoes(`document.querySelector("[data-t=Save]").classList.add("faded"); ${nextFrame}`);
    // Running now: neither the snapshot taken during it nor the next may be reused.
    const during = await snap();
    expect(await snap()).not.toBe(during);
    await h.goto("/basic");
    await pageDoes(`document.head.insertAdjacentHTML("beforeend", "<style>@keyframes spin { to { transform: rotate(360deg); } } .spin { animation: spin 3s linear infinite; }</style>"); document.querySelector("[data-t=Save]").classList.add("spin"); ${nextFrame}`);
    const spinning = await snap();
    expect(await snap()).not.toBe(spinning);
  });

  it("not after a change inside a cross-origin iframe", async () => {
    await h.goto("/cross");
    const remote = [...h.engine.page.frames.values()].find((f) => f.url.startsWith(h.server.originB) && f.sessionId !== h.engine.page.rootId);
    expect(remote).toBeDefined();
    const { after } = await expectFreshAfter(() =>
      pageDoes(`document.body.insertAdjacentHTML("afterbegin", "<button>Remote extra</button>"); 1`, remote!.sessionId),
    );
    expect(after.elements.some((e) => e.name === "Remote extra")).toBe(true);
  });

  it("not after a navigation, even one within the document", async () => {
    await h.goto("/basic");
    await expectFreshAfter(() => pageDoes(`history.pushState({}, "", "/basic?moved=1"); 1`));
    const { after } = await expectFreshAfter(async () => {
      await pageDoes("location.reload(); 1");
      await new Promise((r) => setTimeout(r, 300));
    });
    expect(after.url).toMatch(/\/basic\?moved=1$/);
  });

  it("not after the engine's own input (a hover), nor with other options, nor past its max age", async () => {
    await h.goto("/basic");
    await expectFreshAfter(() => h.engine.page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: 5, y: 5 }));
    const a = await snap();
    expect(await snap(true)).not.toBe(a);
    const b = await snap();
    await new Promise((r) => setTimeout(r, 1100));
    expect(await snap()).not.toBe(b);
  });

  it("never when turned off", async () => {
    await h.goto("/basic");
    h.engine.options.reuseSnapshots = false;
    try {
      const a = await snap();
      expect(await snap()).not.toBe(a);
    } finally {
      h.engine.options.reuseSnapshots = true;
    }
  });
});
