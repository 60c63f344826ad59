/**
 * The extension end to end: built with rollup, loaded unpacked in headless Chromium, its panel
 * opened as a tab beside the fixture shop, a real `baton serve` replaying script files. Each
 * test saves screenshots of the panel at its key moments under `runtime-extension/.artefacts/`.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createBatonClient } from "@baton/sdk/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { runInPanel } from "../testing/launch.js";
import { shopTotpSeed } from "./fixture-shop.js";
import { type Panel, startWorld, until, type WebTab, type World } from "./harness.js";
import { Target } from "../testing/launch.js";

/** Screenshots the docs show. */
const docsImg = fileURLToPath(new URL("../../docs/img/", import.meta.url));

let world: World;
let open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  world = await startWorld();
}, 180_000);

afterAll(async () => {
  await world?.close();
});

beforeEach(async () => {
  for (const t of open) await t.close();
  open = [];
  world.shop.reset();
});

/**
 * Whether the extension is free to attach to a tab: it is not attached itself (Chrome refuses a
 * second attach from the same extension; the test's own CDP session does not count).
 */
function extensionCanAttach(tab: WebTab): Promise<boolean> {
  return world.control.eval<boolean>(
    `chrome.debugger.attach({ tabId: ${tab.tabId} }, "1.3").then(() => chrome.debugger.detach({ tabId: ${tab.tabId} })).then(() => true, () => false)`,
  );
}

/** How many offscreen (keepalive) documents the extension has open. */
function offscreenDocuments(): Promise<number> {
  return world.control.eval<number>(`chrome.runtime.getContexts({ contextTypes: ["OFFSCREEN_DOCUMENT"] }).then((c) => c.length)`);
}

/** The session the panel ran last (from its past-sessions list). */
async function lastSession(): Promise<string> {
  const got = await world.control.eval<{ sessions?: { sessionId: string }[] }>(`chrome.storage.local.get("sessions")`);
  const id = got.sessions?.[0]?.sessionId;
  if (!id) throw new Error("no session was recorded");
  return id;
}

/** The backend's record of a session. */
function backendSession(sessionId: string) {
  return createBatonClient({ baseUrl: world.backend.url, token: world.token }).getSession({ sessionId });
}

/** The user adds the secret "password" in Settings, scoped to the shop's origin, and sees it listed. */
async function addSecret(panel: Panel, value: string): Promise<void> {
  await panel.click("button", "Settings");
  await panel.type("textbox", "Name", "password");
  await panel.type("textbox", "Value", value);
  await panel.type("textbox", "Allowed origins", new URL(world.shop.url).origin);
  await panel.click("button", "Add secret");
  await until("the secret in the list", async () => (await panel.snapshot()).includes('button "Delete password"'));
}

/** Opens the shop in a tab and the panel beside it. */
async function shopAndPanel(path = "/"): Promise<{ tab: WebTab; panel: Panel }> {
  const tab = await world.openTab(path.includes("://") ? path : `${world.shop.url}${path}`);
  const panel = await world.openPanel(tab);
  open.push(panel, tab);
  onTestFailed(async () => {
    // What the panel showed when it failed, for the person reading the failure.
    await panel.screenshot("failed-panel").catch(() => undefined);
    console.error("panel timeline at failure:", JSON.stringify(await panel.timeline().catch(() => []), null, 1));
    const id = await lastSession().catch(() => undefined);
    if (id) {
      const got = await backendSession(id);
      for (const h of got.history) {
        if (h.entry.case === "toolResult" && h.entry.value.outcome.case === "result" && h.entry.value.outcome.value.tool.case === "takeSnapshot") {
          console.error(`snapshot at step ${h.step}:\n${h.entry.value.outcome.value.tool.value.text}`);
        }
      }
    }
  });
  return { tab, panel };
}

