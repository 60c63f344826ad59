/**
 * The standalone mode end to end: no backend anywhere. The extension built with rollup and loaded
 * in headless Chromium, its settings filled in through the panel (a model, the user's own key and
 * the base URL of a fake OpenAI-compatible server on 127.0.0.1, and of a fake Anthropic Messages
 * server), the AgentService running in the panel's page on PGlite over IndexedDB. The fake model reads the page snapshots the panel sends
 * and acts on the fixture shop by their refs, as a real model does. Screenshots go to
 * `runtime-extension/.artefacts/`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { anthropicWire, chatWire, type FakeReply, FakeLlmServer } from "@baton/backend/testing/fake-llm-server";
import { latestSnapshot } from "@baton/backend/testing/sent-prompt";
import { findTarget, snapshotRefs } from "@baton/sdk/script";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { type ExtensionBrowser, launchWithExtension, type Panel, until, type WebTab } from "../testing/launch.js";
import { type Shop, startShop } from "./fixture-shop.js";

const key = "sk-user-own-key-standalone-0123456789";
/** A build of this file's own: the other end-to-end tests build into `dist/` at the same time. */
const work = mkdtempSync(join(tmpdir(), "baton-ext-standalone-"));
let ext: ExtensionBrowser;
let shop: Shop;
const llm = new FakeLlmServer(chatWire, undefined, { cors: true });
const claude = new FakeLlmServer(anthropicWire, undefined, { cors: true });
/** A model with a price whose every call counts 5,000 tokens: a budget per task is reached in a few calls. */
const costly = new FakeLlmServer(anthropicWire, { input: 4000, output: 1000, cached: 0 }, { cors: true });

beforeAll(async () => {
  [shop, ext] = await Promise.all([startShop(), launchWithExtension({ dir: join(work, "dist") }), llm.start(), claude.start(), costly.start()]).then(([s, e]) => [s, e] as const);
}, 180_000);

afterAll(async () => {
  await ext?.close();
  await shop?.close();
  await llm.stop();
  await claude.stop();
  await costly.stop();
  rmSync(work, { recursive: true, force: true });
});

interface ChatBody {
  readonly messages: readonly { readonly role: string; readonly content?: unknown; readonly tool_calls?: readonly { function: { name: string } }[] }[];
}

/** The text of a chat message's content (a string or text parts). */
function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p: { text?: string }) => p.text ?? "").join("");
  return "";
}

/** A model turn that acts on an element of the latest snapshot it was sent (any wire), found by role and name, as a model reads it. */
function act(name: string, target: { role: string; name: string }, extra: Record<string, unknown> = {}, also: string[] = []) {
  return (body: unknown): FakeReply => {
    const snapshot = latestSnapshot(body);
    const ref = snapshot ? findTarget(snapshotRefs(snapshot), target) : undefined;
    if (!ref) throw new Error(`the fake model found no ${target.role} "${target.name}" in the snapshot it was sent:\n${snapshot}`);
    return { kind: "calls", calls: [{ name, args: JSON.stringify({ ref, ...extra }) }, ...also.map((n) => ({ name: n, args: "{}" }))] };
  };
}

const snapshot: FakeReply = { kind: "calls", calls: [{ name: "take_snapshot", args: "{}" }] };
const done = (answer: string): FakeReply => ({ kind: "calls", calls: [{ name: "done", args: JSON.stringify({ answer }) }] });

/** Opens the shop in a tab and the panel beside it. */
async function shopAndPanel(): Promise<{ tab: WebTab; panel: Panel }> {
  const tab = await ext.openTab(shop.url);
  const panel = await ext.openPanel(tab);
  onTestFailed(async () => {
    await panel.screenshot("standalone-failed").catch(() => undefined);
    console.error("panel timeline at failure:", JSON.stringify(await panel.timeline().catch(() => []), null, 1));
    console.error("model requests:", llm.bodies.length, "(Anthropic:", claude.bodies.length, ")");
  });
  return { tab, panel };
}

