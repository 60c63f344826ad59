import { create } from "@bufbuild/protobuf";
import { refsInText } from "../../contract/index.js";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import {
  ClickParamsSchema,
  DragParamsSchema,
  ExtractParamsSchema,
  NavigateParamsSchema,
  PressKeysParamsSchema,
  ScrollParamsSchema,
  SelectOptionParamsSchema,
  TakeSnapshotParamsSchema,
  ToolCallSchema,
  TypeTextParamsSchema,
  UploadFileParamsSchema,
  WaitForParamsSchema,
} from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatchToolCall, ToolErrorCode } from "../../contract/index.js";
import type { EngineHandlers } from "../handlers.js";
import { type Harness, startHarness } from "../fixtures/harness.js";
import { appFixtures } from "../fixtures/apps/index.js";
import { groundTruth, lightIndexes } from "../fixtures/ground-truth.js";
import { type Fixture, fixtures } from "../fixtures/pages.js";
import { toggleStyle, transparentToggles } from "../fixtures/toggles.js";
import { DomEngine } from "./dom-engine.js";
import { domHandlers } from "./dom-handlers.js";
import { cdpDomRunner } from "./dom-runner.js";

let h: Harness;
let dom: EngineHandlers;
let domEngine: DomEngine;
beforeAll(async () => {
  h = await startHarness();
  domEngine = new DomEngine(cdpDomRunner(h.engine.page));
  dom = domHandlers(domEngine);
});
afterAll(async () => {
  await h?.close();
});

const snapshot = (init: Partial<{ offset: number; maxChars: number; includeOffscreen: boolean }> = {}) =>
  dom.takeSnapshot(create(TakeSnapshotParamsSchema, init), undefined);

function refOf(text: string, role: string, name: string): string | undefined {
  for (const line of text.split("\n")) {
    const m = /^\s*(e\d+) (\S+) "((?:[^"\\]|\\.)*)"/.exec(line);
    if (m && m[2] === role && m[3] === name) return m[1];
  }
  return undefined;
}

async function refFor(role: string, name: string): Promise<string> {
  const r = await snapshot();
  const ref = refOf(r.text ?? "", role, name);
  if (!ref) throw new Error(`no ${role} "${name}" in\n${r.text}`);
  return ref;
}

describe.each(fixtures.map((f) => [f.path, f] as [string, Fixture]))("DOM fallback snapshot of %s", (_path, f) => {
  it("lists every reachable expected element and no hidden or covered one", async () => {
    await h.goto(f.path);
    const r = await snapshot();
    for (const e of f.expected.filter((e) => !e.crossOrigin)) {
      expect(refOf(r.text ?? "", e.role, e.name), `${e.role} "${e.name}" in\n${r.text}`).toBeDefined();
    }
    for (const name of f.absent) expect(r.text, `"${name}" must not be listed`).not.toContain(`"${name}"`);
    if (f.expected.some((e) => e.crossOrigin)) expect(r.text).toMatch(/iframe \[cross-origin localhost:\d+\/remote\]/);
  });

  if (f.clickable) {
    it("lands a click on every reachable expected element", async () => {
      await h.goto(f.path);
      const r = await snapshot();
      for (const e of f.expected.filter((e) => !e.crossOrigin)) {
        const ref = refOf(r.text ?? "", e.role, e.name)!;
        const before = await h.evaluate<string[]>("window.__log.slice()");
        await dom.click(create(ClickParamsSchema, { ref }), undefined);
        const log = await h.evaluate<string[]>("window.__log.slice()");
        expect(log.slice(before.length), `click on ${ref} ${e.name}`).toContain(`click:${e.name}`);
      }
    });
  }
});

describe.each(appFixtures.map((f) => [f.path] as const))("DOM fallback on app %s", (path) => {
  // The fallback runs as a page script: it sees handler properties (onclick), not listeners
  // added with addEventListener. By what it can see, it must find every target and no phantom.
  it("gives every target a page script can see a ref, and lists no phantom", async () => {
    await h.goto(path);
    const text = (await snapshot({ maxChars: 50_000 })).text ?? "";
    const refs = refsInText(text);
    const ids: number[] = [];
    for (const ref of refs) ids.push((await domEngine.resolve(ref, "ref")).id);
    const refIndexes = new Set(await domEngine.runner.call<number[]>("lightIndex", ids));
    const targets = await groundTruth(h.engine.page, { listeners: "page" });
    const targetIndexes = await lightIndexes(h.engine.page, targets.map((t) => t.backendNodeId));
    const missed = targets.filter((_, i) => !refIndexes.has(targetIndexes[i]!)).map((t) => `<${t.tag}> "${t.text}" (${t.signs})`);
    expect(missed, `missed in\n${text}`).toEqual([]);
    expect(refIndexes.size, `phantoms in\n${text}`).toBe(new Set(targetIndexes).size);
  });
});

