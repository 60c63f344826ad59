import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentSizeExpression, viewportFirst } from "./ax-read.js";
import { fixtures } from "../fixtures/pages.js";
import { type Harness, startHarness } from "../fixtures/harness.js";
import { toggleStyle, transparentToggles } from "../fixtures/toggles.js";
import { takePageSnapshot } from "../snapshot/snapshot.js";

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

/**
 * Takes a viewport-first snapshot and reports, by element id, which elements got their own
 * `getPartialAXTree` and which were among the items of the computed role-and-name page call (`asked`; the page may turn
 * some back, and those are then read one by one too).
 */
async function readsOf(harness: Harness, ids: readonly string[]): Promise<{ partial: string[]; asked: string[]; viewport: string }> {
  const page = harness.engine.page;
  const backend = new Map<number, string>();
  const light = new Map<number, string>();
  const doc = await page.send<{ root: { nodeId: number } }>("DOM.getDocument", { depth: 0 });
  for (const id of ids) {
    const q = await page.send<{ nodeId: number }>("DOM.querySelector", { nodeId: doc.root.nodeId, selector: `#${id}` });
    const d = await page.send<{ node: { backendNodeId: number } }>("DOM.describeNode", { nodeId: q.nodeId });
    backend.set(d.node.backendNodeId, id);
    light.set(await harness.evaluate<number>(`[...document.getElementsByTagName("*")].indexOf(document.getElementById(${JSON.stringify(id)}))`), id);
  }
  const partial: string[] = [];
  const asked: string[] = [];
  const original = page.send;
  page.send = ((method: string, params?: { backendNodeId?: number; functionDeclaration?: string; arguments?: { value?: unknown }[] }, ...rest: unknown[]) => {
    const id = params?.backendNodeId === undefined ? undefined : backend.get(params.backendNodeId);
    if (method === "Accessibility.getPartialAXTree" && id) partial.push(id);
    if (method === "Runtime.callFunctionOn" && params?.functionDeclaration?.includes("computedName")) {
      const items = (params.arguments?.[1]?.value ?? []) as unknown[];
      for (let i = 0; i < items.length; i += 2) {
        const hit = light.get(items[i] as number);
        if (hit) asked.push(hit);
      }
    }
    return (original as (...a: unknown[]) => Promise<unknown>).call(page, method, params, ...rest);
  }) as typeof page.send;
  try {
    const snap = await takePageSnapshot(page, harness.engine.refs, { axRead: "viewport" });
    const viewport = snap.lines.map((l) => `${"  ".repeat(l.depth)}${l.text}`).join("\n");
    return { partial: partial.sort(), asked: asked.sort(), viewport };
  } finally {
    delete (page as { send?: unknown }).send;
  }
}

/**
 * Puts `markup` alone on a fresh page, or before 400 paragraphs (`large`), reads it with
 * `axRead`, checks the label reads as the checkbox with its state, clicks its ref and checks
 * the live input toggled and the next snapshot says so.
 */