describe("the Baton extension", () => {
  it("signs in, runs a multi-step task in the user's tab, asks before the irreversible step, and shows it all in words", async () => {
    await world.control.eval(`chrome.storage.local.clear()`);
    const model = world.script("checkout.json", {
      turns: [
        { text: "<goal>Buy a blue mug for ada@example.com</goal>I'll find the blue mug in the shop.", calls: [{ name: "take_snapshot" }], delayMs: 1500 },
        { calls: [{ name: "click", args: { ref: { role: "button", name: "Add Blue mug to cart" } } }, { name: "take_snapshot" }] },
        { text: "It's in the cart. Going to checkout.", calls: [{ name: "click", args: { ref: { role: "link", name: "Checkout" } } }, { name: "take_snapshot" }] },
        {
          calls: [
            { name: "type_text", args: { ref: { role: "textbox", name: "Email" }, text: "ada@example.com" } },
            { name: "click", args: { ref: { role: "button", name: "Place order" }, irreversible: true } },
          ],
        },
        { calls: [{ name: "done", args: { answer: "Ordered one blue mug for ada@example.com: order #1001." } }] },
      ],
    });
    const { tab, panel } = await shopAndPanel();

    // Sign in through the panel: the backend's URL and the token `npm start` prints.
    expect(await panel.snapshot()).toContain('# Connect to your Baton backend');
    await panel.screenshot("01-sign-in");
    await panel.type("textbox", "Backend URL", world.backend.url);
    await panel.type("textbox", "API token", world.token);
    await panel.click("button", "Sign in");
    await until("the task box", async () => (await panel.snapshot()).includes('textbox "Task"'));
    await panel.screenshot("02-ready");
    // The model is a setting.
    await panel.click("button", "Settings");
    await panel.type("combobox", "Model", model);
    await panel.click("button", "Save");
    await until("the settings to be saved", async () => (await panel.snapshot()).includes('"Saved."'));
    await panel.screenshot("03-settings");
    await panel.click("button", "Back to the task");

    await panel.record();
    await panel.run("Buy a blue mug for ada@example.com");
    // While the agent works, the page wears the mask.
    await until("the mask on the page", () => tab.eval<boolean>(`!!document.querySelector("baton-mask")`));
    const approval = await panel.waitFor("the approval card", (e) => e.kind === "approval" && e.state === "pending");
    expect(approval.text).toContain("Clicking 'Place order' (irreversible)");
    expect(approval.text).toContain("Checkout · Mugshop");
    await panel.screenshot("04-approval");
    await tab.screenshot("04-page-masked");
    // The offscreen keepalive holds the service worker while the run goes on.
    expect(await offscreenDocuments()).toBe(1);
    // Nothing was ordered before the user said yes.
    expect(world.shop.state().orders).toEqual([]);
    await panel.click("button", "Approve");

    const outcome = await panel.outcome();
    expect(outcome.state).toBe("completed");
    expect(outcome.text).toContain("order #1001");
    await panel.screenshot("05-done");

    // The page effect, from the live page and from the shop's server.
    expect(await tab.eval<string>(`document.querySelector("[role=status]")?.textContent ?? ""`)).toBe("Order #1001 placed for ada@example.com");
    expect(world.shop.state().orders).toEqual([{ id: 1001, email: "ada@example.com", items: ["mug-blue"] }]);

    // The timeline says what happened, in words, in order.
    const steps = (await panel.timeline()).filter((e) => e.kind === "step");
    expect(steps.map((s) => s.text.replace(/\s*\d+(\.\d)? m?s$/, ""))).toEqual([
      "Reading the page",
      "Clicking 'Add Blue mug to cart'",
      "Reading the page",
      "Clicking 'Checkout'",
      "Reading the page",
      'Typing "ada@example.com" into \'Email\'',
      "Clicking 'Place order' (irreversible)",
    ]);
    expect(steps.every((s) => s.state === "done" && Number(s.ms) >= 0)).toBe(true);
    const all = await panel.timeline();
    expect(all[0]).toMatchObject({ kind: "task", text: "Buy a blue mug for ada@example.com" });
    expect(all.filter((e) => e.kind === "text").map((e) => e.text)).toEqual(["I'll find the blue mug in the shop.", "It's in the cart. Going to checkout."]);
    expect(all.find((e) => e.kind === "approval")).toMatchObject({ state: "approved" });
    // "Thinking…" showed while the model worked, and is gone now.
    expect(await panel.seen()).toContain("thinking");
    expect(all.some((e) => e.kind === "thinking")).toBe(false);

    // The agent's tab is grouped as its task; the debugger and the mask are gone afterwards.
    const group = await world.control.eval<{ title: string } | null>(
      `chrome.tabs.get(${tab.tabId}).then((t) => t.groupId > -1 ? chrome.tabGroups.get(t.groupId) : null)`,
    );
    expect(group?.title).toMatch(/^Task\(.+\)$/);
    await until("the debugger to detach", () => extensionCanAttach(tab));
    await until("the keepalive to end", async () => (await offscreenDocuments()) === 0);
  });

  it("stops mid-task: no tool runs after Stop, and the session is stopped in the backend", async () => {
    await world.signIn(
      world.script("stop.json", {
        turns: [
          { text: "<goal>Fill the cart</goal>", calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Add Blue mug to cart" } } }, { name: "take_snapshot" }] },
          { text: "Now the red one.", calls: [{ name: "click", args: { ref: { role: "button", name: "Add Red mug to cart" } } }], delayMs: 6000 },
          { calls: [{ name: "done", args: { answer: "Both mugs are in the cart." } }] },
        ],
      }),
    );
    const { tab, panel } = await shopAndPanel();
    await panel.record();
    await panel.run("Put a blue and a red mug in the cart");
    await panel.waitFor("the first click", (e) => e.tool === "click" && e.state === "done");
    await until("the second model turn", async () => (await panel.seen()).filter((k) => k === "thinking").length >= 3);
    await panel.screenshot("06-working");
    await panel.click("button", "Stop");
    const outcome = await panel.outcome();
    expect(outcome.state).toBe("stopped");
    expect(outcome.text).toBe("Stopped Stopped by the user.");
    await panel.screenshot("07-stopped");
    // The model's next turn would have clicked the red mug 6 s in; it never does.
    await new Promise((r) => setTimeout(r, 6500));
    expect(world.shop.state().cart).toEqual(["mug-blue"]);
    expect((await panel.timeline()).filter((e) => e.kind === "step").map((e) => e.tool)).toEqual(["take_snapshot", "click", "take_snapshot"]);
    const got = await backendSession(await lastSession());
    expect(got.session?.status).toBe(SessionStatus.STOPPED);
    await until("the mask and the debugger to go", () => extensionCanAttach(tab));
    expect(await panel.snapshot()).toContain('button "Run"');
  });

  it("asks before every change when the user's policy says so, answers ask_user in the panel, and a denial reaches the model", async () => {
    await world.signIn(
      world.script("approvals.json", {
        turns: [
          { text: "<goal>Add a mug</goal>", calls: [{ name: "ask_user", args: { question: "Which colour should the mug be?", choices: ["Blue", "Red"] } }] },
          { calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Add Red mug to cart" } } }, { name: "take_snapshot" }] },
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Add Canvas tote to cart" }, irreversible: true } }] },
          { calls: [{ name: "done", args: { answer: "Added the red mug; you declined the tote." } }] },
        ],
      }),
      { approval: "every-change" },
    );
    const { panel } = await shopAndPanel();
    await panel.run("Add a mug to the cart");
    await panel.waitFor("the question", (e) => e.kind === "question" && e.state === "pending");
    await panel.screenshot("08-question");
    await panel.click("button", "Red");
    // The user's own policy holds the click before it runs.
    const asked = await panel.waitFor("the policy's approval card", (e) => e.kind === "approval" && e.state === "pending");
    expect(asked.text).toContain("Allow this action?");
    expect(asked.text).toContain("Clicking 'Add Red mug to cart'");
    expect(world.shop.state().cart).toEqual([]);
    await panel.click("button", "Approve");
    // The irreversible one is held by the backend; the user says no.
    await until("the backend's approval card", async () => (await panel.timeline()).filter((e) => e.kind === "approval" && e.state === "pending").length === 1 && (await panel.timeline()).some((e) => e.kind === "approval" && e.state === "approved"));
    const held = (await panel.timeline()).find((e) => e.kind === "approval" && e.state === "pending");
    expect(held?.text).toContain("It can't be undone");
    expect(held?.text).toContain("Clicking 'Add Canvas tote to cart' (irreversible)");
    await panel.screenshot("09-irreversible");
    await panel.click("button", "Deny");
    const outcome = await panel.outcome();
    expect(outcome.text).toContain("you declined the tote");
    await panel.screenshot("10-denied");
    expect(world.shop.state().cart).toEqual(["mug-red"]);
    const entries = await panel.timeline();
    expect(entries.find((e) => e.kind === "question")?.text).toContain("You answered: Red");
    expect(entries.filter((e) => e.kind === "approval").map((e) => e.state)).toEqual(["approved", "denied"]);
    // The backend recorded the answer and the denial for the model.
    const got = await backendSession(await lastSession());
    const results = got.history.flatMap((h) => (h.entry.case === "toolResult" ? [h.entry.value.outcome] : []));
    expect(results.some((o) => o.case === "result" && o.value.tool.case === "askUser" && o.value.tool.value.answer === "Red")).toBe(true);
    expect(results.some((o) => o.case === "approval" && !o.value.approved)).toBe(true);
  });

  it("keeps to its own tabs: opens and groups a tab, refuses a local file and the user's other tab, never attaches to it", async () => {
    const notes = await world.openTab(`${world.shop.url}/notes`);
    open.push(notes);
    await world.signIn(
      world.script("tabs.json", {
        turns: [
          {
            text: "<goal>Compare the shop and checkout</goal>",
            calls: [
              { name: "open_tab", args: { url: "file:///etc/" } },
              { name: "open_tab", args: { url: `${world.shop.url}/checkout` } },
            ],
          },
          { calls: [{ name: "switch_tab", args: { tab_id: String(notes.tabId) } }], delayMs: 1500 },
          { calls: [{ name: "close_tab", args: { tab_id: String(notes.tabId) } }] },
          { calls: [{ name: "list_tabs" }] },
          { calls: [{ name: "done", args: { answer: "Two tabs are mine; I left your notes alone." } }] },
        ],
      }),
    );
    const { tab, panel } = await shopAndPanel();
    await panel.run("Open the checkout in a new tab");
    const fileRefused = await panel.waitFor("the refused local file", (e) => e.tool === "open_tab" && e.state === "failed");
    expect(fileRefused.text).toContain("Only http and https pages (and about:blank) can be opened, not file: URLs");
    const opened = await panel.waitFor("the new tab", (e) => e.tool === "open_tab" && e.state === "done");
    expect(opened.text).toContain("Opening a new tab at");
    // While the agent works: attached to its own tab, never to the notes.
    expect(await extensionCanAttach(notes)).toBe(true);
    const refused = await panel.waitFor("the refused switch", (e) => e.tool === "switch_tab" && e.state !== "running");
    expect(refused.state).toBe("failed");
    expect(refused.text).toContain("belongs to the user");
    const closeRefused = await panel.waitFor("the refused close", (e) => e.tool === "close_tab" && e.state !== "running");
    expect(closeRefused.state).toBe("failed");
    await panel.outcome();
    await panel.screenshot("11-tabs");
    // The notes are untouched and still open.
    expect(await notes.url()).toBe(`${world.shop.url}/notes`);
    expect(world.shop.state().notesWrites).toBe(0);
    // list_tabs answered with the agent's two tabs only, grouped as the task.
    const got = await backendSession(await lastSession());
    const list = got.history.flatMap((h) =>
      h.entry.case === "toolResult" && h.entry.value.outcome.case === "result" && h.entry.value.outcome.value.tool.case === "listTabs" ? [h.entry.value.outcome.value.tool.value] : [],
    )[0];
    expect(list?.tabs.map((t) => t.url).sort()).toEqual([`${world.shop.url}/`, `${world.shop.url}/checkout`]);
    const groups = await world.control.eval<string[]>(
      `chrome.tabs.query({}).then((ts) => Promise.all(ts.filter((t) => t.groupId > -1).map((t) => chrome.tabGroups.get(t.groupId).then((g) => g.title + " " + (t.id === ${notes.tabId} ? "notes" : t.id === ${tab.tabId} ? "start" : "opened")))))`,
    );
    expect(groups.filter((g) => g.endsWith("notes"))).toEqual([]);
    expect(groups.some((g) => g.endsWith("opened"))).toBe(true);
    // The tab the agent opened closes with the test.
    const mine = list?.tabs.find((t) => t.url.endsWith("/checkout"));
    if (mine) await world.control.eval(`chrome.tabs.remove(${Number(mine.tabId)})`).catch(() => undefined);
  });

  it("resumes after the panel is closed mid-task, without repeating a step", async () => {
    await world.signIn(
      world.script("resume.json", {
        turns: [
          { text: "<goal>Add a blue mug</goal>", calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Add Blue mug to cart" } } }, { name: "wait_for", args: { ms: 5000 } }] },
          { calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "done", args: { answer: "One blue mug is in the cart." } }] },
        ],
      }),
    );
    const { tab, panel } = await shopAndPanel();
    await panel.run("Add a blue mug to the cart");
    await panel.waitFor("the click", (e) => e.tool === "click" && e.state === "done");
    await panel.waitFor("the wait", (e) => e.tool === "wait_for" && e.state === "running");
    await panel.screenshot("12-before-close");
    await panel.close();
    // The service worker saw the panel go: the mask comes off and the debugger lets go.
    await until("the debugger to be released", () => extensionCanAttach(tab));
    expect(world.shop.state().cart).toEqual(["mug-blue"]);

    const again = await world.openPanel(tab);
    open.push(again);
    const outcome = await again.outcome();
    expect(outcome.state).toBe("completed");
    await again.screenshot("13-resumed");
    // The click's result came from the journal; the page has one mug, not two.
    expect(world.shop.state().cart).toEqual(["mug-blue"]);
    const entries = await again.timeline();
    expect(entries.some((e) => e.kind === "notice" && e.text.includes("Picking up where it left off"))).toBe(true);
    // The history shows the click once, marked as not repeated.
    const clicks = entries.filter((e) => e.tool === "click");
    expect(clicks).toHaveLength(1);
    expect(clicks[0]).toMatchObject({ state: "replayed" });
    expect(clicks[0]?.text).toContain("Clicking 'Add Blue mug to cart'");
    expect(clicks[0]?.text).toContain("done before the panel closed: not repeated");
    const got = await backendSession(await lastSession());
    expect(got.session?.status).toBe(SessionStatus.COMPLETED);
    expect(got.history.filter((h) => h.entry.case === "toolResult" && h.entry.value.toolcallId === "call_2_0")).toHaveLength(1);
  });

  it("says clearly when Chrome keeps it out of a page, leaves it, and reports the error to the backend", async () => {
    await world.signIn(
      world.script("restricted.json", {
        turns: [
          { text: "<goal>Open the shop</goal>", calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "navigate", args: { url: `${world.shop.url}/` } }] },
          { calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "done", args: { answer: "The shop is open." } }] },
        ],
      }),
    );
    const { tab, panel } = await shopAndPanel("chrome://version/");
    await panel.run("Open the mug shop");
    const outcome = await panel.outcome();
    expect(outcome.state).toBe("completed");
    await panel.screenshot("14-restricted");
    const entries = await panel.timeline();
    const notice = entries.find((e) => e.kind === "notice");
    expect(notice?.text).toContain("Baton can't act on this page");
    expect(notice?.text).toContain("chrome://version/");
    const failed = entries.find((e) => e.tool === "take_snapshot");
    expect(failed?.state).toBe("failed");
    expect(failed?.text).toContain("which Chrome does not let extensions read or control");
    expect(entries.filter((e) => e.kind === "step").map((e) => `${e.tool}:${e.state}`)).toEqual(["take_snapshot:failed", "navigate:done", "take_snapshot:done"]);
    expect(await tab.url()).toBe(`${world.shop.url}/`);
    // The failure went to the backend's log with its session, step and tool; no secrets.
    const got = await until("the panel's log entry", async () => {
      const s = await backendSession(await lastSession());
      return s.logs.length > 0 ? s : undefined;
    });
    expect(got.logs[0]).toMatchObject({ tool: "take_snapshot", step: expect.any(Number) });
    expect(got.logs[0]?.message).toContain("chrome://version/");
    expect(got.logs.map((l) => `${l.message} ${Object.values(l.attributes).join(" ")}`).join("\n")).not.toContain(world.token);
  });

  it("pauses when the user cancels Chrome's debugging bar and resumes when they allow it again", async () => {
    await world.signIn(
      world.script("cancel.json", {
        turns: [
          { text: "<goal>Add a tote</goal>", calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Add Canvas tote to cart" } } }, { name: "take_snapshot" }], delayMs: 2000 },
          { calls: [{ name: "done", args: { answer: "The tote is in the cart." } }] },
        ],
      }),
    );
    const { tab, panel } = await shopAndPanel();
    await panel.run("Add the canvas tote to the cart");
    await panel.waitFor("the first snapshot", (e) => e.tool === "take_snapshot" && e.state === "done");
    // Headless Chromium has no infobar to click: do what Cancel does. The extension's session
    // really ends, and chrome.debugger.onDetach fires with the reason Chrome gives.
    await panel.eval(`chrome.debugger.detach({ tabId: ${tab.tabId} }).then(() => chrome.debugger.onDetach.dispatch({ tabId: ${tab.tabId} }, "canceled_by_user"))`);
    await panel.waitFor("the paused card", (e) => e.kind === "paused" && e.state === "active");
    expect(await panel.snapshot()).toContain('"Paused"');
    await panel.screenshot("16-paused");
    // The model's next call waits: nothing happens to the page while paused.
    await new Promise((r) => setTimeout(r, 3000));
    expect(world.shop.state().cart).toEqual([]);
    await panel.click("button", "Resume");
    const outcome = await panel.outcome();
    expect(outcome.state).toBe("completed");
    expect(world.shop.state().cart).toEqual(["tote"]);
    expect((await panel.timeline()).find((e) => e.kind === "paused")?.state).toBe("resolved");
  });

  it("goes on through the page (the DOM fallback) when the user cancels the debugger and says so", async () => {
    await world.signIn(
      world.script("fallback.json", {
        turns: [
          { text: "<goal>Add a notebook</goal>", calls: [{ name: "take_snapshot" }] },
          // The user cancels the debugger while the model thinks; its old ref is refused, so it reads again.
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Add Dot notebook to cart" } } }], delayMs: 2000 },
          { calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Add Dot notebook to cart" } } }, { name: "take_snapshot" }] },
          { calls: [{ name: "done", args: { answer: "The notebook is in the cart." } }] },
        ],
      }),
    );
    const { tab, panel } = await shopAndPanel();
    await panel.run("Add the dot notebook to the cart");
    await panel.waitFor("the first snapshot", (e) => e.tool === "take_snapshot" && e.state === "done");
    await panel.eval(`chrome.debugger.detach({ tabId: ${tab.tabId} }).then(() => chrome.debugger.onDetach.dispatch({ tabId: ${tab.tabId} }, "canceled_by_user"))`);
    await panel.waitFor("the paused card", (e) => e.kind === "paused" && e.state === "active");
    await panel.click("button", "Continue without it");
    const outcome = await panel.outcome();
    expect(outcome.state).toBe("completed");
    await panel.screenshot("15-dom-fallback");
    // The click went through the page's DOM; the server has the notebook.
    expect(world.shop.state().cart).toEqual(["notebook"]);
    const entries = await panel.timeline();
    expect(entries.find((e) => e.kind === "notice")?.text).toContain("through the page itself");
    expect(entries.filter((e) => e.kind === "step").map((e) => `${e.tool}:${e.state}`)).toEqual([
      "take_snapshot:done",
      "click:failed",
      "take_snapshot:done",
      "click:done",
      "take_snapshot:done",
    ]);
    expect(entries.find((e) => e.tool === "click")?.text).toContain("refs from earlier snapshots are no longer valid");
    // The debugger was never attached again.
    expect(await extensionCanAttach(tab)).toBe(true);
  });

  it("shares the tab with another extension's debugger: works through its own, and leaves the other attached", async () => {
    await world.signIn(
      world.script("rival.json", {
        turns: [
          { text: "<goal>Add a notebook</goal>", calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Add Dot notebook to cart" } } }, { name: "take_snapshot" }] },
          { calls: [{ name: "done", args: { answer: "The notebook is in the cart." } }] },
        ],
      }),
    );
    const tab = await world.openTab(`${world.shop.url}/`);
    open.push(tab);
    await world.rivalAttach(tab);
    open.push({ close: () => world.rivalDetach(tab).catch(() => undefined) });
    const panel = await world.openPanel(tab);
    open.push(panel);
    await panel.run("Add the dot notebook to the cart");
    const outcome = await panel.outcome();
    expect(outcome.state).toBe("completed");
    expect(world.shop.state().cart).toEqual(["notebook"]);
    const entries = await panel.timeline();
    // Chrome (since multi-client CDP) lets two extensions debug one tab: no fallback was needed.
    expect(entries.filter((e) => e.kind === "notice")).toEqual([]);
    expect(entries.filter((e) => e.kind === "step").map((e) => `${e.tool}:${e.state}`)).toEqual(["take_snapshot:done", "click:done", "take_snapshot:done"]);
    // Baton let go of the tab; the other extension's session is still there and works.
    await until("Baton's debugger to detach", () => extensionCanAttach(tab));
    expect(await world.rivalEval(tab, "document.title")).toBe("Mugshop");
  });

  it("lists past sessions, reopens one from the backend's history, and shows diagnostics", async () => {
    await world.signIn(
      world.script("history.json", {
        turns: [
          { text: "<goal>Look at the shop</goal>Looking.", calls: [{ name: "take_snapshot" }, { name: "screenshot" }] },
          { calls: [{ name: "done", args: { answer: "Four products are on sale." } }] },
        ],
      }),
      { diagnostics: true },
    );
    await world.control.eval(`chrome.storage.local.remove("diagnostics")`);
    const { panel } = await shopAndPanel();
    await panel.run("What does the shop sell?");
    await panel.outcome();
    // The screenshot the agent took shows in its step, of the page without Baton's mask: the
    // mask's frame would tint the picture's left edge indigo.
    const shot = await panel.eval<{ width: number; src: string; edge: number[] } | null>(
      `(() => {
        const img = document.querySelector('[data-tool="screenshot"] img');
        if (!img) return null;
        const c = document.createElement("canvas");
        c.width = img.naturalWidth; c.height = img.naturalHeight;
        const g = c.getContext("2d"); g.drawImage(img, 0, 0);
        return { width: img.naturalWidth, src: img.src, edge: [...g.getImageData(0, Math.floor(c.height / 2), 1, 1).data].slice(0, 3) };
      })()`,
    );
    expect(shot?.src).toMatch(/^blob:chrome-extension:/);
    expect(shot?.width).toBeGreaterThan(300);
    const [r = 0, , b = 0] = shot?.edge ?? [];
    expect(b - r, `the screenshot's left edge is rgb(${shot?.edge.join(", ")})`).toBeLessThan(40);
    await panel.screenshot("16b-screenshot");
    await panel.click("button", "New task");
    await panel.click("button", "Past sessions");
    const list = await panel.snapshot();
    expect(list).toContain('button "What does the shop sell?');
    await panel.screenshot("17-past-sessions");
    await panel.click("button", "What does the shop sell?");
    const outcome = await panel.outcome();
    expect(outcome.text).toContain("Four products are on sale.");
    const entries = await panel.timeline();
    expect(entries.map((e) => e.kind)).toEqual(["task", "text", "step", "step", "outcome"]);
    expect(entries[2]?.text).toContain("Reading the page");
    expect(entries[3]?.text).toContain("Taking a screenshot");
    await panel.click("button", "Diagnostics");
    const diag = await panel.snapshot();
    await panel.screenshot("18-diagnostics");
    expect(diag).toContain('"script"');
    expect(diag).toMatch(/model/);
    expect(diag).toMatch(/tool:take_snapshot/);
  });
  it("runs a task from Node through the panel, as the eval harness does (@baton/extension/testing)", async () => {
    await world.signIn(
      world.script("driven.json", {
        turns: [
          { text: "<goal>Add a tote and a red mug</goal>", calls: [{ name: "take_snapshot" }] },
          {
            calls: [
              { name: "click", args: { ref: { role: "button", name: "Add Canvas tote to cart" }, irreversible: true } },
              { name: "click", args: { ref: { role: "button", name: "Add Red mug to cart" } } },
            ],
          },
          { calls: [{ name: "ask_user", args: { question: "Gift wrap?", choices: ["Yes", "No"] } }] },
          { calls: [{ name: "done", args: { answer: "Tote and red mug in the cart." } }] },
        ],
      }),
    );
    const asked: string[] = [];
    const run = await runInPanel(world, {
      startUrl: `${world.shop.url}/`,
      task: "Add a tote and a red mug",
      onApproval: (a) => (asked.push(a.text), true),
      userReply: "No",
      timeoutMs: 60_000,
    });
    open.push({ close: run.end });
    await run.panel.screenshot("19-driven");
    expect(run.outcome).toMatchObject({ state: "completed", text: expect.stringContaining("Tote and red mug") });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("Clicking 'Add Canvas tote to cart' (irreversible)");
    const got = await backendSession(run.sessionId);
    expect(got.session?.status).toBe(SessionStatus.COMPLETED);
    expect(run.timeline.find((e) => e.kind === "question")?.text).toContain("You answered: No");
    // The calls ran on the page in the model's order: the red mug's click waited for the tote's
    // approval. The timeline shows them in the order they ran.
    expect(world.shop.state().cart).toEqual(["tote", "mug-red"]);
    const clicked = run.timeline.filter((e) => e.tool === "click").map((e) => (e.text.includes("tote") ? "tote" : "mug-red"));
    expect(clicked).toEqual(world.shop.state().cart);
  });
  it("types a secret from its settings where the model wrote the placeholder; the value reaches the page only, never the backend or the timeline", async () => {
    const value = "Hunter2-e2e-s3cret-value";
    await world.signIn(
      world.script("secret.json", {
        turns: [
          { text: "<goal>Sign in</goal>", calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "type_text", args: { ref: { role: "textbox", name: "Password" }, text: "<secret>password</secret>" } }, { name: "take_snapshot" }] },
          { calls: [{ name: "done", args: { answer: "Typed the password." } }] },
        ],
      }),
    );
    const { tab, panel } = await shopAndPanel("/login");
    await addSecret(panel, value);
    const settingsText = await panel.eval<string>("document.body.innerText");
    expect(settingsText).toContain(new URL(world.shop.url).origin);
    expect(settingsText).not.toContain(value);
    await panel.eval(`document.querySelector("form.secrets").scrollIntoView({ block: "start" })`);
    await panel.screenshot("20-secrets-settings");
    const stored = await world.control.eval<{ secrets?: { name: string; value: string }[] }>(`chrome.storage.local.get("secrets")`);
    expect(stored.secrets).toEqual([{ name: "password", value, origins: [new URL(world.shop.url).origin] }]);
    await panel.click("button", "Back to the task");
    await panel.run("Sign in to the shop");
    const outcome = await panel.outcome();
    expect(outcome.state).toBe("completed");
    // The page got the value; the panel's timeline shows only the placeholder.
    expect(await tab.eval<string>(`document.getElementById("password").value`)).toBe(value);
    const typed = (await panel.timeline()).find((e) => e.tool === "type_text");
    expect(typed?.state).toBe("done");
    expect(await panel.eval<string>("document.body.innerText")).not.toContain(value);
    // Nothing the backend stored holds the value: the session, its history, the files on disk.
    const got = await backendSession(await lastSession());
    const json = JSON.stringify(got, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : v));
    expect(json).toContain("<secret>password</secret>");
    expect(json).not.toContain(value);
    const files = readdirSync(join(world.scriptDir, "..", "data"), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(join(f.parentPath, f.name)).includes(value), join(f.parentPath, f.name)).toBe(false);
    // Deleting it leaves nothing in the extension's storage.
    await panel.click("button", "Settings");
    await panel.click("button", "Delete password");
    await until("the secret to go", async () => !(await panel.snapshot()).includes("Delete password"));
    expect(await world.control.eval(`chrome.storage.local.get("secrets").then((s) => s.secrets)`)).toEqual([]);
  });

  it("adds a one-time code secret in Settings (its seed checked), types the current code the shop's server accepts, and the seed and code reach no tool result", async () => {
    const link = `otpauth://totp/Mugshop:ada?secret=${shopTotpSeed}&issuer=Mugshop`;
    const origin = new URL(world.shop.url).origin;
    await world.control.eval(`chrome.storage.local.remove("secrets")`);
    await world.signIn(
      world.script("totp.json", {
        turns: [
          { text: "<goal>Finish the two-step sign-in</goal>", calls: [{ name: "take_snapshot" }] },
          {
            calls: [
              { name: "type_text", args: { ref: { role: "textbox", name: "One-time code" }, text: "<secret>otp</secret>" } },
              { name: "click", args: { ref: { role: "button", name: "Verify" } } },
              { name: "take_snapshot" },
            ],
          },
          { calls: [{ name: "done", args: { answer: "Signed in with the one-time code." } }] },
        ],
      }),
    );
    const { tab, panel } = await shopAndPanel("/2fa");
    await panel.click("button", "Settings");
    await panel.click("radio", "One-time code");
    await panel.type("textbox", "Name", "otp");
    // A key that is not one: a clear message, and nothing saved.
    await panel.type("textbox", "Authenticator key", "not a key!");
    await panel.type("textbox", "Allowed origins", origin);
    await panel.click("button", "Add one-time code");
    await until("the error", async () => (await panel.eval<string>(`document.querySelector("form.secrets .form-note")?.textContent ?? ""`)).includes("the one-time code's key is not Base32"));
    expect(await panel.eval<string>(`document.querySelector("form.secrets .form-note").textContent`)).toMatch(/^secret "otp": the one-time code's key is not Base32 .*otpauth:\/\/totp\//);
    expect(await world.control.eval(`chrome.storage.local.get("secrets").then((s) => s.secrets ?? [])`)).toEqual([]);
    await panel.type("textbox", "Authenticator key", link);
    await panel.click("button", "Add one-time code");
    await until("the one-time code in the list", async () => (await panel.snapshot()).includes('button "Delete otp"'));
    const listed = await panel.eval<string>(`document.querySelector(".secret-list").innerText`);
    expect(listed).toContain("one-time code");
    expect(listed).toContain(origin);
    expect(await panel.eval<string>("document.body.innerText")).not.toContain(shopTotpSeed);
    const stored = await world.control.eval<{ secrets?: unknown[] }>(`chrome.storage.local.get("secrets")`);
    expect(stored.secrets).toEqual([{ name: "otp", value: link, kind: "totp", origins: [origin] }]);
    await panel.eval(`document.querySelector("form.secrets").scrollIntoView({ block: "start" })`);
    await panel.screenshot("extension-secrets-totp", docsImg);

    await panel.click("button", "Back to the task");
    await panel.run("Finish signing in to the shop");
    const outcome = await panel.outcome();
    expect(outcome.state, outcome.text).toBe("completed");
    // The shop's server checked the code the extension typed against its own clock.
    const codes = world.shop.state().codes;
    expect(codes.refused).toEqual([]);
    expect(codes.accepted).toHaveLength(1);
    const code = codes.accepted[0] as string;
    expect(code).toMatch(/^\d{6}$/);
    expect(await tab.eval<string>(`document.querySelector(".done").textContent`)).toBe("Signed in: the code was right.");
    // Neither the seed nor the code is in the panel, or in anything the backend got (tool results, the model's prompts).
    const shown = await panel.eval<string>("document.body.innerText");
    const typedCode = new RegExp(`(?<!\\d)${code}(?!\\d)`);
    expect(shown).not.toContain(shopTotpSeed);
    expect(shown).not.toMatch(typedCode);
    const got = await backendSession(await lastSession());
    const json = JSON.stringify(got, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : v));
    const results = got.history.filter((h) => h.entry.case === "toolResult");
    expect(results.length).toBeGreaterThanOrEqual(4);
    expect(json).toContain("<secret>otp</secret>");
    expect(json).not.toContain(shopTotpSeed);
    expect(json).not.toMatch(typedCode);
    const files = readdirSync(join(world.scriptDir, "..", "data"), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    for (const f of files) expect(readFileSync(join(f.parentPath, f.name)).includes(shopTotpSeed), join(f.parentPath, f.name)).toBe(false);
    await world.control.eval(`chrome.storage.local.remove("secrets")`);
  });

  it("takes a budget per task in Settings, sends it with the task, shows the spend live, and ends at the ceiling with a Budget reached card", async () => {
    // Each model call counts 5,000 tokens: the third reaches the 12,000-token ceiling.
    const usage = { input: 4000, output: 1000 };
    await world.signIn(
      world.script("budget.json", {
        turns: [
          { text: "<goal>Read the shop</goal>", calls: [{ name: "take_snapshot" }], usage, delayMs: 600 },
          { calls: [{ name: "take_snapshot" }], usage, delayMs: 600 },
        ],
        loopFrom: 1,
      }),
    );
    const { panel } = await shopAndPanel();
    await panel.click("button", "Settings");
    await panel.type("spinbutton", "Tokens", "12000");
    // No cost ceiling: the script model has no price, and the backend refuses a cost ceiling it
    // could never reach (the standalone test holds one on a priced model).
    await panel.type("spinbutton", "Minutes", "10");
    await panel.eval(`document.querySelector(".budget-fields").closest("fieldset").scrollIntoView({ block: "center" })`);
    await panel.screenshot("extension-budget", docsImg);
    await panel.click("button", "Save");
    await until("the budget saved", async () => (await world.control.eval<{ settings: { budget?: unknown } }>(`chrome.storage.local.get("settings")`)).settings.budget !== undefined);
    expect((await world.control.eval<{ settings: { budget: unknown } }>(`chrome.storage.local.get("settings")`)).settings.budget).toEqual({ tokens: 12000, costUsd: 0, seconds: 600 });
    await panel.click("button", "Back to the task");

    await panel.run("Look at the shop for as long as you like");
    // Live: after a step, while the task still runs, the panel shows what it used of the ceiling.
    const live = await until(
      "the spend while the task runs",
      async () => {
        const [spend, status] = await panel.eval<[string, string]>(`[document.querySelector(".spend")?.textContent ?? "", document.querySelector(".bar .status").textContent]`);
        return status === "Working" && /^Budget: (5|10),000 of 12,000 tokens used, \d+ s of 10 min used$/.test(spend) && spend;
      },
      30_000,
    );
    expect(live).toMatch(/tokens used/);
    const outcome = await panel.outcome();
    expect(outcome.state).toBe("budget_exhausted");
    expect(outcome.text).toBe("Budget reached 15,000 of 12,000 tokens used.");
    expect(await panel.eval<string>(`document.querySelector(".spend").textContent`)).toMatch(/^Budget: 15,000 of 12,000 tokens used, \d+ s of 10 min used$/);
    // No error card: the task ended as the budget says.
    expect((await panel.timeline()).filter((e) => e.kind === "notice")).toEqual([]);
    await panel.screenshot("extension-budget-stop", docsImg);
    const got = await backendSession(await lastSession());
    expect(got.session?.status).toBe(SessionStatus.BUDGET_EXHAUSTED);
    expect(got.session?.budget).toMatchObject({ tokens: 12000n, costUsd: 0, seconds: 600 });
  });

  it("keeps its storage from the content script: in the agent's tab no key, token or secret can be read, while the panel reads them", async () => {
    const modelKey = "sk-e2e-model-key-0123456789";
    const secret = "Hunter2-storage-s3cret";
    await world.signIn(
      world.script("storage.json", {
        turns: [
          { text: "<goal>Look at the shop</goal>", calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "done", args: { answer: "Looked." } }] },
        ],
      }),
      { modelKey },
    );
    await world.control.eval(`chrome.storage.local.set({ secrets: [{ name: "password", value: ${JSON.stringify(secret)}, origins: [] }] })`);
    const { tab, panel } = await shopAndPanel("/");
    await panel.run("Look at the shop");
    expect((await panel.outcome()).state).toBe("completed");
    // In the content script's own world (the panel injected it for the mask): storage refuses.
    const fromContent = await world.control.eval<{ content: boolean; read: string }>(`chrome.scripting
      .executeScript({ target: { tabId: ${tab.tabId} }, func: async () => ({
        content: globalThis.__batonContent !== undefined,
        read: await chrome.storage.local.get(null).then((all) => JSON.stringify(all), (e) => "refused: " + e.message),
      }) })
      .then(([frame]) => frame.result)`);
    expect(fromContent.content).toBe(true);
    expect(fromContent.read).toMatch(/^refused: /);
    for (const kept of [modelKey, world.token, secret]) expect(fromContent.read).not.toContain(kept);
    // The panel, a trusted context, still reads all of it.
    const inPanel = JSON.stringify(await panel.eval("chrome.storage.local.get(null)"));
    for (const kept of [modelKey, world.token, secret]) expect(inPanel).toContain(kept);
    await world.control.eval(`chrome.storage.local.remove("secrets")`);
  });

  it("uploads from the upload folder without asking, and asks with the full path about any other file: Deny keeps it out, Approve lets it in", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "baton-ext-uploads-")));
    const folder = join(root, "Uploads");
    mkdirSync(folder);
    writeFileSync(join(folder, "receipt.txt"), "receipt #1042");
    writeFileSync(join(root, "private.txt"), "not for the shop");
    const files = `document.getElementById("receipt").files`;
    try {
      await world.control.eval(`chrome.storage.local.set({ uploadFolder: ${JSON.stringify(folder)} })`);
      await world.signIn(
        world.script("uploads.json", {
          turns: [
            { text: "<goal>Attach the receipt</goal>", calls: [{ name: "take_snapshot" }] },
            { calls: [{ name: "upload_file", args: { ref: { role: "button", name: "Receipt" }, paths: ["receipt.txt"] } }, { name: "take_snapshot" }] },
            { calls: [{ name: "upload_file", args: { ref: { role: "button", name: "Receipt" }, paths: ["../private.txt"] } }, { name: "take_snapshot" }] },
            { calls: [{ name: "upload_file", args: { ref: { role: "button", name: "Receipt" }, paths: [join(root, "private.txt")] } }, { name: "take_snapshot" }] },
            { calls: [{ name: "done", args: { answer: "Attached." } }] },
          ],
        }),
      );
      const { tab, panel } = await shopAndPanel("/returns");
      await panel.run("Attach my receipt");
      // The file inside the folder went in without a card; the ".." escape is asked about by its full path.
      const card = await panel.waitFor("the upload card", (e) => e.kind === "approval" && e.state === "pending");
      expect(await tab.eval<string>(`${files}[0]?.name ?? ""`)).toBe("receipt.txt");
      expect(card.text).toContain("Allow this upload? The file is outside your upload folder");
      expect(card.text).toContain(join(root, "private.txt"));
      expect(card.text).toContain(`Upload folder: ${folder}`);
      await panel.click("button", "Deny");
      await until("the second upload card", async () => (await panel.timeline()).filter((e) => e.kind === "approval").map((e) => e.state).join() === "denied,pending");
      expect(await tab.eval<string>(`${files}[0]?.name ?? ""`)).toBe("receipt.txt");
      await panel.click("button", "Approve");
      expect((await panel.outcome()).state).toBe("completed");
      const uploads = (await panel.timeline()).filter((e) => e.tool === "upload_file");
      expect(uploads.map((e) => e.state)).toEqual(["done", "failed", "done"]);
      expect(uploads[1]?.text).toContain(`The user did not allow uploading ${JSON.stringify(join(root, "private.txt"))}, which is outside the upload folder ${folder}`);
      expect(await tab.eval<string>(`${files}[0]?.name ?? ""`)).toBe("private.txt");
    } finally {
      await world.control.eval(`chrome.storage.local.remove("uploadFolder")`);
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("refuses to type a secret into another origin's frame on the page it is scoped to, and types it into the page's own field", async () => {
    const value = "Frame-e2e-s3cret-value";
    // Another origin (127.0.0.1 on another port) framed by the sign-in page, recording every character its field gets.
    const got: string[] = [];
    const partner = createServer((req, res) => {
      if (req.url === "/got") {
        let b = "";
        req.on("data", (c: Buffer) => (b += c.toString()));
        req.on("end", () => (got.push(b), res.end()));
        return;
      }
      res.writeHead(200, { "content-type": "text/html" }).end(
        `<!doctype html><title>Partner</title><label>Partner password <input type="password"></label><script>document.querySelector("input").addEventListener("input", (e) => fetch("/got", { method: "POST", body: e.target.value }));</script>`,
      );
    });
    await new Promise<void>((r) => partner.listen(0, "127.0.0.1", r));
    const partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}/`;
    try {
      await world.signIn(
        world.script("secret-frame.json", {
          turns: [
            { text: "<goal>Sign in</goal>", calls: [{ name: "take_snapshot" }] },
            { calls: [{ name: "type_text", args: { ref: { role: "textbox", name: "Partner password" }, text: "<secret>password</secret>" } }] },
            { calls: [{ name: "type_text", args: { ref: { role: "textbox", name: "Password" }, text: "<secret>password</secret>" } }] },
            { calls: [{ name: "done", args: { answer: "Typed the password into the sign-in form." } }] },
          ],
        }),
      );
      const { tab, panel } = await shopAndPanel(`/login?frame=${encodeURIComponent(partnerUrl)}`);
      await addSecret(panel, value);
      await panel.click("button", "Back to the task");
      await panel.run("Sign in to the shop");
      expect((await panel.outcome()).state).toBe("completed");
      // The frame's field was refused, with the reason in the timeline; the shop's own field got the value.
      const typed = (await panel.timeline()).filter((e) => e.tool === "type_text");
      expect(typed.map((e) => e.state)).toEqual(["failed", "done"]);
      expect(typed[0]?.text).toContain(`is in a frame on ${partnerUrl.slice(0, -1)}; this text may only be typed on ${new URL(world.shop.url).origin}`);
      expect(await tab.eval<string>(`document.getElementById("password").value`)).toBe(value);
      await new Promise((r) => setTimeout(r, 300));
      expect(got).toEqual([]);
      await panel.click("button", "Settings");
      await panel.click("button", "Delete password");
      await until("the secret to go", async () => !(await panel.snapshot()).includes("Delete password"));
    } finally {
      partner.close();
    }
  });

  it("signs in with the console (device link, PKCE), runs a task with the linked token, and shows signed out once it is revoked", async () => {
    await world.control.eval(`Promise.all([chrome.storage.local.clear(), chrome.storage.session.clear()])`);
    const model = world.script("linked.json", {
      turns: [
        { text: "<goal>Add a blue mug</goal>", calls: [{ name: "take_snapshot" }] },
        { calls: [{ name: "click", args: { ref: { role: "button", name: "Add Blue mug to cart" } } }] },
        { calls: [{ name: "done", args: { answer: "A blue mug is in the cart." } }] },
      ],
    });
    await world.configure({ backendUrl: world.backend.url, token: "", model });
    // Sign in to the console in this browser with the one-time link `baton serve` printed.
    const signInLink = /Console: (\S+)/.exec(world.backend.output())?.[1] ?? "";
    expect(signInLink).toContain("/sign-in#");
    const consoleTab = await world.openTab(signInLink);
    open.push(consoleTab);
    // The link names its account and signs in on a click.
    await until("the sign-in button", () => consoleTab.eval<boolean>(`[...document.querySelectorAll("button")].some((b) => b.textContent.trim() === "Sign in as local")`));
    await consoleTab.eval(`[...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Sign in as local").click()`);
    await until("the console signed in", async () => (await consoleTab.url()).endsWith("/sessions"));

    const { tab, panel: first } = await shopAndPanel();
    const tabsBefore = await world.control.eval<number>(`chrome.tabs.query({}).then((t) => t.length)`);
    await first.click("button", "Sign in with the console");
    const code = await until("the user code in the panel", () => first.eval<string | false>(`document.querySelector(".user-code")?.textContent || false`));
    expect(code).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);
    // The verifier waits in session storage, never in local storage.
    const pending = await world.control.eval<{ deviceLink?: { verifier: string; linkId: string } }>(`chrome.storage.session.get("deviceLink")`);
    expect(pending.deviceLink?.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(await world.control.eval(`chrome.storage.local.get(null)`))).not.toContain(pending.deviceLink?.verifier);
    await first.screenshot("21-console-link-code");
    // Closing the panel while the link waits loses nothing: reopened, it shows the same code and goes on.
    await first.close();
    const panel = await world.openPanel(tab);
    open.push(panel);
    expect(await until("the code in the reopened panel", () => panel.eval<string | false>(`document.querySelector(".user-code")?.textContent || false`))).toBe(code);

    // The panel opened the console's approval page in a tab; approve there.
    const approveUrl = `${world.backend.url}/link/${pending.deviceLink?.linkId}`;
    const approveId = await until("the approval tab", async () => {
      const { targetInfos } = await world.transport.send<{ targetInfos: { targetId: string; url: string; type: string }[] }>("Target.getTargets");
      return targetInfos.find((t) => t.type === "page" && t.url === approveUrl)?.targetId;
    });
    expect(await world.control.eval<number>(`chrome.tabs.query({}).then((t) => t.length)`)).toBe(tabsBefore + 1);
    const { sessionId } = await world.transport.send<{ sessionId: string }>("Target.attachToTarget", { targetId: approveId, flatten: true });
    const approveTab = new Target(world, approveId, sessionId);
    open.push(approveTab);
    await until("the approval page with the code", () => approveTab.eval<boolean>(`document.body.innerText.includes(${JSON.stringify(code)})`));
    await approveTab.eval(`[...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Approve for local").click()`);
    await until("the console to confirm", () => approveTab.eval<boolean>(`/Linked\\. Return to your device/.test(document.body.innerText)`));

    // The panel trades the code for a token, saves it where a pasted token goes, and is signed in.
    const token = await until("the linked token", async () => (await world.control.eval<{ settings?: { token: string } }>(`chrome.storage.local.get("settings")`)).settings?.token);
    expect(token).not.toBe(world.token);
    await until("the pending link to be forgotten", async () => !(await world.control.eval<{ deviceLink?: unknown }>(`chrome.storage.session.get("deviceLink")`)).deviceLink, 5_000);
    await until("the task box", async () => (await panel.snapshot()).includes('textbox "Task"'));
    await approveTab.close();
    await world.transport.send("Target.activateTarget", { targetId: tab.targetId });
    await panel.screenshot("22-console-signed-in");
    await panel.run("Add a blue mug");
    expect(await panel.outcome()).toMatchObject({ state: "completed", text: expect.stringContaining("blue mug is in the cart") });
    expect(world.shop.state().cart, JSON.stringify(await panel.timeline())).toEqual(["mug-blue"]);

    // Revoked in the console's Devices page: the panel says it is signed out.
    await world.transport.send("Page.navigate", { url: `${world.backend.url}/devices` }, consoleTab.sessionId);
    await until("the device in the console", () => consoleTab.eval<boolean>(`[...document.querySelectorAll("button")].some((b) => /^Revoke Chrome on /.test(b.getAttribute("aria-label") ?? ""))`));
    // The console asks "Revoke …?" with confirm(): the user says OK.
    await world.transport.send("Page.enable", {}, consoleTab.sessionId);
    const clicked = consoleTab.eval(`[...document.querySelectorAll("button")].find((b) => /^Revoke Chrome on /.test(b.getAttribute("aria-label") ?? "")).click()`);
    await until("the confirm dialog", () => world.transport.send("Page.handleJavaScriptDialog", { accept: true }, consoleTab.sessionId).then(() => true, () => false));
    await clicked;
    await until("the token revoked", async () => {
      const e = await createBatonClient({ baseUrl: world.backend.url, token }).listPlaybooks({}).then(() => undefined, (x: unknown) => x);
      return e !== undefined;
    });
    // The next task the panel sends is refused: it says "Signed out" at once, not at the next check.
    await panel.click("button", "New task");
    await panel.run("Add a red mug");
    await until("signed out in the panel", () => panel.eval<boolean>(`/Signed out/.test(document.body.innerText)`), 15_000);
    expect((await world.control.eval<{ auth?: { state: string } }>(`chrome.storage.local.get("auth")`)).auth?.state).toBe("rejected");
    expect(world.shop.state().cart).toEqual(["mug-blue"]);
    // And a reopened panel still says so (its own check on open).
    await world.transport.send("Page.reload", {}, panel.sessionId);
    await until("signed out in the panel", () => panel.eval<boolean>(`/Signed out/.test(document.body.innerText)`).catch(() => false));
    await panel.screenshot("23-console-signed-out");
  }, 150_000);
});
