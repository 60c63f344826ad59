/**
 * Chrome's built-in model in the side panel: the extension built with rollup and loaded in headless
 * Chromium, set up with no backend and no key. The real Prompt API of this Chromium has no model
 * (nothing is downloaded here): the panel says it is unavailable and what a device needs. Then
 * Chrome's `LanguageModel` is replaced in the panel's page by a stand-in with the same interface,
 * and the panel goes through the other states — a download started by a real click, its progress,
 * ready — and answers a question about the user's tab from its text, read through the DOM agent
 * and fenced as page data. Screenshots of each state go to `runtime-extension/.artefacts/`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExtensionBrowser, launchWithExtension, type Panel, until, type WebTab } from "../testing/launch.js";
import { type Shop, startShop } from "./fixture-shop.js";

/** A build of this file's own: the other end-to-end tests build into `dist/` at the same time. */
const work = mkdtempSync(join(tmpdir(), "baton-ext-built-in-"));
let ext: ExtensionBrowser;
let shop: Shop;
let tab: WebTab;
let panel: Panel;

beforeAll(async () => {
  [shop, ext] = await Promise.all([startShop(), launchWithExtension({ dir: join(work, "dist") })]);
  await ext.configure({ backendUrl: "", token: "" });
  tab = await ext.openTab(shop.url);
  panel = await ext.openPanel(tab);
}, 180_000);

afterAll(async () => {
  await ext?.close();
  await shop?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The status card's heading, once it says `text`. */
const heading = (text: string) => until(`"${text}"`, async () => (await panel.snapshot()).includes(`### ${text}`), 30_000);
const cardState = () => panel.eval<string>(`document.querySelector(".built-in")?.dataset.state ?? ""`);

describe("Chrome's built-in model in the panel (no backend, no key)", () => {
  it("in real Chromium without the model: says it is unavailable and what the device needs, and offers no download", async () => {
    await until("the standalone setup", async () => (await panel.snapshot()).includes('# Run Baton without a backend'));
    await panel.screenshot("built-in-offer");
    await panel.click("button", "Ask Chrome’s built-in model");
    await heading("Chrome’s built-in model is not available here");
    // The browser's own Prompt API answered: it has the interface, and no model behind it.
    expect(await panel.eval<string>("typeof LanguageModel")).toBe("function");
    expect(await panel.eval<string>(`LanguageModel.availability({ expectedInputs: [{ type: "text", languages: ["en"] }] })`)).toBe("unavailable");
    expect(await cardState()).toBe("unavailable");
    const shown = await panel.eval<string>("document.querySelector('.built-in').innerText");
    for (const need of ["Chrome 138 or later", "22 GB free", "more than 4 GB of memory", "chrome://on-device-internals", "Enabled BypassPerfRequirement"]) expect(shown).toContain(need);
    expect(await panel.snapshot()).not.toContain('button "Download the model"');
    expect(await panel.snapshot()).not.toContain('"Question about this page"');
    await panel.screenshot("built-in-unavailable");
  }, 120_000);

  it("with a stand-in of the Prompt API: downloads on a real click, shows progress, then answers from the tab's text", async () => {
    const bundle = await build({ entryPoints: [join(import.meta.dirname, "prompt-api-in-page.ts")], bundle: true, format: "iife", platform: "browser", write: false });
    await panel.eval(bundle.outputFiles[0]!.text);
    // The view reads the model's availability when it opens.
    await panel.click("button", "Back to the task");
    await panel.click("button", "Ask Chrome’s built-in model");
    await heading("Chrome’s built-in model is ready to download");
    await panel.screenshot("built-in-downloadable");

    // create() needs a user gesture: the engine's click is a real one.
    await panel.click("button", "Download the model");
    await until("the progress", async () => (await panel.eval<string>("document.querySelector('.meter-text')?.textContent ?? ''")) === "42% downloaded", 10_000);
    expect(await cardState()).toBe("downloading");
    expect(await panel.eval<string>(`document.querySelector('[role="progressbar"]').getAttribute("aria-valuenow")`)).toBe("42");
    await panel.screenshot("built-in-downloading");
    await heading("Chrome’s built-in model is ready");
    expect(await panel.eval<number>("__promptApi.log.created.length")).toBe(1);

    await panel.type("textbox", "Question about this page", "What does this shop sell?", true);
    const answer = await until("the answer", async () => {
      const t = await panel.eval<string>(`document.querySelector('.chat li[data-state="done"] .answer-text')?.textContent ?? ""`);
      return t || undefined;
    }, 60_000);
    expect(answer).toContain("Blue mug");
    expect(answer).toContain("Canvas tote");
    await panel.screenshot("built-in-available");

    // What the model was given: the system prompt, then the tab's text fenced as page data and the question.
    const prompts = await panel.eval<{ messages: { role: string; content: string }[]; streamed: boolean }[]>("__promptApi.log.prompts");
    expect(prompts).toHaveLength(1);
    expect(prompts[0]!.streamed).toBe(true);
    expect(prompts[0]!.messages[0]).toMatchObject({ role: "system", content: expect.stringContaining("You answer questions about the web page the user has open") });
    const asked = prompts[0]!.messages.at(-1)!.content;
    expect(asked).toMatch(/^<page-data fence="[0-9a-f]{12}" tool="extract">\n/);
    expect(asked).toContain("Blue mug");
    expect(asked.endsWith("The user asks: What does this shop sell?")).toBe(true);
    // Asking read the page and did nothing to it.
    expect(shop.state().cart).toEqual([]);
  }, 180_000);

  it("is offered beside the tab's name when a model is set up too", async () => {
    await ext.configure({ backendUrl: "", token: "", model: "anthropic:claude-haiku-4-5", modelKey: "sk-ant-unused" });
    await panel.click("button", "Back to the task");
    await until("the task box", async () => (await panel.snapshot()).includes('textbox "Task"'));
    await panel.screenshot("built-in-composer-link");
    await panel.click("button", "Ask about it");
    await heading("Chrome’s built-in model is ready");
    // The earlier question was this view's own: a new visit starts afresh.
    expect(await panel.eval<number>(`document.querySelectorAll(".chat li").length`)).toBe(0);
  }, 60_000);
});