describe("DOM fallback actions, verified by their effect", () => {
  it("types into an input (with Enter) and into contenteditable", async () => {
    await h.goto("/editor");
    const title = await refFor("textbox", "Title");
    const r = await dom.typeText(create(TypeTextParamsSchema, { ref: title, text: "Hello", pressEnter: true }), undefined);
    expect(r.value).toBe("Hello");
    expect(await h.evaluate("document.title")).toBe("Submitted Hello");
    const body = await refFor("textbox", "Body");
    await dom.typeText(create(TypeTextParamsSchema, { ref: body, text: "Fresh" }), undefined);
    expect(await h.evaluate("document.getElementById('body').innerText.trim()")).toBe("Fresh");
    expect(await h.evaluate("document.getElementById('out').textContent")).toBe("input:body");
  });

  it("press_keys edits the focused field", async () => {
    await h.goto("/editor");
    const title = await refFor("textbox", "Title");
    await dom.pressKeys(create(PressKeysParamsSchema, { ref: title, keys: ["Control+a", "Backspace", "o", "k"] }), undefined);
    expect(await h.evaluate("document.getElementById('title').value")).toBe("ok");
  });

  it("reads a custom switch's label as its hidden checkbox and toggles it by click and by Space", async () => {
    await h.goto("/apps/settings");
    const checked = () => h.evaluate<boolean>("document.getElementById('news').checked");
    expect((await snapshot()).text).toMatch(/e\d+ checkbox "Product news" unchecked/);
    await dom.click(create(ClickParamsSchema, { ref: await refFor("checkbox", "Product news") }), undefined);
    expect(await checked()).toBe(true);
    await dom.pressKeys(create(PressKeysParamsSchema, { ref: await refFor("checkbox", "Product news"), keys: [" "] }), undefined);
    expect(await checked()).toBe(false);
    await dom.pressKeys(create(PressKeysParamsSchema, { ref: await refFor("checkbox", "Two-factor sign-in"), keys: ["Space"] }), undefined);
    expect(await h.evaluate("document.getElementById('tfa').checked")).toBe(false);
  });

  it("selects an option, drags a list item, scrolls", async () => {
    await h.goto("/select");
    const ref = await refFor("combobox", "Country");
    const s = await dom.selectOption(create(SelectOptionParamsSchema, { ref, values: ["Japan"] }), undefined);
    expect(s.selected).toEqual(["Japan"]);
    expect(await h.evaluate("document.getElementById('out').textContent")).toBe("changed:jp");
    await h.goto("/drag");
    const a = await refFor("listitem", "Item A");
    const c = await refFor("listitem", "Item C");
    await dom.drag(create(DragParamsSchema, { fromRef: a, toRef: c }), undefined);
    expect(await h.evaluate("document.title")).toBe("Order BCA");
    await h.goto("/long");
    const sc = await dom.scroll(create(ScrollParamsSchema, { pixels: 400 }), undefined);
    expect(sc.moved).toBe(true);
    expect(await h.evaluate("scrollY")).toBe(400);
  });

  it.each(transparentToggles)("reads a label over a transparent checkbox as that checkbox, and its ref toggles it (label %s)", async (_, markup) => {
    await h.goto("/basic");
    await h.evaluate(`(() => { document.body.innerHTML = ${JSON.stringify(toggleStyle + markup)}; return true; })()`);
    const before = (await snapshot()).text ?? "";
    const ref = /^\s*(e\d+) checkbox "Remember me" unchecked$/m.exec(before)?.[1];
    expect(ref, before).toBeDefined();
    // The transparent input gets no line of its own.
    expect(before.match(/Remember me/g), before).toHaveLength(1);
    await dom.click(create(ClickParamsSchema, { ref: ref! }), undefined);
    expect(await h.evaluate<boolean>("document.getElementById('remember').checked")).toBe(true);
    expect((await snapshot()).text).toMatch(/^\s*e\d+ checkbox "Remember me" checked( focused)?$/m);
  });

  it("spells headings as the CDP engine does: the tag's level, aria-level over it, role=heading at level 2", async () => {
    await h.goto("/basic");
    const markup = `<h1>Top</h1><h4>Fourth</h4><div role="heading" aria-level="3">Aria three</div><div role="heading">Plain role</div><h2 aria-level="5">Five</h2>`;
    await h.evaluate(`(() => { document.body.innerHTML = ${JSON.stringify(markup)}; return true; })()`);
    const lines = (await snapshot()).text?.split("\n").map((l) => l.trim()) ?? [];
    expect(lines).toEqual(expect.arrayContaining(["# Top", "#### Fourth", "### Aria three", "## Plain role", "##### Five"]));
    const cdp = (await h.snapshot()).split("\n").map((l) => l.trim());
    for (const heading of ["# Top", "#### Fourth", "### Aria three", "## Plain role", "##### Five"]) expect(cdp, heading).toContain(heading);
  });

  it("navigates by link click and by navigate, reporting the new page", async () => {
    await h.goto("/nav");
    const ref = await refFor("link", "Next page");
    const r = await dom.click(create(ClickParamsSchema, { ref }), undefined);
    expect(r.evidence?.navigated).toBe(true);
    expect(r.evidence?.title).toBe("Next");
    const n = await dom.navigate(create(NavigateParamsSchema, { url: `${h.server.originA}/basic` }), undefined);
    expect(n.title).toBe("Basic form");
  });

  it("waits for text and extracts markdown", async () => {
    await h.goto("/basic");
    await h.evaluate("setTimeout(() => document.body.append('Later text'), 150), 1");
    const w = await dom.waitFor(create(WaitForParamsSchema, { text: "Later text", timeoutMs: 5000 }), undefined);
    expect(w.satisfied).toBe(true);
    // Text drawn by CSS generated content counts too.
    await h.evaluate(`document.head.append(Object.assign(document.createElement("style"), { textContent: 'body::after { content: "Synced ✓"; }' })), 1`);
    expect((await dom.waitFor(create(WaitForParamsSchema, { text: "Synced ✓", timeoutMs: 2000 }), undefined)).satisfied).toBe(true);
    const x = await dom.extract(create(ExtractParamsSchema, {}), undefined);
    expect(x.content).toContain("# Account");
  });

  it("fails clearly: unknown ref, stale ref, covered element, no upload", async () => {
    const run = (tool: Parameters<typeof create<typeof ToolCallSchema>>[1]) =>
      dispatchToolCall(toolCatalog, create(ToolCallSchema, tool), dom, undefined);
    await h.goto("/rerender");
    const unknown = await run({ tool: { case: "click", value: create(ClickParamsSchema, { ref: "e424242" }) } });
    expect(!unknown.ok && unknown.error.code).toBe(ToolErrorCode.UNKNOWN_REF);
    const old = await refFor("button", "Open 2");
    await h.evaluate("render(), 1");
    const stale = await run({ tool: { case: "click", value: create(ClickParamsSchema, { ref: old }) } });
    expect(!stale.ok && stale.error.code).toBe(ToolErrorCode.STALE_REF);
    expect(!stale.ok && stale.error.snapshot?.text).toContain('"Open 2"');
    await h.goto("/modal");
    const accept = await refFor("button", "Accept cookies");
    await h.evaluate("(() => { const d = document.createElement('div'); d.id = 'late'; d.style.cssText = 'position:fixed;inset:0;z-index:99'; document.body.append(d); return 1; })()");
    const covered = await run({ tool: { case: "click", value: create(ClickParamsSchema, { ref: accept }) } });
    expect(!covered.ok && covered.error.code).toBe(ToolErrorCode.NOT_ACTIONABLE);
    expect(!covered.ok && covered.error.message).toContain("#late");
    await h.goto("/upload");
    const file = await refFor("button", "Attachment");
    const up = await run({ tool: { case: "uploadFile", value: create(UploadFileParamsSchema, { ref: file, paths: ["/tmp/x"] }) } });
    expect(!up.ok && up.error.code).toBe(ToolErrorCode.UNKNOWN_TOOL);
  });
});