async function togglesThroughLabel(harness: Harness, markup: string, large: boolean, axRead: "whole" | "viewport"): Promise<void> {
  await harness.goto("/basic");
  await harness.evaluate(`(() => { document.body.innerHTML = ${JSON.stringify(toggleStyle + markup + (large ? "<p>Filler paragraph</p>".repeat(400) : ""))}; return true; })()`);
  // The engine's own size rule picks the read this case is about.
  const [elements, screens] = await harness.evaluate<[number, number]>(documentSizeExpression);
  expect(viewportFirst({ elements, screens }, true)).toBe(large);
  const read = async (): Promise<string> => (await takePageSnapshot(harness.engine.page, harness.engine.refs, { axRead })).lines.map((l) => l.text).join("\n");
  const before = await read();
  const ref = /^(e\d+) checkbox "Remember me" unchecked$/m.exec(before)?.[1];
  expect(ref, before).toBeDefined();
  // The transparent input itself gets no ref of its own.
  expect(before.match(/Remember me/g), before).toHaveLength(1);
  await harness.tools.click(create(ClickParamsSchema, { ref: ref! }), undefined);
  expect(await harness.evaluate<boolean>("document.getElementById('remember').checked")).toBe(true);
  expect(await read()).toMatch(/^e\d+ checkbox "Remember me" checked$/m);
}

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
    const { partial, asked, viewport } = await readsOf(h, ids);
    // A plain label is Chromium's LabelText (not a ref; its text names its control), and an
    // empty alt makes an image presentational: neither AX node can change the snapshot.
    // The custom toggle's label stands for its hidden input, so it is read, in the same page
    // call as the images that may print (Blink's computed role and name). A focusable label is
    // a clickable region, read from the DOM alone, and so is an image with a click listener.
    expect(partial).toEqual(["roled"]);
    expect(asked).toEqual(["arialabel", "custom", "described", "noalt", "titled"]);
    expect(viewport).toContain('checkbox "Subscribe"');
    expect(viewport).toMatch(/e\d+ checkbox "Custom toggle" unchecked/);
    expect(viewport).toContain('img "Revenue chart"');
    expect(await text("whole")).toBe(viewport);
  });

  it("takes stateless links, buttons, headings and images from one page call, and any state from the AX read", async () => {
    await basicWith(
      [
        '<button id="plain">Plain button</button>',
        '<button id="off" disabled>Off</button>',
        '<fieldset disabled><button id="fenced">In a disabled fieldset</button></fieldset>',
        '<div aria-disabled="true"><a id="ariaoff" href="#a">Under aria-disabled</a></div>',
        '<button id="menu" aria-expanded="false">Menu</button>',
        '<button id="bold" aria-pressed="true">Bold</button>',
        '<a id="nohref">No href</a>',
        '<a id="tablink" href="#t" role="tab">Tab link</a>',
        '<h3 id="h3">Level three</h3>',
        '<h2 id="leveled" aria-level="4">Level four</h2>',
        '<button id="focused">Focused</button>',
        '<div contenteditable="true"><a id="edited" href="#e">Link in an editor</a></div>',
        '<a id="logo" href="#l"><img alt="Logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20"> Home</a>',
        '<button id="partly"><span style="display:none">hidden words</span>Shown words</button>',
        '<button id="labelled" aria-label="Close">×</button>',
        '<p id="lbl">Read the guide</p><a id="byref" href="#g" aria-labelledby="lbl">here</a>',
        '<button id="titled" title="Help">?</button>',
        '<input id="submit" type="submit" value="Send">',
        '<div aria-hidden="true"><button id="hiddenbtn">Hidden</button></div>',
      ].join(""),
    );
    await h.evaluate(`(() => { document.getElementById("focused").focus(); return true; })()`);
    const ids = ["plain", "off", "fenced", "ariaoff", "menu", "bold", "nohref", "tablink", "h3", "leveled", "focused", "edited", "logo", "partly", "labelled", "byref", "titled", "submit", "hiddenbtn"];
    const { partial, asked, viewport } = await readsOf(h, ids);
    // State attributes and tags outside the path are read as before. The page call turns back
    // what only the live page knows (disabled through an ancestor, editable, focused), and
    // those are read one by one too.
    expect(asked).toEqual(["ariaoff", "byref", "edited", "fenced", "focused", "h3", "labelled", "logo", "partly", "plain", "titled"]);
    expect(partial).toEqual(["ariaoff", "bold", "edited", "fenced", "focused", "hiddenbtn", "leveled", "menu", "nohref", "off", "submit", "tablink"]);
    expect(viewport).toContain('button "Focused" focused');
    expect(viewport).toContain('button "In a disabled fieldset" disabled');
    expect(viewport).toContain('### Level three');
    expect(viewport).toContain('link "Read the guide"');
    expect(await text("whole")).toBe(viewport);
  });

  it("takes focusable generics and transparent controls from the page call, hidden ones from the AX read", async () => {
    await basicWith(
      [
        '<div id="track" onmousedown="1" style="position:relative;width:240px;height:6px;background:#ddd;cursor:pointer">',
        '<span id="knob" tabindex="0" style="position:absolute;left:40%;top:-6px;width:18px;height:18px;background:#36c"></span></div>',
        '<span id="named" tabindex="0" aria-label="Named span">x</span>',
        '<ul><li id="item" tabindex="0" aria-label="Named item">Focusable item</li></ul>',
        '<input id="clear" type="checkbox" style="opacity:0" aria-label="Transparent box">',
        '<label><input id="unseen" type="checkbox" style="visibility:hidden"> Unseen box</label>',
      ].join(""),
    );
    const ids = ["knob", "named", "item", "clear", "unseen"];
    const { partial, asked, viewport } = await readsOf(h, ids);
    // A focusable element with no role of its own is a generic, so is a transparent control; an
    // element of another role, or one whose visibility is hidden, is turned back to the AX read.
    expect(asked).toEqual(["clear", "item", "knob", "named", "unseen"]);
    expect(partial).toEqual(["item", "unseen"]);
    expect(viewport).toContain('slider = "44%"');
    expect(viewport).toContain('listitem "Named item"');
    expect(await text("whole")).toBe(viewport);
  });

  it("takes native fields, checkboxes, radios and selects from the page call with the state Chromium reports", async () => {
    await basicWith(
      [
        '<label>Name <input id="name" value="Ada"></label>',
        '<input id="placeheld" placeholder="Search the shop" type="search">',
        '<label>Email <input id="email" type="email" required value="ada@example.com"></label>',
        '<label>Code <input id="code" readonly value="X-1"></label>',
        '<label>Notes <textarea id="notes">line one\nline two</textarea></label>',
        '<label><input id="agree" type="checkbox" checked required> Agree</label>',
        '<label><input id="some" type="checkbox"> Some</label>',
        '<label><input id="r1" type="radio" name="r" checked> One</label><label><input id="r2" type="radio" name="r"> Two</label>',
        '<label>Size <select id="size" required><option>Small</option><option selected label="Medium (M)">M</option></select></label>',
        '<label>Many <select id="many" size="3"><option>A</option><option>B</option></select></label>',
        '<label>Pick <input id="listed" list="dl"></label><datalist id="dl"><option>X</option></datalist>',
        '<label>Secret <input id="secret" type="password" value="hunter2"></label>',
        '<label>Count <input id="count" type="number" value="3"></label>',
        '<fieldset disabled><label>Locked <select id="locked"><option>Z</option></select></label></fieldset>',
        '<label>Typing <input id="typing" value="here"></label>',
      ].join(""),
    );
    await h.evaluate(`(() => { document.getElementById("some").indeterminate = true; document.getElementById("typing").focus(); return true; })()`);
    const ids = ["name", "placeheld", "email", "code", "notes", "agree", "some", "r1", "r2", "size", "many", "listed", "secret", "count", "locked", "typing"];
    const { partial, asked, viewport } = await readsOf(h, ids);
    expect(asked).toEqual(["agree", "code", "email", "locked", "name", "notes", "placeheld", "r1", "r2", "size", "some", "typing"]);
    expect(partial).toEqual(["count", "listed", "locked", "many", "secret", "typing"]);
    expect(viewport).toContain('checkbox "Some" mixed');
    // Chromium reports "required" for text fields only.
    expect(viewport).toMatch(/checkbox "Agree" checked\n/);
    expect(viewport).toMatch(/combobox "Size" = "Medium \(M\)" collapsed\n/);
    expect(viewport).toContain('textbox "Email" = "ada@example.com" required');
    expect(viewport).toContain('textbox "Code" = "X-1" readonly');
    expect(viewport).toContain('searchbox "Search the shop"');
    expect(viewport).toContain('textbox "Typing" = "here" focused');
    expect(await text("whole")).toBe(viewport);
  });

  it("takes date, time, colour and range inputs, summaries and icons from the page call, as the whole-tree read prints them", async () => {
    await basicWith(
      [
        '<label>Start <input id="d" type="date"></label><label>Due <input id="d2" type="date" value="2025-06-01"></label>',
        '<label>Meet <input id="dt" type="datetime-local"></label><input id="wk" type="week" value="2025-W23"><input id="mo" type="month">',
        '<label>At <input id="tm" type="time"></label><label>Needed <input id="tr" type="time" required></label>',
        '<input id="co" type="color" value="#2aa888"><label>Plain colour <input id="c0" type="color"></label>',
        '<label>Guests <input id="rg" type="range" min="1" max="8" value="2"></label><input id="r0" type="range"><input id="rb" type="range" min="10" max="5">',
        '<details id="dc"><summary id="sc">Closed</summary>x</details><details open><summary id="so">Opened</summary>y</details>',
        '<div class="row"><svg id="ic" width="18" height="18"><circle cx="9" cy="9" r="8"></circle></svg> Icon row</div>',
      ].join(""),
    );
    const ids = ["d", "d2", "dt", "wk", "mo", "tm", "tr", "co", "c0", "rg", "r0", "rb", "sc", "so", "ic"];
    const { partial, asked, viewport } = await readsOf(h, ids);
    expect(asked).toEqual([...ids].sort());
    // A required picker keeps the AX read.
    expect(partial).toEqual(["tr"]);
    expect(viewport).toContain('slider "Guests" = "2" range 1–8');
    expect(viewport).toContain('datetime = "2025-W23"');
    expect(viewport).toMatch(/"Closed" collapsed/);
    expect(viewport).toMatch(/"Opened" expanded/);
    expect(await text("whole")).toBe(viewport);
  });

  it("agrees with the whole-tree read on common page patterns read through the page call", async () => {
    const gif = 'src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20"';
    await basicWith(
      [
        '<nav aria-label="Breadcrumb"><a href="/">Home</a> › <a href="/c" aria-current="page">Category</a></nav>',
        `<article><a href="#p1"><img alt="" ${gif}><h3>Card title</h3><span>£12</span></a>`,
        `<button aria-label="Add Card title to basket"><svg width="12" height="12"><title>basket</title></svg></button>`,
        `<a href="#p2" title="Only a title"><img alt="" ${gif}></a><a href="#p3"><img alt="Picture link" ${gif}></a></article>`,
        '<button type="submit"><span aria-hidden="true">★</span> Favourite</button>',
        '<a href="#x" aria-describedby="d1">Described link</a><span id="d1">more words</span>',
        '<h2><a href="#anchor">Heading link</a></h2><h2 tabindex="-1">Focus target</h2>',
        '<form><fieldset><legend>Contact</legend>',
        '<label for="n1">Full name <span aria-hidden="true">*</span></label><input id="n1" required autocomplete="name">',
        '<input aria-label="Phone number" type="tel" value=" 0123 ">',
        '<label>Topic <select><optgroup label="Sales"><option>Pricing</option></optgroup><option selected>  Support   request </option></select></label>',
        '<label>Empty <select></select></label>',
        '<textarea aria-label="Message" placeholder="Write here"></textarea>',
        '<input type="email" aria-label="Mail" value="  a@b.c  ">',
        '</fieldset></form>',
        '<details><summary>Shipping</summary><a href="#s">Rates</a></details>',
        '<dialog open aria-label="Note"><p>Saved</p><button>OK</button></dialog>',
        '<button aria-haspopup="menu">Actions</button><a href="#m" aria-haspopup="true">Menu link</a>',
        '<button popovertarget="pop">Open popover</button><div id="pop" popover>Popover text</div>',
        '<button commandfor="pop2" command="show-popover">Open second</button><div id="pop2" popover>Second</div>',
        '<button style="text-transform:uppercase">shouting</button><a href="#css" class="after">Styled</a>',
        '<style>.after::after{content:" (new)"}</style>',
      ].join(""),
    );
    const viewport = await text("viewport");
    expect(viewport).toContain('link "Card title £12"');
    expect(viewport).toContain('button "Add Card title to basket"');
    expect(viewport).toContain('button "Open popover" collapsed');
    expect(await text("whole")).toBe(viewport);
  });

  it.each(transparentToggles)("reads a label over a transparent checkbox as that checkbox, whole-tree on a small page, and its ref toggles it (label %s)", async (_, markup) => {
    await togglesThroughLabel(h, markup, false, "whole");
  });

  it.each(transparentToggles)("reads a label over a transparent checkbox as that checkbox, viewport-first on a large page, and its ref toggles it (label %s)", async (_, markup) => {
    await togglesThroughLabel(h, markup, true, "viewport");
  });

  it("chooses viewport-first only when much of the document is off-screen", () => {
    expect(viewportFirst({ elements: 144, screens: 1.3 })).toBe(false);
    expect(viewportFirst({ elements: 587, screens: 4.25 })).toBe(true);
    expect(viewportFirst({ elements: 2000, screens: 1 })).toBe(false);
    expect(viewportFirst({ elements: 3500, screens: 1 })).toBe(true);
    expect(viewportFirst({ elements: 40, screens: 30 })).toBe(false);
    // With the top document's common elements read in one page call, size alone decides.
    expect(viewportFirst({ elements: 144, screens: 1.3 }, true)).toBe(true);
    expect(viewportFirst({ elements: 31, screens: 1 }, true)).toBe(false);
  });
});

