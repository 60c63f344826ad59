import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewportFirst } from "./ax-read.js";
import { fixtures } from "./fixtures/pages.js";
import { type Harness, startHarness } from "./fixtures/harness.js";
import { takePageSnapshot } from "./snapshot.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const text = async (axRead: "whole" | "viewport"): Promise<string> => {
  const snap = await takePageSnapshot(h.engine.page, h.engine.refs, { axRead });
  return snap.lines.map((l) => `${"  ".repeat(l.depth)}${l.text}`).join("\n");
};

describe("viewport-first AX read", () => {
  // Same refs table, same page: the two reads must print the same snapshot, line for line.
  it.each(fixtures.map((f) => f.path))("prints %s exactly as the whole-tree read does", async (path) => {
    await h.goto(path);
    const whole = await text("whole");
    const viewport = await text("viewport");
    expect(viewport).toBe(whole);
    expect(whole.length).toBeGreaterThan(0);
  });

  it("leaves text under aria-hidden and inert out, keeps text beside it", async () => {
    await h.goto("/basic");
    await h.evaluate(`(() => {
      document.body.insertAdjacentHTML("afterbegin",
        '<p>Shown words</p><div aria-hidden="true"><p>Hidden words</p></div><div inert><p>Inert words</p></div>');
      return true;
    })()`);
    const viewport = await text("viewport");
    expect(viewport).toContain('"Shown words"');
    expect(viewport).not.toContain("Hidden words");
    expect(viewport).not.toContain("Inert words");
    expect(await text("whole")).toBe(viewport);
  });

  it("agrees with the whole-tree read on text edge cases", async () => {
    await h.goto("/basic");
    await h.evaluate(`(() => {
      document.body.insertAdjacentHTML("afterbegin", [
        '<style>.up{text-transform:uppercase}.hid{visibility:hidden}.hid .vis{visibility:visible}</style>',
        '<h2>Edge   cases\\n here</h2>',
        '<p class="up">shouted text</p>',
        '<div class="hid">Invisible parent <span class="vis">visible child</span></div>',
        '<div style="display:contents"><p>Inside display contents</p></div>',
        '<a href="#x"><img alt="Logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20"> Home</a>',
        '<label>Email <input type="email" value="a@b.c"></label>',
        '<button aria-label="Close dialog">×</button>',
        '<details><summary>More</summary><p>Folded text</p></details>',
        '<ul><li>First item</li><li>Second <b>bold</b> item</li></ul>',
      ].join(""));
      return true;
    })()`);
    const viewport = await text("viewport");
    expect(viewport).toContain("Inside display contents");
    expect(await text("whole")).toBe(viewport);
  });

  it("chooses viewport-first only when much of the document is off-screen", () => {
    expect(viewportFirst({ elements: 144, screens: 1.3 })).toBe(false);
    expect(viewportFirst({ elements: 587, screens: 4.25 })).toBe(true);
    expect(viewportFirst({ elements: 2000, screens: 1 })).toBe(false);
    expect(viewportFirst({ elements: 3500, screens: 1 })).toBe(true);
    expect(viewportFirst({ elements: 40, screens: 30 })).toBe(false);
  });
});
