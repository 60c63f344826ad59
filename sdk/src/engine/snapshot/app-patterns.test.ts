/**
 * The patterns real applications are built with, read and acted on the way a model does (by
 * role, name and the row a ref sits in): controls revealed on hover, names from titles, glyphs,
 * ligatures and the label before a control, rows that hold their actions, links inside
 * clickable rows, and evidence that says what the page said back.
 */
import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TargetSpec } from "../../script/index.js";
import { type Harness, startHarness } from "../fixtures/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const snapshot = () => h.snapshot();
const refOf = (target: TargetSpec) => h.refOf(target);

const click = (ref: string) => h.tools.click(create(ClickParamsSchema, { ref }), undefined);
const status = () => h.evaluate<string>("document.getElementById('status').textContent");

describe("controls revealed on hover", () => {
  it("lists them marked on-hover, keeps display:none hidden, and hovers the row before acting", async () => {
    await h.goto("/apps/account");
    const text = await snapshot();
    expect(text).toMatch(/^ *e\d+ button "Edit Full name" on-hover/m);
    // visibility: hidden until the list item is hovered.
    expect(text.match(/^ *e\d+ link "Disconnect" on-hover$/gm)).toHaveLength(4);
    // The custom select's closed list is display: none.
    expect(text).not.toContain("Deutsch");
    await click(await refOf({ role: "link", name: "Disconnect", within: "Slack" }));
    expect(await status()).toBe("disconnected Slack");
    await h.goto("/apps/webmail");
    await click(await refOf({ role: "button", name: "Archive", within: "Kernel patch v2" }));
    expect(await status()).toBe("archived Kernel patch v2");
  });
});

describe("names", () => {
  it("come from labels, titles, glyphs, ligatures and the text before a control; a class word is a guess", async () => {
    await h.goto("/apps/account");
    const account = await snapshot();
    for (const line of [
      'button "edit" on-hover', // an icon font's ligature
      'button "Edit phone" on-hover', // a title over a glyph
      'button "✎" on-hover', // a glyph alone
      'switch "Keyboard shortcuts" on', // the text before a <div> switch, and its state
      'switch "Email digests" off',
      'combobox "Language" = "English"', // a custom select: its label and current value
      'textbox "From" = "ada@example.com"', // a field captioned by the text above it
    ]) {
      expect(account).toMatch(new RegExp(`^ *e\\d+ ${line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"));
    }
    await click(await refOf({ role: "switch", name: "Keyboard shortcuts" }));
    expect(await snapshot()).toMatch(/switch "Keyboard shortcuts" off/);
    await h.goto("/apps/webmail");
    const mail = await snapshot();
    expect(mail).toMatch(/^ *e\d+ button "★" starred/m);
    expect(mail).toMatch(/^ *e\d+ button "☆" not starred/m);
    expect(mail).toMatch(/^ *e\d+ button "label important" important/m);
    expect(mail).toMatch(/^ *e\d+ button "label important" not important/m);
    expect(mail).toMatch(/^ *e\d+ button "×"/m);
    await h.goto("/apps/cards");
    const cards = await snapshot();
    expect(cards).toMatch(/^ *e\d+ button "♡"/m);
    expect(cards.match(/^ *e\d+ button "tile" guess$/gm)).toHaveLength(8);
  });
});

describe("rows", () => {
  it("hold their text and actions, so a link is picked by its row", async () => {
    await h.goto("/apps/filters");
    const text = await snapshot();
    expect(text).toMatch(/\nrow "Matches: subject:\(invoice\)"\n "Do this: Apply label: Receipts"\n e\d+ link "edit"\n e\d+ link "delete"/);
    await click(await refOf({ role: "link", name: "delete", within: "subject:(invoice)" }));
    expect(await status()).toBe("delete Matches: subject:(invoice)");
    await click(await refOf({ role: "clickable", name: "unblock", within: "offers@cheap-pills" }));
    expect(await status()).toBe("unblocked offers@cheap-pills.example");
    await click(await refOf({ role: "clickable", name: "remove", within: "Travel" }));
    expect(await status()).toBe("remove Travel");
  });

  it("give a link inside a clickable row its own ref, and the row's ref acts where the row listens", async () => {
    await h.goto("/apps/billing");
    // The row's centre is on the client link: its ref clicks beside it, on the row itself.
    await click(await refOf({ role: "row", name: "INV-0057" }));
    expect(await status()).toBe("selected INV-0057");
    expect(await h.evaluate<string>("location.hash")).toBe("");
    await click(await refOf({ role: "link", name: "INV-0057" }));
    expect(await status()).toBe("opened INV-0057");
    expect(await h.evaluate<string>("location.hash")).toBe("#/invoices/0057");
  });

  it("click a link wrapped over two lines on one of its lines, not between them", async () => {
    await h.goto("/apps/billing");
    // A narrow column breaks "INV-0056" after its hyphen, and the line height leaves a gap: the
    // middle of its two boxes is the cell.
    await h.evaluate("(() => { const s = document.createElement('style'); s.textContent = 'tbody td:nth-child(2){width:34px;max-width:34px;line-height:2.4}'; document.head.append(s); return 1; })()");
    expect(await h.evaluate<number>("[...document.querySelectorAll('a')].find((a) => a.textContent === 'INV-0056').getClientRects().length")).toBe(2);
    const r = await click(await refOf({ role: "link", name: "INV-0056" }));
    expect(await status()).toBe("opened INV-0056");
    expect(r.evidence?.notes ?? []).toEqual([]);
  });
});

describe("evidence", () => {
  it("says what text appeared, changed and went away", async () => {
    await h.goto("/apps/cards");
    const first = await click(await refOf({ role: "button", name: "Add to cart", within: "Oak board" }));
    expect(first.evidence?.textAdded).toContain('"Added to cart: 1"');
    const second = await click(await refOf({ role: "button", name: "Add to cart", within: "Wool throw" }));
    expect(second.evidence?.textChanged).toContain('"Added to cart: 1" → "Added to cart: 2"');
    const wish = await click(await refOf({ role: "button", name: "♡", within: "Oak board" }));
    expect(wish.evidence?.textChanged?.join("\n")).toMatch(/button "♡" → button "♥"/);
    await h.goto("/apps/webmail");
    const removed = await click(await refOf({ role: "button", name: "×", within: "label:work" }));
    expect(removed.evidence?.textRemoved).toContain('"label:work"');
  });
});
