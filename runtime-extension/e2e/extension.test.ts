/**
 * The extension end to end: built with rollup, loaded unpacked in headless Chromium, its panel
 * opened as a tab beside the fixture shop, a real `baton serve` replaying script files. Each
 * test saves screenshots of the panel at its key moments under `runtime-extension/.artefacts/`.
 */
import { createBatonClient } from "@baton/sdk/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { type Panel, startWorld, until, type WebTab, type World } from "./harness.js";

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

/** Opens the shop in a tab and the panel beside it. */
async function shopAndPanel(path = "/"): Promise<{ tab: WebTab; panel: Panel }> {
  const tab = await world.openTab(`${world.shop.url}${path}`);
  const panel = await world.openPanel(tab);
  open.push(panel, tab);
  onTestFailed(async () => {
    // What the panel showed when it failed, for the person reading the failure.
    await panel.screenshot("failed-panel").catch(() => undefined);
    console.error("panel timeline at failure:", JSON.stringify(await panel.timeline().catch(() => []), null, 1));
    const sessions = await world.control.eval<{ sessions?: { sessionId: string }[] }>(`chrome.storage.local.get("sessions")`).catch(() => ({}));
    const id = (sessions as { sessions?: { sessionId: string }[] }).sessions?.[0]?.sessionId;
    if (id) {
      const got = await createBatonClient({ baseUrl: world.backend.url, token: world.token }).getSession({ sessionId: id });
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
    expect(await panel.snapshot()).toContain('heading[1] "Connect to your Baton backend"');
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
  });
});
