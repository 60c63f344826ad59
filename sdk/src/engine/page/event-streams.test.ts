/**
 * An app that keeps a Server-Sent Events stream open on every page: ten navigations in a row
 * load at once and a save after them reaches the server (a browser that kept left pages alive
 * kept their streams open too, and the host's six connections ran out), no action waits for a
 * stream to end, and a load that gets no answer is reported as such.
 */
import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema, TakeSnapshotParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findTarget, snapshotRefs } from "../../script/index.js";
import { livePageCount } from "../fixtures/apps/live.js";
import { type Harness, startHarness } from "../fixtures/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function clickNamed(role: string, name: string) {
  const text = (await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined)).text ?? "";
  const ref = findTarget(snapshotRefs(text), { role, name });
  if (!ref) throw new Error(`no ${role} "${name}" in\n${text}`);
  const started = Date.now();
  const r = await h.tools.click(create(ClickParamsSchema, { ref }), undefined);
  return { ...r, ms: Date.now() - started };
}

describe("an app with an event stream on every page", () => {
  it("loads ten pages in a row at once, and saves after them", async () => {
    await h.goto("/apps/live/1");
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const next = (i % livePageCount) + 2 > livePageCount ? 1 : (i % livePageCount) + 2;
      const r = await clickNamed("link", `Board ${next}`);
      expect(r.evidence?.url, `navigation ${i + 1}`).toMatch(new RegExp(`/apps/live/${next}$`));
      times.push(r.ms);
    }
    // Each load within seconds, not the 10 s cap; only the current page's stream stays open.
    expect(Math.max(...times), times.join(", ")).toBeLessThan(5000);
    expect(h.server.live.streams).toBeLessThanOrEqual(2);
    const current = Number(/\/apps\/live\/(\d+)$/.exec((await h.evaluate<string>("location.pathname")) ?? "")?.[1]);
    const save = await clickNamed("button", `Save board ${current}`);
    expect(save.evidence?.textAdded).toContain(`"Saved board ${current}"`);
    expect(h.server.live.saves).toContain(String(current));
  });

  it("does not wait for an open stream to end before reporting an action", async () => {
    await h.goto("/apps/live/3");
    const save = await clickNamed("button", "Save board 3");
    expect(save.evidence?.notes ?? []).not.toContain("network still busy");
    expect(save.ms).toBeLessThan(1500);
  });

  it("reports a load that gets no answer instead of waiting it out silently", async () => {
    await h.goto("/apps/live/1");
    await h.evaluate(`(() => { const a = document.createElement("a"); a.href = "/never"; a.textContent = "Stuck page"; document.body.prepend(a); return 1; })()`);
    const settle = h.engine.options.settle;
    (h.engine.options as { settle?: object }).settle = { loadTimeoutMs: 1500 };
    try {
      const r = await clickNamed("link", "Stuck page");
      expect(r.evidence?.notes?.join(" ")).toMatch(/^page still loading after \d s: no response to the page's request for \d s/);
      // Reported at the cap, not after the commands the browser holds (10 s each) time out.
      expect(r.ms).toBeLessThan(8000);
    } finally {
      (h.engine.options as { settle?: object }).settle = settle;
    }
  });
});
