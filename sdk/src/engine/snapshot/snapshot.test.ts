import { create } from "@bufbuild/protobuf";
import { refsInText } from "../../contract/index.js";
import { ClickParamsSchema, GoBackParamsSchema, TakeSnapshotParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, fixtures } from "../fixtures/pages.js";
import { type Harness, startHarness } from "../fixtures/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const snapshot = (init: Partial<{ offset: number; maxChars: number; includeOffscreen: boolean; ref: string }> = {}) =>
  h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, init), undefined);

/** The ref of a line `[eN] role "name"` for an expected element, or undefined. */
function refOf(text: string, role: string, name: string): string | undefined {
  for (const line of text.split("\n")) {
    const m = /^\s*(e\d+) (\S+) "((?:[^"\\]|\\.)*)"/.exec(line);
    if (m && m[2] === role && m[3] === name) return m[1];
  }
  return undefined;
}

describe.each(fixtures.map((f) => [f.path, f] as [string, Fixture]))("snapshot of %s", (_path, f) => {
  it("lists every expected element with a ref and no hidden or covered one", async () => {
    await h.goto(f.path);
    const r = await snapshot();
    for (const e of f.expected) expect(refOf(r.text ?? "", e.role, e.name), `${e.role} "${e.name}" in\n${r.text}`).toBeDefined();
    for (const name of f.absent) expect(r.text, `"${name}" must not be listed`).not.toContain(`"${name}"`);
    expect(r.totalRefCount).toBeGreaterThanOrEqual(f.expected.length);
  });

  if (f.clickable) {
    it("lands a click on every expected element (recorded by the page)", async () => {
      await h.goto(f.path);
      const r = await snapshot();
      for (const e of f.expected) {
        const ref = refOf(r.text ?? "", e.role, e.name)!;
        const before = await h.evaluate<string[]>("window.__log.slice()");
        await h.tools.click(create(ClickParamsSchema, { ref }), undefined);
        const log = await h.evaluate<string[]>("window.__log.slice()");
        expect(log.slice(before.length), `click on ${ref} ${e.name}`).toContain(`click:${e.name}`);
      }
    });
  }
});