describe("the extension in standalone mode (no backend: the agent in the panel, the user's own key)", () => {
  it("is set up in the panel, runs a task in the user's tab against the user's model, and keeps the key out of sight", async () => {
    await ext.control.eval(`chrome.storage.local.clear()`);
    shop.reset();
    const { tab, panel } = await shopAndPanel();

    // First run: choose to run without a backend; the panel says what to fill in.
    expect(await panel.snapshot()).toContain('# Connect to your Baton backend');
    await panel.click("button", "Run Baton without a backend");
    await until("the standalone setup", async () => (await panel.snapshot()).includes('# Run Baton without a backend'));
    expect(await panel.eval<string>(`document.querySelector(".setup-missing")?.textContent ?? ""`)).toBe(
      "No backend and no model key: enter a backend URL, or a model and your API key to run Baton without a backend.",
    );
    await panel.screenshot("standalone-01-setup");
    await panel.type("combobox", "Model", "chat:fake-model");
    await panel.type("textbox", "API key", key);
    await panel.type("textbox", "Base URL (optional)", `${llm.url}/v1`);
    await panel.click("button", "Save");
    await until("the task box", async () => (await panel.snapshot()).includes('textbox "Task"'));
    const stored = await ext.control.eval<{ settings: Record<string, string> }>(`chrome.storage.local.get("settings")`);
    expect(stored.settings).toMatchObject({ backendUrl: "", model: "chat:fake-model", modelKey: key, modelBaseUrl: `${llm.url}/v1` });

    // Settings show the mode and keep the key masked.
    await panel.click("button", "Settings");
    await until("the key field", async () => (await panel.snapshot()).includes('"API key"'));
    expect(await panel.eval<string>(`document.getElementById("set-key").type`)).toBe("password");
    expect(await panel.snapshot()).not.toContain(key);
    await panel.screenshot("standalone-02-settings");
    await panel.click("button", "Back to the task");

    llm.script(
      snapshot,
      act("click", { role: "button", name: "Add Blue mug to cart" }, {}, ["take_snapshot"]),
      act("click", { role: "link", name: "Checkout" }, {}, ["take_snapshot"]),
      act("type_text", { role: "textbox", name: "Email" }, { text: "ada@example.com" }),
      done("The blue mug is in the cart and ada@example.com is filled in at checkout."),
    );
    await panel.run("Put the blue mug in the cart and fill in ada@example.com at checkout");
    const outcome = await panel.outcome(120_000);
    expect(outcome.state, outcome.text).toBe("completed");
    expect(outcome.text).toContain("The blue mug is in the cart and ada@example.com is filled in at checkout.");
    await panel.screenshot("standalone-03-done");

    // The page's effect: the shop's server has the mug, the live page the email.
    expect(shop.state().cart).toEqual(["mug-blue"]);
    expect(await tab.eval<string>("location.pathname")).toBe("/checkout");
    expect(await tab.eval<string>(`document.getElementById("email").value`)).toBe("ada@example.com");
    const steps = (await panel.timeline()).filter((e) => e.kind === "step");
    expect(steps.map((s) => s.tool)).toEqual(["take_snapshot", "click", "take_snapshot", "click", "take_snapshot", "type_text"]);
    expect(steps.every((s) => s.state === "done")).toBe(true);
    // Every model call went to the user's server, with the tools, and the key never in a prompt.
    expect(llm.bodies).toHaveLength(5);
    expect(llm.paths.every((p) => p === "/v1/chat/completions")).toBe(true);
    expect(JSON.stringify(llm.bodies)).not.toContain(key);
    // The session lives in this browser: PGlite's database on IndexedDB, in the past-sessions list.
    const databases = await panel.eval<string[]>(`indexedDB.databases().then((d) => d.map((x) => x.name))`);
    expect(databases).toContain("/pglite/baton");
    expect(await ext.pastSessions()).toHaveLength(1);
    await panel.close();
    await tab.close();
  }, 300_000);

  it("resumes a session from the store on IndexedDB after the panel is closed mid-task, without restarting it", async () => {
    shop.reset();
    await ext.configure({ backendUrl: "", token: "", model: "chat:fake-model", modelKey: key, modelBaseUrl: `${llm.url}/v1` });
    // Step 1 reads the page, step 2 clicks; the model call after the click never answers.
    llm.script(snapshot, act("click", { role: "button", name: "Add Blue mug to cart" }), { kind: "hang" });
    const { tab, panel } = await shopAndPanel();
    await panel.run("Put the blue mug in the cart");
    await panel.waitFor("the click", (e) => e.tool === "click" && e.state === "done", 60_000);
    await until("the model call after the click", async () => llm.bodies.length === 3, 30_000);
    await panel.screenshot("standalone-04-before-close");
    await panel.close();
    expect(shop.state().cart).toEqual(["mug-blue"]);

    llm.script(done("One blue mug is in the cart."));
    const again = await ext.openPanel(tab);
    const outcome = await again.outcome(120_000);
    expect(outcome.state, outcome.text).toBe("completed");
    expect(outcome.text).toContain("One blue mug is in the cart.");
    await again.screenshot("standalone-05-resumed");

    // One model call after reopening, and it carried the session as it stood: step 1's snapshot
    // (folded into the context by then) and step 2's click with its result, from before the panel
    // closed. A restarted session would have sent only the task.
    expect(llm.bodies).toHaveLength(1);
    const resumed = (llm.bodies[0] as ChatBody).messages;
    expect(text(resumed.find((m) => m.role === "user")?.content)).toContain("step 1: take_snapshot");
    expect(resumed.flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name)).toEqual(["click"]);
    expect(resumed.at(-1)?.role).toBe("tool");
    expect(text(resumed.at(-1)?.content)).toContain('"name":"Add Blue mug to cart"');
    // The click ran once; the reopened timeline, rebuilt from the store, shows both earlier steps.
    expect(shop.state().cart).toEqual(["mug-blue"]);
    const steps = (await again.timeline()).filter((e) => e.kind === "step");
    expect(steps.map((s) => s.tool)).toEqual(["take_snapshot", "click"]);
    expect(steps[1]).toMatchObject({ state: "replayed" });
    expect(await ext.pastSessions()).toHaveLength(2);
    await again.close();
    await tab.close();
  }, 300_000);

  it("sends the step limit from Settings with a new task: the session stops there", async () => {
    shop.reset();
    await ext.configure({ backendUrl: "", token: "", model: "chat:fake-model", modelKey: key, modelBaseUrl: `${llm.url}/v1`, maxSteps: 2 });
    // A model that never finishes: it reads the page again and again.
    llm.script(snapshot);
    const { tab, panel } = await shopAndPanel();
    await panel.run("Look at the page forever");
    const outcome = await panel.outcome(120_000);
    expect(outcome.state).toBe("failed");
    expect(outcome.text).toContain("Reached the step limit (2).");
    expect(llm.bodies).toHaveLength(2);
    expect((await panel.timeline()).filter((e) => e.kind === "step")).toHaveLength(2);
    await panel.close();
    await tab.close();
  }, 300_000);

  it("holds a task to the budget per task from Settings: the loop in the panel prices each call, the panel shows tokens and cost used, and the task ends with Budget reached", async () => {
    shop.reset();
    const own = "sk-ant-user-own-key-budget-31c8";
    // claude-haiku-4-5 has a price: each call's 4,000 tokens in and 1,000 out cost $0.009.
    await ext.configure({ backendUrl: "", token: "", model: "anthropic:claude-haiku-4-5", modelKey: own, modelBaseUrl: costly.url, budget: { tokens: 12_000, costUsd: 0.05, seconds: 0 } });
    costly.script(snapshot);
    const { tab, panel } = await shopAndPanel();
    await panel.run("Look at the page forever");
    const outcome = await panel.outcome(120_000);
    expect(outcome.state).toBe("budget_exhausted");
    expect(outcome.text).toBe("Budget reached 15,000 of 12,000 tokens used.");
    // Three model calls, and none after the ceiling.
    expect(costly.bodies).toHaveLength(3);
    expect(await panel.eval<string>(`document.querySelector(".spend").textContent`)).toBe("Budget: 15,000 of 12,000 tokens used, $0.027 of $0.05 spent");
    await panel.close();
    await tab.close();
  }, 300_000);

  it("runs a task with the user's Anthropic key: the Anthropic SDK in the panel's page, calling the API as a browser may", async () => {
    shop.reset();
    const own = "sk-ant-user-own-key-5b2e7f90";
    await ext.configure({ backendUrl: "", token: "", model: "anthropic:claude-haiku-4-5", modelKey: own, modelBaseUrl: claude.url });
    claude.script(
      { kind: "calls", calls: [{ name: "take_snapshot", args: "{}" }], reasoning: "First, read the shop." },
      act("click", { role: "button", name: "Add Blue mug to cart" }),
      done("The blue mug is in the cart."),
    );
    const { tab, panel } = await shopAndPanel();
    await panel.run("Put the blue mug in the cart");
    const outcome = await panel.outcome(120_000);
    expect(outcome.state, outcome.text).toBe("completed");
    expect(outcome.text).toContain("The blue mug is in the cart.");
    // The model finished right after the click: the shop's server may get the cart a moment later.
    await until("the cart on the shop's server", async () => shop.state().cart.length > 0);
    expect(shop.state().cart).toEqual(["mug-blue"]);
    // Three calls to the Messages API from the page, with the user's key (the SDK sends it as a
    // bearer token) and the header Anthropic requires of a browser; the first turn's thinking came
    // back with its call.
    expect(claude.paths).toEqual(["/v1/messages", "/v1/messages", "/v1/messages"]);
    expect(claude.headers.map((h) => [h.authorization, h["anthropic-dangerous-direct-browser-access"]])).toEqual(Array(3).fill([`Bearer ${own}`, "true"]));
    expect(JSON.stringify(claude.bodies[1])).toContain('{"type":"thinking","thinking":"First, read the shop.","signature":"sig-thinking-0"}');
    expect(JSON.stringify(claude.bodies)).not.toContain(own);
    await panel.close();
    await tab.close();
  }, 300_000);

  it("masks the user's key when the provider quotes it back in an error, and says why the task failed", async () => {
    shop.reset();
    const own = "my-own-provider-key-7d41c9e2";
    await ext.configure({ backendUrl: "", token: "", model: "chat:fake-model", modelKey: own, modelBaseUrl: `${llm.url}/v1` });
    llm.script({ kind: "status", status: 401, message: `Incorrect API key provided: ${own}` });
    const { tab, panel } = await shopAndPanel();
    await panel.run("Put the blue mug in the cart");
    const outcome = await panel.outcome(120_000);
    expect(outcome.state).toBe("failed");
    expect(outcome.text).toContain("Incorrect API key provided: [REDACTED]");
    const shown = await panel.eval<string>("document.body.innerText");
    expect(shown).not.toContain(own);
    expect(shop.state().cart).toEqual([]);
    await panel.close();
    await tab.close();
  }, 300_000);
});
