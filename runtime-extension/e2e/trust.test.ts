/**
 * Trust a person configures in the side panel, end to end (the built extension in headless
 * Chromium, a real `baton serve` replaying scripts, the fixture shop): approvals answered
 * "always on this site" and revoked from Settings, and the site policy of Settings (read-only
 * and blocked sites) held by the agent's tabs, down to their frames, subresources and WebSockets.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createBatonClient } from "@baton/sdk/client";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { type Panel, startWorld, until, type WebTab, type World } from "./harness.js";

/** Screenshots the docs show. */
const docsImg = fileURLToPath(new URL("../../docs/img/", import.meta.url));

let world: World;
/** A site of its own on another port, for the blocked list. */
let other: Server;
let otherUrl: string;
/** A blocked site that counts every request and WebSocket handshake that reaches it. */
let blocked: Server;
let blockedUrl: string;
const blockedHits: string[] = [];
/** A site whose page embeds the blocked one: a frame, an image, a script and a WebSocket. */
let embedder: Server;
let embedderUrl: string;
const open: { close(): Promise<void> }[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  other = createServer((_req, res) => res.end("<!doctype html><title>Other site</title><p>Another site</p>"));
  otherUrl = await listen(other);
  blocked = createServer((req, res) => {
    blockedHits.push(req.url ?? "");
    res.end(req.url === "/frame.html" ? "<!doctype html><p>Blocked partner</p>" : "");
  });
  blocked.on("upgrade", (req, socket) => {
    blockedHits.push(`websocket ${req.url ?? ""}`);
    socket.destroy();
  });
  blockedUrl = await listen(blocked);
  embedder = createServer((_req, res) => {
    const ws = blockedUrl.replace(/^http/, "ws");
    res.setHeader("content-type", "text/html");
    res.end(`<!doctype html><title>Widgets</title><h1>Widgets</h1>
<iframe title="Partner" src="${blockedUrl}/frame.html"></iframe>
<img alt="Pixel" src="${blockedUrl}/pixel.png">
<script src="${blockedUrl}/widget.js"></script>
<script>
  const ws = new WebSocket("${ws}/live");
  ws.onopen = () => (document.body.dataset.ws = "open");
  ws.onerror = () => (document.body.dataset.ws = "failed");
</script>`);
  });
  embedderUrl = await listen(embedder);
  world = await startWorld();
}, 180_000);

afterAll(async () => {
  for (const t of open) await t.close();
  await world?.close();
  for (const s of [other, blocked, embedder]) await new Promise((r) => s?.close(r));
});

async function shopAndPanel(url = world.shop.url): Promise<{ tab: WebTab; panel: Panel }> {
  world.shop.reset();
  const tab = await world.openTab(url);
  const panel = await world.openPanel(tab);
  open.push(panel, tab);
  onTestFailed(async () => {
    await panel.screenshot("failed-trust-panel").catch(() => undefined);
    console.error("panel timeline at failure:", JSON.stringify(await panel.timeline().catch(() => []), null, 1));
    console.error("panel text at failure:", await panel.eval<string>("document.body.innerText").catch(() => ""));
  });
  return { tab, panel };
}

const api = () => createBatonClient({ baseUrl: world.backend.url, token: world.token });
const cards = async (panel: Panel) => (await panel.timeline()).filter((e) => e.kind === "approval");

