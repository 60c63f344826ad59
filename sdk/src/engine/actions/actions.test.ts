import { writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import {
  ClickParamsSchema,
  DragParamsSchema,
  ExtractParamsSchema,
  GoBackParamsSchema,
  HoverParamsSchema,
  PressKeysParamsSchema,
  ScreenshotParamsSchema,
  ScrollParamsSchema,
  SelectOptionParamsSchema,
  TakeSnapshotParamsSchema,
  TypeTextParamsSchema,
  UploadFileParamsSchema,
  WaitForParamsSchema,
  OpenTabParamsSchema,
  ListTabsParamsSchema,
  CloseTabParamsSchema,
  SwitchTabParamsSchema,
} from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../fixtures/harness.js";

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = await mkdtemp(join(tmpdir(), "baton-upload-"));
});
afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

async function refFor(role: string, name: string, includeOffscreen = false): Promise<string> {
  const r = await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, { includeOffscreen }), undefined);
  const line = (r.text ?? "").split("\n").find((l) => l.includes(` ${role} "${name}"`));
  const ref = line && /(e\d+)/.exec(line)?.[1];
  if (!ref) throw new Error(`no ${role} "${name}" in\n${r.text}`);
  return ref;
}

describe("actions, verified by their effect on the page", () => {
  it("type_text replaces an input's value with key events and presses Enter", async () => {
    await h.goto("/editor");
    const ref = await refFor("textbox", "Title");
    const r = await h.tools.typeText(create(TypeTextParamsSchema, { ref, text: "Hello World", pressEnter: true }), undefined);
    expect(r.value).toBe("Hello World");
    expect(await h.evaluate("document.getElementById('title').value")).toBe("Hello World");
    expect(await h.evaluate("document.title")).toBe("Submitted Hello World");
    expect(r.evidence?.title).toBe("Submitted Hello World");
    expect(r.evidence?.focused?.ref).toBe(ref);
  });

  it("type_text into a field that has the focus types without clicking it again, appending or replacing as asked", async () => {
    await h.goto("/editor");
    const ref = await refFor("textbox", "Title");
    const initial = (await h.evaluate("document.getElementById('title').value")) as string;
    await h.evaluate(
      "window.__downs = 0; window.__keys = 0; const t = document.getElementById('title');" +
        "t.addEventListener('mousedown', () => window.__downs++); t.addEventListener('keydown', () => window.__keys++); 0",
    );
    await h.tools.typeText(create(TypeTextParamsSchema, { ref, text: "Hello" }), undefined);
    // The caret moved away from the end: appending still adds at the end, as after a click.
    await h.evaluate("document.getElementById('title').setSelectionRange(0, 0); 0");
    const appended = await h.tools.typeText(create(TypeTextParamsSchema, { ref, text: " again", clear: false }), undefined);
    expect(appended.value).toBe("Hello again");
    const replaced = await h.tools.typeText(create(TypeTextParamsSchema, { ref, text: "Fresh" }), undefined);
    expect(replaced.value).toBe("Fresh");
    expect(await h.evaluate("document.getElementById('title').value")).toBe("Fresh");
    expect(replaced.evidence?.focused?.ref).toBe(ref);
    // One click (the first call's), and a real key event for every character and each clearing Backspace.
    expect(await h.evaluate("window.__downs")).toBe(1);
    expect(await h.evaluate("window.__keys")).toBe((initial ? 1 : 0) + "Hello".length + " again".length + 1 + "Fresh".length);
  });

  it("type_text inserts the text in one step where nothing hears keys, as a user's typing leaves it", async () => {
    await h.goto("/plain-form");
    const subject = await refFor("textbox", "Subject");
    const r = await h.tools.typeText(create(TypeTextParamsSchema, { ref: subject, text: "Quarterly report" }), undefined);
    expect(r.value).toBe("Quarterly report");
    // The old value replaced by the insertion itself: no Backspace, one input event.
    expect(await h.evaluate("window.__inputs")).toEqual(["subject:insertText"]);
    const message = await refFor("textbox", "Message");
    const m = await h.tools.typeText(create(TypeTextParamsSchema, { ref: message, text: "Line one\r\nLine two" }), undefined);
    expect(m.value).toBe("Line one\nLine two");
    const appended = await h.tools.typeText(create(TypeTextParamsSchema, { ref: subject, text: " (final)", clear: false }), undefined);
    expect(appended.value).toBe("Quarterly report (final)");
    // A one-line field drops a line break, as typing Enter into it would not add one.
    const oneLine = await h.tools.typeText(create(TypeTextParamsSchema, { ref: subject, text: "Two\nparts" }), undefined);
    expect(oneLine.value).toBe("Twoparts");
  });

  it("type_text types key by key once anything in the field's document or window listens for keys", async () => {
    const keysFor = async (setup: string, text: string): Promise<number> => {
      await h.goto("/plain-form");
      await h.evaluate(`window.__keys = 0; ${setup}; 0`);
      const r = await h.tools.typeText(create(TypeTextParamsSchema, { ref: await refFor("textbox", "Subject"), text }), undefined);
      expect(r.value).toBe(text);
      return h.evaluate<number>("window.__keys");
    };
    // A shortcut handler on the window; a key listener on another element of the document
    // (the field's input events count: the Backspace clearing "Draft", then one per key); a
    // widget that starts listening only once the field has the focus.
    expect(await keysFor("window.addEventListener('keydown', () => window.__keys++)", "abc")).toBe(4);
    expect(await keysFor("document.querySelector('textarea').addEventListener('keyup', () => 0); document.getElementById('subject').addEventListener('input', () => window.__keys++)", "abcd")).toBe(5);
    expect(
      await keysFor("document.getElementById('subject').addEventListener('focus', () => document.addEventListener('keypress', () => window.__keys++), { once: true })", "xyz"),
    ).toBe(3);
  });

  it("type_text writes into contenteditable with Input.insertText", async () => {
    await h.goto("/editor");
    const ref = await refFor("textbox", "Body");
    await h.tools.typeText(create(TypeTextParamsSchema, { ref, text: "New body" }), undefined);
    expect(await h.evaluate("document.getElementById('body').innerText.trim()")).toBe("New body");
    expect(await h.evaluate("document.getElementById('out').textContent")).toBe("input:body");
  });

  it("press_keys sends chords to the focused field", async () => {
    await h.goto("/editor");
    const ref = await refFor("textbox", "Title");
    await h.tools.pressKeys(create(PressKeysParamsSchema, { ref, keys: ["End", "Control+a", "Backspace", "x", "y"] }), undefined);
    expect(await h.evaluate("document.getElementById('title').value")).toBe("xy");
  });

  it("select_option picks by label and fires change; multi-select takes several", async () => {
    await h.goto("/select");
    const ref = await refFor("combobox", "Country");
    const r = await h.tools.selectOption(create(SelectOptionParamsSchema, { ref, values: ["Germany"] }), undefined);
    expect(r.selected).toEqual(["Germany"]);
    expect(await h.evaluate("document.getElementById('out').textContent")).toBe("changed:de");
    const multi = await refFor("listbox", "Toppings");
    const m = await h.tools.selectOption(create(SelectOptionParamsSchema, { ref: multi, values: ["Ham", "basil"] }), undefined);
    expect(m.selected).toEqual(["Ham", "Basil"]);
  });

  it("says when a click changed nothing on the page, and not when it did", async () => {
    await h.goto("/basic");
    const dead = await h.tools.click(create(ClickParamsSchema, { ref: await refFor("button", "Save") }), undefined);
    expect(dead.evidence?.notes).toContain("nothing on the page changed after the action");
    const box = await h.tools.click(create(ClickParamsSchema, { ref: await refFor("checkbox", "Agree to terms") }), undefined);
    expect(box.evidence?.notes ?? []).not.toContain("nothing on the page changed after the action");
    await h.goto("/rerender");
    const live = await h.tools.click(create(ClickParamsSchema, { ref: await refFor("button", "Re-render") }), undefined);
    expect(live.evidence?.notes ?? []).not.toContain("nothing on the page changed after the action");
  });

  it("drag reorders a native drag-and-drop list", async () => {
    await h.goto("/drag");
    const a = await refFor("listitem", "Item A");
    const c = await refFor("listitem", "Item C");
    await h.tools.drag(create(DragParamsSchema, { fromRef: a, toRef: c }), undefined);
    expect(await h.evaluate("document.title")).toBe("Order BCA");
  });

  it("upload_file sets files on a file input", async () => {
    await h.goto("/upload");
    const file = join(dir, "report.txt");
    await writeFile(file, "hello");
    const ref = await refFor("button", "Attachment");
    const r = await h.tools.uploadFile(create(UploadFileParamsSchema, { ref, paths: [file] }), undefined);
    expect(r.files).toEqual(["report.txt"]);
    expect(await h.evaluate("document.getElementById('out').textContent")).toBe("report.txt:5");
  });

  it("hover opens a hover menu; the new item shows up in evidence", async () => {
    await h.goto("/hover");
    const ref = await refFor("button", "Menu");
    const r = await h.tools.hover(create(HoverParamsSchema, { ref }), undefined);
    expect(r.evidence?.refsAdded?.length).toBeGreaterThan(0);
    await refFor("link", "Secret item");
  });

  it("scroll moves the page and clicking an off-screen ref scrolls it into view", async () => {
    await h.goto("/long");
    const s = await h.tools.scroll(create(ScrollParamsSchema, { pixels: 500 }), undefined);
    expect(s.moved).toBe(true);
    expect(s.viewport?.scrollY).toBe(500);
    const ref = await refFor("button", "Bottom action", true);
    await h.tools.click(create(ClickParamsSchema, { ref }), undefined);
    expect(await h.evaluate<string[]>("window.__log")).toContain("click:Bottom action");
    const top = await h.tools.scroll(create(ScrollParamsSchema, { direction: 1, toEdge: true }), undefined);
    expect(top.viewport?.scrollY).toBe(0);
  });

  it("click on a link navigates; evidence says so; go_back returns", async () => {
    await h.goto("/nav");
    const ref = await refFor("link", "Next page");
    const r = await h.tools.click(create(ClickParamsSchema, { ref }), undefined);
    expect(r.evidence?.navigated).toBe(true);
    expect(r.evidence?.url).toMatch(/\/nav\/next$/);
    expect(r.evidence?.title).toBe("Next");
    const back = await h.tools.goBack(create(GoBackParamsSchema, {}), undefined);
    expect(back.moved).toBe(true);
    expect(back.url).toMatch(/\/nav$/);
  });

  it("settles a slow navigation before reporting", async () => {
    await h.goto("/nav");
    const ref = await refFor("link", "Slow link");
    const r = await h.tools.click(create(ClickParamsSchema, { ref }), undefined);
    expect(r.evidence?.title).toBe("Slow");
  });

  it("answers alert and confirm dialogs and reports them", async () => {
    await h.goto("/dialogs");
    const alertRef = await refFor("button", "Alert me");
    const a = await h.tools.click(create(ClickParamsSchema, { ref: alertRef }), undefined);
    expect(a.evidence?.dialog).toMatchObject({ type: "alert", message: "Saved!", accepted: true });
    const confirmRef = await refFor("button", "Confirm me");
    const c = await h.tools.click(create(ClickParamsSchema, { ref: confirmRef }), undefined);
    expect(c.evidence?.dialog).toMatchObject({ type: "confirm", message: "Delete it?", accepted: true });
    expect(await h.evaluate("document.getElementById('out').textContent")).toBe("confirmed");
  });

  it("wait_for sees text appear and reports a timeout as unsatisfied", async () => {
    await h.goto("/basic");
    await h.evaluate("setTimeout(() => document.body.append('Ready now'), 200), 1");
    const r = await h.tools.waitFor(create(WaitForParamsSchema, { text: "Ready now", timeoutMs: 5000 }), undefined);
    expect(r.satisfied).toBe(true);
    const n = await h.tools.waitFor(create(WaitForParamsSchema, { text: "Never there", timeoutMs: 300 }), undefined);
    expect(n.satisfied).toBe(false);
    // Text drawn by CSS generated content, which innerText leaves out.
    await h.evaluate(`document.body.append(Object.assign(document.createElement("span"), { id: "badge" })); setTimeout(() => document.head.append(Object.assign(document.createElement("style"), { textContent: '#badge::after { content: "Synced ✓"; }' })), 200), 1`);
    const g = await h.tools.waitFor(create(WaitForParamsSchema, { text: "synced ✓", timeoutMs: 5000 }), undefined);
    expect(g.satisfied).toBe(true);
    expect(g.waitedMs).toBeGreaterThan(100);
    const gone = await h.tools.waitFor(create(WaitForParamsSchema, { textGone: "Synced", timeoutMs: 300 }), undefined);
    expect(gone.satisfied).toBe(false);
  });

  it("screenshot of an element and extract as markdown", async () => {
    await h.goto("/basic");
    const ref = await refFor("button", "Save");
    const s = await h.tools.screenshot(create(ScreenshotParamsSchema, { ref }), undefined);
    expect(s.image?.width).toBeGreaterThan(10);
    expect(s.image?.width).toBeLessThan(200);
    const x = await h.tools.extract(create(ExtractParamsSchema, {}), undefined);
    expect(x.content).toContain("# Account");
    expect(x.content).toContain("Fill in your details.");
  });

  it("reports a tab a click opened, and can switch to and close it", async () => {
    await h.goto("/nav");
    const ref = await refFor("link", "New tab link");
    const r = await h.tools.click(create(ClickParamsSchema, { ref }), undefined);
    const tabId = r.evidence?.newTabId ?? "";
    expect(tabId).not.toBe("");
    const s = await h.tools.switchTab(create(SwitchTabParamsSchema, { tabId }), undefined);
    expect(s.tab?.active).toBe(true);
    const closed = await h.tools.closeTab(create(CloseTabParamsSchema, { tabId }), undefined);
    expect(closed.tabs?.some((t) => t.tabId === tabId)).toBe(false);
    expect(closed.activeTabId).not.toBe(tabId);
  });

  it("opens, lists and closes tabs it owns", async () => {
    const opened = await h.tools.openTab(create(OpenTabParamsSchema, { url: `${h.server.originA}/basic` }), undefined);
    const list = await h.tools.listTabs(create(ListTabsParamsSchema, {}), undefined);
    expect(list.tabs?.length).toBe(2);
    expect(list.activeTabId).toBe(opened.tab?.tabId);
    const closed = await h.tools.closeTab(create(CloseTabParamsSchema, { tabId: opened.tab?.tabId ?? "" }), undefined);
    expect(closed.tabs?.length).toBe(1);
  });

  it("reports an opened tab once its page has loaded, not while it is still blank", async () => {
    // /slow answers after 300 ms: the tool must not return (and the next tool must not run)
    // on the about:blank the tab starts with.
    const opened = await h.tools.openTab(create(OpenTabParamsSchema, { url: `${h.server.originA}/slow` }), undefined);
    expect(opened.tab?.url).toBe(`${h.server.originA}/slow`);
    expect(opened.tab?.title).toBe("Slow");
    await h.tools.closeTab(create(CloseTabParamsSchema, { tabId: opened.tab?.tabId ?? "" }), undefined);
  });
});
