/**
 * Widgets of public task pages (`/apps/widgets`): a terminal that takes keys through a hidden
 * helper field, text selected in a paragraph, a long textarea read whole, colour swatches
 * named by their colour, an autocomplete whose options the snapshot lists as type_text
 * reports them, and a multi-line editor told from a one-line field.
 */
import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema, ExtractParamsSchema, SelectTextParamsSchema, TakeSnapshotParamsSchema, TypeTextParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TargetSpec } from "../../script/index.js";
import { type Harness, startHarness } from "../fixtures/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const snapshot = () => h.snapshot();
const refOf = (target: TargetSpec) => h.refOf(target);

describe("widgets of public task pages", () => {
  it("types into a terminal whose screen passes keys to a hidden helper field", async () => {
    await h.goto("/apps/widgets");
    const term = await refOf({ role: "textbox", name: "Terminal input" });
    const r = await h.tools.typeText(create(TypeTextParamsSchema, { ref: term, text: "ls -la", pressEnter: true }), undefined);
    expect(await h.evaluate("window.__commands")).toEqual(["ls -la"]);
    expect(r.value).toContain("$ ls -la");
  });

  it("selects a range of text across a paragraph's inline markup", async () => {
    await h.goto("/apps/widgets");
    const r = await h.tools.selectText(create(SelectTextParamsSchema, { text: "compute Bernoulli numbers without error" }), undefined);
    expect(r.selected).toBe("compute Bernoulli numbers without error");
    expect(await h.evaluate("getSelection().toString()")).toBe("compute Bernoulli numbers without error");
  });

  it("cuts a long textarea in the snapshot and reads it whole by extract and a scoped snapshot", async () => {
    await h.goto("/apps/widgets");
    await h.evaluate("document.getElementById('terms').scrollIntoView(), 1");
    const terms = await refOf({ role: "textbox", name: "Terms" });
    const full = await h.evaluate<string>("document.getElementById('terms').value");
    expect(full.length).toBeGreaterThan(500);
    expect(await snapshot()).toMatch(new RegExp(`${terms} textbox "Terms" = "These terms.*…" multiline`));
    expect((await h.tools.extract(create(ExtractParamsSchema, { ref: terms }), undefined)).content).toBe(full);
    expect((await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, { ref: terms }), undefined)).text).toContain("End of terms.");
  });

  it("names colour swatches by their colour", async () => {
    await h.goto("/apps/widgets");
    const text = await snapshot();
    for (const name of ["red #e53935", "blue #1e88e5", "green #43a047", "yellow #fdd835", "purple #8e24aa", "black #212121"]) expect(text).toContain(`button "${name}"`);
    await h.tools.click(create(ClickParamsSchema, { ref: await refOf({ role: "button", name: "blue" }) }), undefined);
    expect(await h.evaluate("document.getElementById('status').textContent")).toBe("colour #1e88e5");
  });

  it("lists an autocomplete's options as type_text reported them, and picks one", async () => {
    await h.goto("/apps/widgets");
    const field = await refOf({ role: "textbox", name: "" });
    const r = await h.tools.typeText(create(TypeTextParamsSchema, { ref: field, text: "Lo", waitForSuggestion: true }), undefined);
    expect(r.suggestions).toEqual(["Barcelona", "London", "Los Angeles"]);
    await new Promise((done) => setTimeout(done, 2000));
    const text = await snapshot();
    for (const s of r.suggestions ?? []) expect(text).toMatch(new RegExp(`e\\d+ option "${s}"`));
    await h.tools.click(create(ClickParamsSchema, { ref: await refOf({ role: "option", name: "London" }) }), undefined);
    expect(await h.evaluate("document.getElementById('status').textContent")).toBe("destination London");
  });

  it("says which text field is multi-line", async () => {
    await h.goto("/apps/widgets");
    const text = await snapshot();
    expect(text).toMatch(/e\d+ textbox "Comment" multiline/);
    expect(text).toMatch(/e\d+ textbox "Subject"\n/);
  });
});