describe("snapshot behaviour", () => {
  it("keeps refs stable while the node lives", async () => {
    await h.goto("/basic");
    const a = await snapshot();
    const b = await snapshot();
    expect(b.text).toBe(a.text);
  });

  it("includes off-screen elements only when asked, marked offscreen", async () => {
    await h.goto("/long");
    const plain = await snapshot();
    expect(plain.text).not.toContain("Bottom action");
    const all = await snapshot({ includeOffscreen: true });
    expect(all.text).toMatch(/e\d+ button "Bottom action" offscreen/);
  });

  it("pages a 5,000-node page by ref without losing or repeating refs", async () => {
    await h.goto("/big");
    const seen: string[] = [];
    let offset = 0;
    for (let i = 0; i < 100; i++) {
      const r = await snapshot({ offset, maxChars: 8000, includeOffscreen: true });
      expect(r.pageOverflow).toBe(false);
      expect((r.text ?? "").length).toBeLessThanOrEqual(8000);
      seen.push(...refsInText(r.text ?? ""));
      if (r.nextOffset === undefined) break;
      expect(r.nextOffset).toBeGreaterThan(offset);
      offset = r.nextOffset;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(2000);
    // Every page is a whole-page snapshot of 5,000 nodes: 38 s alone at load 20, 60+ s in a full run.
  }, 180_000);

  it("reports page_overflow instead of looping when one ref does not fit", async () => {
    await h.goto("/basic");
    const r = await snapshot({ maxChars: 200, offset: 0 });
    expect(r.pageOverflow).toBe(false);
    const tiny = await snapshot({ maxChars: 5 });
    expect(tiny.pageOverflow).toBe(true);
    expect(tiny.nextOffset).toBeUndefined();
  });

  it("scopes a snapshot to one element's subtree", async () => {
    await h.goto("/modal");
    const r = await snapshot();
    const dialogLess = /(e\d+) button "Accept cookies"/.exec(r.text ?? "")?.[1];
    expect(dialogLess).toBeDefined();
    const scoped = await snapshot({ ref: dialogLess! });
    expect(scoped.text).toContain("Accept cookies");
    expect(scoped.text).not.toContain("Reject all");
  });

  it("marks cross-origin frames with a sanitised origin label", async () => {
    await h.goto("/cross");
    const r = await snapshot();
    expect(r.text).toMatch(/iframe \[cross-origin localhost:\d+\/remote\]/);
    expect(r.frameCount).toBe(3);
  });

  it("forgets the child frames of a document it navigated away from", async () => {
    await h.goto("/frames");
    expect((await snapshot()).frameCount).toBe(4);
    expect(h.engine.page.frames.size).toBe(4);
    await h.goto("/basic");
    await snapshot();
    expect(h.engine.page.frames.size).toBe(1);
    // Going back (possibly from the back-forward cache) finds the nested frames again.
    await h.tools.goBack(create(GoBackParamsSchema, {}), undefined);
    const back = await snapshot();
    for (const name of ["Top button", "Level 1 button", "Level 2 button", "Level 3 button"]) {
      expect(refOf(back.text ?? "", "button", name), `${name} in\n${back.text}`).toBeDefined();
    }
  });

  it("drops separator-only text but keeps symbols that mean something", async () => {
    await h.goto("/shop");
    const text = (await snapshot()).text ?? "";
    expect(text).not.toMatch(/^\s*"›"$/m);
    expect(text).toMatch(/^\s*"★★★"$/m);
    expect(text).toContain('"› Running"');
  });

  it("gives the label of a hidden input the ref (custom toggles), with the input's state", async () => {
    await h.goto("/basic");
    await h.evaluate(`(() => {
      document.body.insertAdjacentHTML("afterbegin", [
        '<style>.sw input{display:none}.sw span{display:inline-block;width:30px;height:16px;background:#ccc}</style>',
        '<label class="sw"><input type="checkbox" id="dark"><span></span> Dark mode</label>',
        '<label class="sw"><input type="radio" name="plan" checked> Pro plan</label>',
        '<label>Visible box <input type="checkbox"></label>',
        '<label for="nowhere">Orphan label</label>',
        '<label class="sw" role="button"><input type="checkbox"><span></span> Acts as a button</label>',
        '<input type="checkbox" id="wifi" checked style="display:none"><label class="sw" for="wifi"><span></span> Wi-Fi</label>',
      ].join(""));
      return true;
    })()`);
    const text = (await snapshot()).text ?? "";
    const toggle = refOf(text, "checkbox", "Dark mode");
    expect(toggle, text).toBeDefined();
    expect(text).toMatch(/e\d+ checkbox "Dark mode" unchecked/);
    expect(text).toMatch(/e\d+ radio "Pro plan" checked/);
    // A label whose control is shown, or that labels nothing, is still only text.
    expect(refOf(text, "checkbox", "Visible box")).toBeDefined();
    expect(text).not.toMatch(/e\d+ (label|LabelText) "(Visible box|Orphan label)"/);
    // A label with a role of its own keeps it.
    expect(refOf(text, "button", "Acts as a button")).toBeDefined();
    // A label naming its hidden control with \`for\` stands for it too.
    expect(text).toMatch(/e\d+ checkbox "Wi-Fi" checked/);
    await h.tools.click(create(ClickParamsSchema, { ref: toggle! }), undefined);
    expect(await h.evaluate<boolean>("document.getElementById('dark').checked")).toBe(true);
    await h.tools.click(create(ClickParamsSchema, { ref: refOf(text, "checkbox", "Wi-Fi")! }), undefined);
    expect(await h.evaluate<boolean>("document.getElementById('wifi').checked")).toBe(false);
    const after = (await snapshot()).text;
    expect(after).toMatch(/e\d+ checkbox "Dark mode" checked/);
    expect(after).toMatch(/e\d+ checkbox "Wi-Fi" unchecked/);
  });

  it("drops a form covered by a modal opened on a typical page, and lists the modal", async () => {
    await h.goto("/app");
    const before = await snapshot();
    expect(refOf(before.text ?? "", "textbox", "First name")).toBeDefined();
    await h.tools.click(create(ClickParamsSchema, { ref: refOf(before.text ?? "", "button", "Invite teammates")! }), undefined);
    const after = (await snapshot()).text ?? "";
    expect(refOf(after, "button", "Send invites")).toBeDefined();
    expect(refOf(after, "combobox", "Team role")).toBeDefined();
    // Covered controls lose their refs (their label text may stay as context).
    expect(refOf(after, "textbox", "First name")).toBeUndefined();
    expect(refOf(after, "button", "Save changes")).toBeUndefined();
    expect(refOf(after, "tab", "Profile")).toBeUndefined();
  });

  it("returns a labelled JPEG screenshot when asked", async () => {
    await h.goto("/basic");
    const r = await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, { includeScreenshot: true }), undefined);
    const img = r.screenshot;
    expect(img?.mimeType).toBe("image/jpeg");
    expect(img?.width).toBe(1000);
    expect(img?.height).toBe(700);
    const bytes = img?.data as Uint8Array;
    expect(bytes[0]).toBe(0xff);
    expect(bytes[1]).toBe(0xd8);
    // The overlay is gone afterwards.
    expect(await h.evaluate<number>("document.querySelectorAll('[id^=baton-labels]').length")).toBe(0);
  });
});
