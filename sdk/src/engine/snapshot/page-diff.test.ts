import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema, TakeSnapshotParamsSchema, TakeSnapshotResultSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../fixtures/harness.js";
import { type Engine } from "../engine.js";
import { type EngineHandlers, engineHandlers } from "../handlers.js";
import { openPage } from "../../node/open-page.js";
import { pageDiff } from "./page-diff.js";
import type { SnapshotLine } from "./render-text.js";

let h: Harness;
let engine: Engine;
let tools: EngineHandlers;
beforeAll(async () => {
  h = await startHarness();
  engine = await openPage(h.transport, { snapshotDiffs: true, viewport: { width: 1000, height: 700 } });
  tools = engineHandlers(engine);
});
afterAll(async () => {
  engine?.dispose();
  await h?.close();
});

const snapshot = async (init: Partial<{ full: boolean; offset: number; ref: string }> = {}) =>
  create(TakeSnapshotResultSchema, await tools.takeSnapshot(create(TakeSnapshotParamsSchema, init), undefined));
const evaluate = (expression: string) => engine.page.send("Runtime.evaluate", { expression, returnByValue: true });

/** /basic with enough rows under a second heading that a small change is much smaller than the page. */
async function openLongBasic(): Promise<void> {
  await tools.navigate({ url: `${h.server.originA}/basic` } as never, undefined);
  await evaluate(`(() => {
    const h = document.createElement("h2"); h.textContent = "Orders"; document.body.append(h);
    for (let i = 1; i <= 30; i++) { const p = document.createElement("p"); p.style.margin = "0"; p.textContent = "Order " + i + " shipped"; document.body.append(p); }
  })()`);
}

function refOf(text: string, role: string, name: string): string | undefined {
  return new RegExp(`(e\\d+) ${role} "${name}"`).exec(text)?.[1];
}

describe("snapshot diffs", () => {
  it("returns only what changed, placed, with unchanged refs kept, and a ref from the diff acts", async () => {
    await openLongBasic();
    const first = await snapshot();
    expect(first.diffBase).toBe(0);
    const save = refOf(first.text, "button", "Save")!;
    expect(save).toBeDefined();
    await evaluate(`(() => {
      const b = document.createElement("button"); b.textContent = "Confirm"; b.dataset.t = "Confirm";
      document.querySelector("[data-t=Save]").after(b);
      document.querySelectorAll("p")[5].textContent = "Order 5 returned";
    })()`);
    const second = await snapshot();
    expect(second.diffBase).toBe(first.snapshotId);
    expect(second.snapshotId).toBeGreaterThan(first.snapshotId);
    expect(second.text).toMatch(/^Diff against snapshot \d+, not the whole page/);
    expect(second.text.length).toBeLessThan(first.text.length / 2);
    const confirm = refOf(second.text, "button", "Confirm");
    expect(confirm, second.text).toBeDefined();
    // Its place: the heading above it and the unchanged line it follows.
    expect(second.text).toContain(`@ under # Account, after ${save} button "Save"`);
    expect(second.text).toContain(`+ ${confirm} button "Confirm"`);
    expect(second.text).toContain('- "Order 5 shipped"');
    expect(second.text).toContain('+ "Order 5 returned"');
    expect(second.text).toContain('@ under ## Orders');
    // Unchanged elements keep their refs: the whole page names Save as before.
    const whole = await snapshot({ full: true });
    expect(whole.diffBase).toBe(0);
    expect(refOf(whole.text, "button", "Save")).toBe(save);
    expect(whole.text).toContain(`${confirm} button "Confirm"`);
    const log = (await evaluate("window.__log.length")) as { result: { value: number } };
    await tools.click(create(ClickParamsSchema, { ref: confirm! }), undefined);
    const after = (await evaluate("window.__log.slice()")) as { result: { value: string[] } };
    expect(after.result.value.slice(log.result.value)).toContain("click:Confirm");
  });

  it("says nothing changed in one line when nothing did", async () => {
    await openLongBasic();
    const first = await snapshot();
    const again = await snapshot();
    expect(again.diffBase).toBe(first.snapshotId);
    expect(again.text.split("\n")).toHaveLength(2);
    expect(again.text).toContain("(nothing changed)");
  });

  it("gives the whole page for a new document, and when the diff is not smaller", async () => {
    await openLongBasic();
    await snapshot();
    await openLongBasic();
    const afterNavigation = await snapshot();
    expect(afterNavigation.diffBase).toBe(0);
    expect(afterNavigation.text).toMatch(/^# Account$/m);
    await evaluate(`document.body.innerHTML = Array.from({ length: 40 }, (_, i) => "<p>Line " + i + "</p>").join("")`);
    const replaced = await snapshot();
    expect(replaced.diffBase).toBe(0);
    expect(replaced.text).toMatch(/^"Line 0"/);
  });

  it("diffs only the whole page: a scoped snapshot or a later page of one is never a diff", async () => {
    await openLongBasic();
    await snapshot();
    const paged = await snapshot({ offset: 1 });
    expect(paged.diffBase).toBe(0);
  });

  it("is off unless the engine is asked for it", async () => {
    await h.goto("/basic");
    const a = create(TakeSnapshotResultSchema, await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined));
    const b = create(TakeSnapshotResultSchema, await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined));
    expect(b.diffBase).toBe(0);
    expect(b.text).toBe(a.text);
  });
});

describe("pageDiff", () => {
  const line = (depth: number, text: string, ref?: string): SnapshotLine => ({ depth, text: ref ? `${ref} ${text}` : text, ...(ref ? { ref } : {}) });
  it("marks a ref whose state changed with ~ and places a hunk at the top when nothing precedes it", () => {
    const before = [line(0, '"Intro"'), line(0, 'checkbox "A" unchecked', "e1")];
    const after = [line(0, '"New banner"'), line(0, '"Intro"'), line(0, 'checkbox "A" checked', "e1")];
    const d = pageDiff(before, after, "H")!;
    expect(d.text.split("\n")).toEqual(["H", "@ at the top", '+ "New banner"', '@ after "Intro"', '~ e1 checkbox "A" checked']);
    expect(d.changedLines).toBe(2);
  });
});
