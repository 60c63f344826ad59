/**
 * The side panel's own approval cards remember, end to end (the built extension in headless
 * Chromium, a real `baton serve` replaying scripts, the fixture shop): "every change" cards
 * answered always or never on the site, kept in the backend with the loop's own rules (listed and
 * revoked in Settings), and upload cards whose "Always allow files from" adds to the upload folders
 * (listed in Settings, where a folder can be typed in too).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Risk } from "@baton/gen/baton/v1/options_pb";
import { createBatonClient } from "@baton/sdk/client";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { type Panel, startWorld, until, type WebTab, type World } from "./harness.js";

/** Screenshots the docs show. */
const docsImg = fileURLToPath(new URL("../../docs/img/", import.meta.url));

let world: World;
/** Another site (another port of this machine), for a rule that must not reach the shop. */
let other: Server;
let otherUrl: string;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  other = createServer((_req, res) => res.end("<!doctype html><title>Other site</title>"));
  await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  world = await startWorld();
}, 180_000);

afterAll(async () => {
  for (const t of open) await t.close();
  await world?.close();
  await new Promise((r) => other?.close(r));
});

async function shopAndPanel(path = ""): Promise<{ tab: WebTab; panel: Panel }> {
  world.shop.reset();
  const tab = await world.openTab(`${world.shop.url}${path}`);
  const panel = await world.openPanel(tab);
  open.push(panel, tab);
  onTestFailed(async () => {
    await panel.screenshot("failed-panel-cards").catch(() => undefined);
    console.error("panel timeline at failure:", JSON.stringify(await panel.timeline().catch(() => []), null, 1));
  });
  return { tab, panel };
}

const api = () => createBatonClient({ baseUrl: world.backend.url, token: world.token });
const cards = async (panel: Panel) => (await panel.timeline()).filter((e) => e.kind === "approval");
const add = (name: string) => ({ name: "click", args: { ref: { role: "button", name: `Add ${name} to cart` } } });