describe("trust in the side panel", () => {
  it("remembers 'always on this site': the next call of that class runs without a card; revoked in Settings, the next one asks again", async () => {
    const add = (name: string) => ({ name: "click", args: { ref: { role: "button", name: `Add ${name} to cart` }, irreversible: true } });
    await world.signIn(
      world.script("remember.json", {
        turns: [
          { text: "<goal>Add two mugs</goal>", calls: [{ name: "take_snapshot" }] },
          { calls: [add("Blue mug"), { name: "take_snapshot" }] },
          { calls: [add("Red mug"), { name: "take_snapshot" }] },
          { calls: [{ name: "done", args: { answer: "Added two mugs." } }] },
          // The follow-up, after the decision was revoked.
          { calls: [{ name: "take_snapshot" }] },
          { calls: [add("Canvas tote"), { name: "take_snapshot" }] },
          { calls: [{ name: "done", args: { answer: "You declined the tote." } }] },
        ],
      }),
    );
    const { panel } = await shopAndPanel();
    await panel.run("Add two mugs");
    const card = await panel.waitFor("the approval card", (e) => e.kind === "approval" && e.state === "pending");
    expect(card.text).toContain("Clicking 'Add Blue mug to cart' (irreversible)");
    expect(card.text).toContain(`Or answer for every irreversible action (paying, sending, deleting) on ${new URL(world.shop.url).host}`);
    await panel.screenshot("extension-approval-remember", docsImg);
    await panel.click("button", "Always on this site");
    expect((await panel.outcome()).state).toBe("completed");
    // The second irreversible click on the same site ran without a card.
    expect(world.shop.state().cart).toEqual(["mug-blue", "mug-red"]);
    expect((await cards(panel)).map((c) => c.state)).toEqual(["approved"]);
    expect((await cards(panel))[0]?.text).toContain(`Allowed, and always on ${new URL(world.shop.url).host}`);
    const kept = (await api().listApprovalRules({})).rules;
    expect(kept.map((r) => [r.site, r.allow])).toEqual([[new URL(world.shop.url).origin, true]]);
    // 30 days, the card's default.
    expect(Number(kept[0]?.expiresAt?.seconds) * 1000 - Date.now()).toBeGreaterThan(29 * 24 * 3_600_000);

    // Settings list it; Revoke forgets it in the backend.
    await panel.click("button", "Settings");
    const revoke = `Revoke always on ${new URL(world.shop.url).origin}`;
    await until("the remembered approval in Settings", async () => (await panel.snapshot()).includes(`button "${revoke}"`));
    const listed = await panel.eval<string>(`(() => { const s = document.querySelector(".trust"); s.scrollIntoView(); return s.innerText; })()`);
    expect(listed).toContain("Always");
    expect(listed).toContain("Irreversible action (paying, sending, deleting)");
    await panel.click("button", revoke);
    await until("the list to empty", async () => (await panel.eval<string>(`document.querySelector(".trust").innerText`)).includes("None yet."));
    expect((await api().listApprovalRules({})).rules).toEqual([]);

    // The next call of that class on that site is asked again.
    await panel.click("button", "Back to the task");
    await panel.run("And a tote");
    const again = await panel.waitFor("a new approval card", (e) => e.kind === "approval" && e.state === "pending");
    expect(again.text).toContain("Clicking 'Add Canvas tote to cart' (irreversible)");
    await panel.click("button", "Deny");
    await until("the follow-up to end", async () => (await panel.timeline()).some((e) => e.kind === "outcome" && e.text.includes("declined the tote")));
    expect(world.shop.state().cart).toEqual(["mug-blue", "mug-red"]);
  });

  it("holds the agent to the site policy of Settings: bad entries are named, a read-only site refuses a click but is read, a blocked site is not opened", async () => {
    await world.signIn(
      world.script("policy.json", {
        turns: [
          { text: "<goal>Add a mug</goal>", calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Add Blue mug to cart" } } }] },
          { calls: [{ name: "extract", args: {} }] },
          { calls: [{ name: "navigate", args: { url: `${otherUrl}/` } }] },
          { calls: [{ name: "open_tab", args: { url: `${otherUrl}/x` } }] },
          { calls: [{ name: "done", args: { answer: "The shop is read-only here and the other site is blocked." } }] },
        ],
      }),
    );
    const { tab, panel } = await shopAndPanel();
    await panel.click("button", "Settings");
    await panel.type("textbox", "Read-only sites", new URL(world.shop.url).origin);
    await panel.type("textbox", "Blocked sites", `${otherUrl}\nnot a site!`);
    expect(await panel.eval(`[...document.querySelectorAll(".site-policy textarea")].map((t) => t.value)`)).toEqual(["", `${otherUrl}\nnot a site!`, new URL(world.shop.url).origin]);
    await panel.click("button", "Save site policy");
    // The bad entry is named and nothing is saved.
    await until("the error", async () => (await panel.eval<string>(`document.querySelector(".site-policy").innerText`)).includes('Blocked sites: "not a site!" is neither an origin'));
    expect(await world.control.eval(`chrome.storage.local.get("sitePolicy").then((g) => g.sitePolicy ?? null)`)).toBeNull();
    await panel.eval(`document.querySelector(".site-policy").scrollIntoView()`);
    await panel.screenshot("extension-policy", docsImg);
    // Fix it: the textarea keeps the first line.
    await panel.eval(`(() => { const t = document.getElementById("sites-blocked"); t.value = ${JSON.stringify(otherUrl)}; t.dispatchEvent(new Event("input", { bubbles: true })); })()`);
    await panel.click("button", "Save site policy");
    await until("saved", async () => (await panel.eval<string>(`document.querySelector(".site-policy").innerText`)).includes("Saved."));
    expect(await world.control.eval(`chrome.storage.local.get("sitePolicy").then((g) => g.sitePolicy)`)).toEqual({ allowed: [], blocked: [otherUrl], readOnly: [new URL(world.shop.url).origin] });

    await panel.click("button", "Back to the task");
    await panel.run("Add a mug");
    const outcome = await panel.outcome();
    expect(outcome.text).toContain("read-only here");
    const steps = (await panel.timeline()).filter((e) => e.kind === "step");
    expect(steps.map((s) => [s.tool, s.state])).toEqual([
      ["take_snapshot", "done"],
      ["click", "failed"],
      ["extract", "done"],
      ["navigate", "failed"],
      ["open_tab", "failed"],
    ]);
    expect(steps[1]?.text).toContain("is a read-only site");
    expect(steps[3]?.text).toMatch(/blocked/);
    expect(steps[4]?.text).toMatch(/blocked/);
    // Nothing reached the shop, and the tab never left it.
    expect(world.shop.state().cart).toEqual([]);
    expect(await tab.url()).toBe(`${world.shop.url}/`);
    const { targetInfos } = await world.transport.send<{ targetInfos: { url: string }[] }>("Target.getTargets");
    expect(targetInfos.some((t) => t.url.startsWith(otherUrl))).toBe(false);
  });

  it("holds the agent's tabs to the site policy in the network: a blocked site's frame, image, script and WebSocket never reach it, while the user's tab is untouched", async () => {
    await world.signIn(
      world.script("net-block.json", {
        turns: [
          { text: "<goal>Read the widgets page</goal>", calls: [{ name: "navigate", args: { url: `${embedderUrl}/` } }] },
          { calls: [{ name: "ask_user", args: { question: "Go on?", choices: ["Yes", "No"] } }] },
          { calls: [{ name: "done", args: { answer: "The partner's widgets did not load." } }] },
        ],
      }),
    );
    const sessionRules = () => world.control.eval<{ action: { type: string }; condition: { regexFilter: string; tabIds: number[] } }[]>("chrome.declarativeNetRequest.getSessionRules()");
    await world.control.eval(`chrome.storage.local.set({ sitePolicy: { allowed: [], blocked: [${JSON.stringify(blockedUrl)}], readOnly: [] } })`);
    const { tab, panel } = await shopAndPanel();
    blockedHits.length = 0;
    await panel.run("Read the widgets page");
    // The agent has loaded the page in its tab and waits for an answer: the tab is still held.
    await panel.waitFor("the question", (e) => e.kind === "question" && e.state === "pending");
    expect(await tab.url()).toBe(`${embedderUrl}/`);
    await until("the page's WebSocket to fail", async () => (await tab.eval<string | undefined>("document.body.dataset.ws")) === "failed");
    expect(await tab.eval<boolean>(`document.querySelector("iframe[title=Partner]") !== null`)).toBe(true);
    expect(blockedHits).toEqual([]);
    const rules = await sessionRules();
    expect(rules.length).toBeGreaterThan(0);
    for (const r of rules) expect([r.action.type, r.condition.tabIds]).toEqual(["block", [tab.tabId]]);

    // The same page in a tab the agent does not own loads all of it.
    const users = await world.openTab(`${embedderUrl}/`);
    open.push(users);
    await until("the user's tab to reach the blocked site", async () => ["/frame.html", "/pixel.png", "/widget.js", "websocket /live"].every((h) => blockedHits.includes(h)));

    // A site blocked in Settings while the task runs is held at once.
    const later = "http://127.0.0.1:9";
    await world.control.eval(`chrome.storage.local.set({ sitePolicy: { allowed: [], blocked: [${JSON.stringify(blockedUrl)}, ${JSON.stringify(later)}], readOnly: [] } })`);
    await until("the new rule", async () => (await sessionRules()).some((r) => r.condition.regexFilter.endsWith(":9/") && r.condition.tabIds.includes(tab.tabId)));

    await panel.click("button", "Yes");
    expect((await panel.outcome()).text).toContain("did not load");
    // The task let its tab go: the rules are gone, and the tab is the user's again.
    await until("the rules to be lifted", async () => (await sessionRules()).length === 0);
    await world.control.eval(`chrome.storage.local.remove("sitePolicy")`);
  });

  it("does not read a page of a blocked site the task starts on: the model is told, and leaves it", async () => {
    await world.signIn(
      world.script("start-blocked.json", {
        turns: [
          { text: "<goal>Find the mugs</goal>", calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "navigate", args: { url: `${world.shop.url}/` } }] },
          { calls: [{ name: "done", args: { answer: "Left the blocked page for the shop." } }] },
        ],
      }),
    );
    await world.control.eval(`chrome.storage.local.set({ sitePolicy: { allowed: [], blocked: [${JSON.stringify(otherUrl)}], readOnly: [] } })`);
    // The user's tab showed the site before it was blocked, or before any task held it.
    const { tab, panel } = await shopAndPanel(`${otherUrl}/`);
    await panel.run("Find the mugs");
    expect((await panel.outcome()).text).toContain("Left the blocked page");
    const steps = (await panel.timeline()).filter((e) => e.kind === "step");
    expect(steps.map((s) => [s.tool, s.state])).toEqual([
      ["take_snapshot", "failed"],
      ["navigate", "done"],
    ]);
    expect(steps[0]?.text).toContain(`This page may not be read: ${otherUrl} is blocked`);
    expect(await tab.url()).toBe(`${world.shop.url}/`);
    // Nothing of the blocked page's text reached the backend.
    const got = await api().getSession({ sessionId: await until("the session", async () => (await world.control.eval<{ sessions?: { sessionId: string }[] }>(`chrome.storage.local.get("sessions")`)).sessions?.[0]?.sessionId) });
    const json = JSON.stringify(got, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : v));
    expect(json).toContain("may not be read");
    expect(json).not.toContain("Another site");
    await world.control.eval(`chrome.storage.local.remove("sitePolicy")`);
  });
});