describe("viewport-first AX read without Blink's computed role and name", () => {
  let bare: Harness;
  beforeAll(async () => {
    bare = await startHarness(["--disable-blink-features=ComputedAccessibilityInfo"]);
  });
  afterAll(async () => {
    await bare?.close();
  });

  it("reads every node one by one and prints what the whole-tree read prints", async () => {
    await bare.goto("/basic");
    expect(await bare.evaluate<boolean>(`"computedName" in Element.prototype`)).toBe(false);
    await bare.evaluate(`(() => { document.body.insertAdjacentHTML("afterbegin", '<button id="plain">Plain button</button><h3 id="h3">Level three</h3>'); return true; })()`);
    // The first snapshot learns that the feature is off; later ones do not ask again.
    const first = await readsOf(bare, ["plain", "h3"]);
    expect(first.asked).toEqual(["h3", "plain"]);
    expect(first.partial).toEqual(["h3", "plain"]);
    const { partial, asked, viewport } = await readsOf(bare, ["plain", "h3"]);
    expect(asked).toEqual([]);
    expect(partial).toEqual(["h3", "plain"]);
    expect(viewport).toBe(first.viewport);
    expect(viewport).toContain('button "Plain button"');
    const whole = await takePageSnapshot(bare.engine.page, bare.engine.refs, { axRead: "whole" });
    expect(whole.lines.map((l) => `${"  ".repeat(l.depth)}${l.text}`).join("\n")).toBe(viewport);
  });

  it.each(transparentToggles)("reads a label over a transparent checkbox node by node as that checkbox, and its ref toggles it (label %s)", async (_, markup) => {
    await togglesThroughLabel(bare, markup, true, "viewport");
  });
});