describe("the panel's own approval cards", () => {
  it("every change: 'always on this site' lets the next change run unasked, is listed and revoked in Settings; 'never' refuses unasked; another site's rule does not apply", async () => {
    const shop = new URL(world.shop.url);
    // An "always" for changes on another site: the shop's first change is still asked.
    const elsewhere = (await api().rememberApprovalRule({ site: otherUrl, risk: Risk.MUTATING, allow: true, tool: "click" })).rule;
    await world.signIn(
      world.script("every-change-remember.json", {
        turns: [
          { text: "<goal>Add two mugs</goal>", calls: [{ name: "take_snapshot" }] },
          { calls: [add("Blue mug"), { name: "take_snapshot" }] },
          { calls: [add("Red mug"), { name: "take_snapshot" }] },
          { calls: [{ name: "done", args: { answer: "Added two mugs." } }] },
          // The follow-up, after the rule was revoked.
          { calls: [{ name: "take_snapshot" }] },
          { calls: [add("Canvas tote"), { name: "take_snapshot" }] },
          { calls: [add("Blue mug"), { name: "take_snapshot" }] },
          { calls: [{ name: "done", args: { answer: "No more changes here." } }] },
        ],
      }),
      { approval: "every-change" },
    );
    const { panel } = await shopAndPanel();
    await panel.run("Add two mugs");
    const card = await panel.waitFor("the every-change card", (e) => e.kind === "approval" && e.state === "pending");
    expect(card.text).toContain("Allow this action?");
    expect(card.text).toContain("Clicking 'Add Blue mug to cart'");
    expect(card.text).toContain(`Or answer for every change to a page (typing, clicking) on ${shop.host}`);
    await panel.screenshot("extension-every-change-remember", docsImg);
    await panel.click("button", "Always on this site");
    expect((await panel.outcome()).state).toBe("completed");
    // The second change on the shop ran without a card.
    expect(world.shop.state().cart).toEqual(["mug-blue", "mug-red"]);
    expect((await cards(panel)).map((c) => c.state)).toEqual(["approved"]);
    expect((await cards(panel))[0]?.text).toContain(`Allowed, and always on ${shop.host}`);
    const kept = (await api().listApprovalRules({})).rules.filter((r) => r.id !== elsewhere?.id);
    expect(kept.map((r) => [r.site, r.risk, r.allow, r.tool])).toEqual([[shop.origin, Risk.MUTATING, true, "click"]]);

    // Settings list it with the loop's rules; Revoke forgets it in the backend.
    await panel.click("button", "Settings");
    const revoke = `Revoke always on ${shop.origin}`;
    await until("the rule in Settings", async () => (await panel.snapshot()).includes(`button "${revoke}"`));
    const listed = await panel.eval<string>(`(() => { const s = document.querySelector(".trust"); s.scrollIntoView(); return s.innerText; })()`);
    expect(listed).toContain("Change to a page (typing, clicking)");
    await panel.screenshot("extension-trust", docsImg);
    await panel.click("button", revoke);
    await until("the shop's rule to go", async () => !(await panel.snapshot()).includes(`button "${revoke}"`));
    expect((await api().listApprovalRules({})).rules.map((r) => r.site)).toEqual([otherUrl]);

    // Asked again; "never" refuses this change and the next one on the shop without a card.
    await panel.click("button", "Back to the task");
    await panel.run("And a tote");
    const again = await panel.waitFor("a new card", (e) => e.kind === "approval" && e.state === "pending");
    expect(again.text).toContain("Clicking 'Add Canvas tote to cart'");
    await panel.click("button", "Never on this site");
    await until("the follow-up to end", async () => (await panel.timeline()).some((e) => e.kind === "outcome" && e.text.includes("No more changes")));
    expect(world.shop.state().cart).toEqual(["mug-blue", "mug-red"]);
    expect((await cards(panel)).map((c) => c.state)).toEqual(["approved", "denied"]);
    const clicks = (await panel.timeline()).filter((e) => e.tool === "click");
    expect(clicks.map((s) => s.state)).toEqual(["done", "done", "failed", "failed"]);
    const refused = clicks.slice(2);
    for (const s of refused) {
      expect(s.text).toContain(`The user decided never to allow such actions on ${shop.origin}`);
      expect(s.text).toContain("Settings → Remembered approvals");
    }
    const never = (await api().listApprovalRules({})).rules.find((r) => r.site === shop.origin);
    expect(never).toMatchObject({ risk: Risk.MUTATING, allow: false });
    for (const r of (await api().listApprovalRules({})).rules) await api().revokeApprovalRule({ id: r.id });
  });

  it("uploads: 'Always allow files from' a folder adds it to the upload folders, listed in Settings, and the next file from it goes up unasked; a folder typed in Settings is checked, added, and holds", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "baton-ext-cards-")));
    const docs = join(root, "Docs");
    mkdirSync(docs);
    writeFileSync(join(docs, "receipt.txt"), "receipt #1042");
    writeFileSync(join(docs, "invoice.txt"), "invoice #7");
    const files = `document.getElementById("receipt").files`;
    const stored = () => world.control.eval<string[]>(`chrome.storage.local.get("uploadFolder").then((g) => g.uploadFolder)`);
    try {
      await world.control.eval(`chrome.storage.local.remove("uploadFolder")`);
      await world.signIn(
        world.script("upload-folder.json", {
          turns: [
            { text: "<goal>Attach the receipt and the invoice</goal>", calls: [{ name: "take_snapshot" }] },
            { calls: [{ name: "upload_file", args: { ref: { role: "button", name: "Receipt" }, paths: [join(docs, "receipt.txt")] } }, { name: "take_snapshot" }] },
            { calls: [{ name: "upload_file", args: { ref: { role: "button", name: "Receipt" }, paths: [join(docs, "invoice.txt")] } }, { name: "take_snapshot" }] },
            { calls: [{ name: "done", args: { answer: "Attached both." } }] },
            // The follow-up, once the folder was added again in Settings.
            { calls: [{ name: "take_snapshot" }] },
            { calls: [{ name: "upload_file", args: { ref: { role: "button", name: "Receipt" }, paths: [join(docs, "receipt.txt")] } }, { name: "take_snapshot" }] },
            { calls: [{ name: "done", args: { answer: "Attached the receipt again." } }] },
          ],
        }),
      );
      const { tab, panel } = await shopAndPanel("/returns");
      await panel.run("Attach my receipt and invoice");
      const card = await panel.waitFor("the upload card", (e) => e.kind === "approval" && e.state === "pending");
      expect(card.text).toContain(join(docs, "receipt.txt"));
      expect(card.text).toContain("No upload folder is set");
      await panel.screenshot("extension-upload-approval", docsImg);
      await panel.click("button", `Always allow files from ${docs}`);
      expect((await panel.outcome()).state).toBe("completed");
      // One card: the second file came from the folder the first answer added.
      expect((await cards(panel)).map((c) => [c.state, c.text.includes(`Allowed, and always from ${docs}`)])).toEqual([["approved", true]]);
      expect((await panel.timeline()).filter((e) => e.tool === "upload_file").map((e) => e.state)).toEqual(["done", "done"]);
      expect(await tab.eval<string>(`${files}[0]?.name ?? ""`)).toBe("invoice.txt");
      expect(await stored()).toEqual([docs]);

      // Settings list the folder, and Remove takes it out of the rule.
      await panel.click("button", "Settings");
      await until("the folder in Settings", async () => (await panel.snapshot()).includes(`button "Remove ${docs}"`));
      await panel.click("button", `Remove ${docs}`);
      await until("the folder to go", async () => (await stored()).length === 0);

      // A folder typed in Settings: a relative path and a root are refused, named under the field,
      // and nothing is stored; a full path is normalised by the rule, added, and holds at once.
      const section = `(() => { const s = document.querySelector(".upload-folders"); s.scrollIntoView(); return s.innerText; })()`;
      const fieldError = `(() => { const d = document.getElementById("upload-folder").getAttribute("aria-describedby"); const e = d && document.getElementById(d); return e?.getAttribute("role") === "alert" ? e.textContent : ""; })()`;
      await panel.type("textbox", "Add a folder", "Docs", true);
      await until("the relative path refused", async () => (await panel.eval<string>(fieldError)).includes('"Docs" is not a full path'));
      expect(await stored()).toEqual([]);
      expect(await panel.eval<string>(section)).toContain("None: every upload is asked about.");
      await panel.screenshot("extension-upload-folders-error", docsImg);
      await panel.type("textbox", "Add a folder", "/");
      await panel.click("button", "Add folder");
      await until("the root refused", async () => (await panel.eval<string>(fieldError)).includes("/ is a root folder: every file under it would upload without asking"));
      expect(await stored()).toEqual([]);
      await panel.type("textbox", "Add a folder", `${root}/./Docs/`, true);
      await until("the typed folder in Settings", async () => (await panel.snapshot()).includes(`button "Remove ${docs}"`));
      expect(await stored()).toEqual([docs]);
      expect(await panel.eval<string>(fieldError)).toBe("");
      expect(await panel.eval<string>(section)).toContain(`Added ${docs}.`);
      await panel.screenshot("extension-upload-folders", docsImg);
      await panel.type("textbox", "Add a folder", docs, true);
      await until("the folder refused twice", async () => (await panel.eval<string>(fieldError)).includes(`${docs} is already an upload folder.`));
      expect(await stored()).toEqual([docs]);

      // The next file from it goes up with no card.
      await panel.click("button", "Back to the task");
      await panel.run("Attach the receipt once more");
      await until("the follow-up to end", async () => (await panel.timeline()).some((e) => e.kind === "outcome" && e.text.includes("Attached the receipt again.")));
      expect((await cards(panel)).length).toBe(1);
      expect((await panel.timeline()).filter((e) => e.tool === "upload_file").map((e) => e.state)).toEqual(["done", "done", "done"]);
      expect(await tab.eval<string>(`${files}[0]?.name ?? ""`)).toBe("receipt.txt");
    } finally {
      await world.control.eval(`chrome.storage.local.remove("uploadFolder")`);
      rmSync(root, { recursive: true, force: true });
    }
  });
});
