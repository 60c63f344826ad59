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

/** Opens /basic with `html` inserted at the top of its body. */
const basicWith = async (html: string): Promise<void> => {
  await h.goto("/basic");
  await h.evaluate(`(() => { document.body.insertAdjacentHTML("afterbegin", ${JSON.stringify(html)}); return true; })()`);
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
    await basicWith('<p>Shown words</p><div aria-hidden="true"><p>Hidden words</p></div><div inert><p>Inert words</p></div>');
    const viewport = await text("viewport");
    expect(viewport).toContain('"Shown words"');
    expect(viewport).not.toContain("Hidden words");
    expect(viewport).not.toContain("Inert words");
    expect(await text("whole")).toBe(viewport);
  });

  it("agrees with the whole-tree read on text edge cases", async () => {
    await basicWith(
      [
        "<style>.up{text-transform:uppercase}.hid{visibility:hidden}.hid .vis{visibility:visible}</style>",
        "<h2>Edge   cases\n here</h2>",
        '<p class="up">shouted text</p>',
        '<div class="hid">Invisible parent <span class="vis">visible child</span></div>',
        '<div style="display:contents"><p>Inside display contents</p></div>',
        '<a href="#x"><img alt="Logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20"> Home</a>',
        '<label>Email <input type="email" value="a@b.c"></label>',
        '<button aria-label="Close dialog">×</button>',
        '<details><summary>More</summary><p>Folded text</p></details>',
        '<ul><li>First item</li><li>Second <b>bold</b> item</li></ul>',
      ].join(""),
    );
    const viewport = await text("viewport");
    expect(viewport).toContain("Inside display contents");
    expect(await text("whole")).toBe(viewport);
  });

  it("reads no AX node for plain labels and presentational images, and prints the same", async () => {
    const img = (attrs: string) => `<img ${attrs} src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20">`;
    await basicWith(
      [
        '<label id="plain">Subscribe <input type="checkbox"></label>',
        '<label id="custom" onclick="this.dataset.on = 1"><input type="checkbox" style="display:none"> Custom toggle</label>',
        '<label id="roled" role="button">Label acting as a button</label>',
        '<label id="tabbed" tabindex="0">Focusable label</label>',
        img('id="deco" alt=""'),
        `<a href="#p">${img('id="inlink" alt=""')} Product</a>`,
        img('id="arialabel" alt="" aria-label="Chart of sales"'),
        img('id="titled" alt="" title="Sales chart"'),
        img('id="described" alt="Revenue chart"'),
        img('id="noalt"'),
        img('id="clicky" alt="" onclick="1"'),
      ].join(""),
    );
    const ids = ["plain", "custom", "roled", "tabbed", "deco", "inlink", "arialabel", "titled", "described", "noalt", "clicky"];
    const backend = new Map<number, string>();
    const doc = await h.engine.page.send<{ root: { nodeId: number } }>("DOM.getDocument", { depth: 0 });
    for (const id of ids) {
      const q = await h.engine.page.send<{ nodeId: number }>("DOM.querySelector", { nodeId: doc.root.nodeId, selector: `#${id}` });
      const d = await h.engine.page.send<{ node: { backendNodeId: number } }>("DOM.describeNode", { nodeId: q.nodeId });
      backend.set(d.node.backendNodeId, id);
    }
    const page = h.engine.page;
    const read: string[] = [];
    const original = page.send;
    page.send = ((method: string, params?: { backendNodeId?: number }, ...rest: unknown[]) => {
      const id = params?.backendNodeId === undefined ? undefined : backend.get(params.backendNodeId);
      if (method === "Accessibility.getPartialAXTree" && id) read.push(id);
      return (original as (...a: unknown[]) => Promise<unknown>).call(page, method, params, ...rest);
    }) as typeof page.send;
    let viewport: string;
    try {
      viewport = await text("viewport");
    } finally {
      delete (page as { send?: unknown }).send;
    }
    // A plain label is Chromium's LabelText (not a ref; its text names its control), and an
    // empty alt makes an image presentational: neither AX node can change the snapshot.
    // The custom toggle's label stands for its hidden input, so it is read.
    expect(read.sort()).toEqual(["arialabel", "clicky", "custom", "described", "noalt", "roled", "tabbed", "titled"]);
    expect(viewport).toContain('checkbox "Subscribe"');
    expect(viewport).toMatch(/\] checkbox "Custom toggle" unchecked/);
    expect(viewport).toContain('img "Revenue chart"');
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
