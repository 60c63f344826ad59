/**
 * Actions on the app-like fixtures, checked by what the page received: typed characters as the
 * page's keydown, keypress and input handlers saw them, values read back from the page,
 * clicks that land after a hover swap, suggestions that come late, selections.
 */
import { create } from "@bufbuild/protobuf";
import {
  ClickParamsSchema,
  ExtractParamsSchema,
  PressKeysParamsSchema,
  SelectTextParamsSchema,
  SetValueParamsSchema,
  TakeSnapshotParamsSchema,
  TypeTextParamsSchema,
} from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../../contract/index.js";
import { type Harness, startHarness } from "../fixtures/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function refFor(role: string, name: string | RegExp): Promise<string> {
  const r = await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined);
  for (const line of (r.text ?? "").split("\n")) {
    const m = /(e\d+) (\S+)(?: "((?:[^"\\]|\\.)*)")?/.exec(line);
    if (m && m[2] === role && (typeof name === "string" ? (m[3] ?? "") === name : name.test(m[3] ?? ""))) return m[1]!;
  }
  throw new Error(`no ${role} ${name} in\n${r.text}`);
}

const type = (ref: string, text: string, more: { clear?: boolean; waitForSuggestion?: boolean } = {}) =>
  h.tools.typeText(create(TypeTextParamsSchema, { ref, text, ...more }), undefined);
const setValue = (ref: string, value: string) => h.tools.setValue(create(SetValueParamsSchema, { ref, value }), undefined);
const failure = (p: Promise<unknown>): Promise<ToolFailure> =>
  p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as ToolFailure,
  );

/** Every printable ASCII character, and a few that no key of a US keyboard types. */
const ascii = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join("");
const nonAscii = "é ü ß ñ 中文 ☃ 😀";

describe("typing", () => {
  it("types every printable ASCII character as a key the page's keydown handler sees", async () => {
    await h.goto("/apps/terminal");
    const shell = await refFor("textbox", "Command line");
    await type(shell, "rm pizza.rb");
    expect(await h.evaluate("document.getElementById('cmd').textContent")).toBe("rm pizza.rb");
    await type(shell, ascii);
    expect(await h.evaluate("document.getElementById('cmd').textContent")).toBe(`rm pizza.rb${ascii}`);
  });

  it("fires keypress for every printable character and input for every one, non-ASCII too", async () => {
    await h.goto("/apps/terminal");
    const echo = await refFor("textbox", "Key log (keypress)");
    const r = await type(echo, ascii);
    expect(r.value).toBe(ascii);
    expect(await h.evaluate("window.__keypress")).toBe(ascii);
    const plain = await refFor("textbox", "Plain field (input)");
    const p = await type(plain, `${ascii}${nonAscii}`);
    expect(p.value).toBe(`${ascii}${nonAscii}`);
    expect(await h.evaluate("window.__inputs")).toBe(`${ascii}${nonAscii}`);
    expect(p.evidence?.notes ?? []).not.toContainEqual(expect.stringContaining("not the text typed"));
  });

  it("lets a key-filtering field refuse keys, and says the value differs", async () => {
    await h.goto("/apps/terminal");
    const pin = await refFor("textbox", "PIN (digits only)");
    const r = await type(pin, "12-34a.5");
    expect(r.value).toBe("12345");
    expect(r.evidence?.notes?.join(" ")).toMatch(/holds "12345", not the text typed/);
  });

  it("types line breaks into a textarea as Enter, and a formatting field reports what it made", async () => {
    await h.goto("/apps/terminal");
    const area = await refFor("textbox", "Message");
    const r = await type(area, "first line\nsecond line");
    expect(r.value).toBe("first line\nsecond line");
    await h.goto("/apps/wallet");
    const iban = await refFor("textbox", "Recipient IBAN");
    const f = await type(iban, "de89370400440532013000");
    expect(f.value).toBe("DE89 3704 0044 0532 0130 00");
    expect(f.evidence?.notes?.join(" ")).toMatch(/reformatted/);
  });
});

describe("set_value and type_text on date, time, colour and range fields", () => {
  it("sets each type from ISO and human forms and reads it back", async () => {
    await h.goto("/apps/booking");
    const cases: [string, string, string][] = [
      ["Check-in date", "09/13/2011", "2011-09-13"],
      ["Check-in date", "Sep 14, 2011", "2011-09-14"],
      ["Arrival time", "1:51 AM", "01:51"],
      ["Arrival time", "13:05", "13:05"],
      ["Airport pick-up", "2011-09-13 1:51 PM", "2011-09-13T13:51"],
      ["Card expiry", "Sep 2027", "2027-09"],
      ["Preferred week", "2025-W07", "2025-W07"],
      ["Room colour", "#F80", "#ff8800"],
      ["Room colour", "rebeccapurple", "#663399"],
      ["Guests", "5", "5"],
      ["Guests", "100%", "8"],
    ];
    for (const [label, value, want] of cases) {
      const roles: Record<string, string> = { "Check-in date": "date", "Arrival time": "time", "Airport pick-up": "datetime", "Card expiry": "datetime", "Preferred week": "datetime", "Room colour": "color", Guests: "slider" };
      const ref = await refFor(roles[label]!, label);
      const r = await setValue(ref, value);
      expect(r.value, `${label} ← ${value}`).toBe(want);
      const id = { "Check-in date": "date", "Arrival time": "time", "Airport pick-up": "dt", "Card expiry": "month", "Preferred week": "week", "Room colour": "color", Guests: "range" }[label]!;
      expect(await h.evaluate(`window.__values[${JSON.stringify(id)}]`), `the page's ${label}`).toBe(want);
    }
  });

  it("types a date into a date field by value (no segment guessing)", async () => {
    await h.goto("/apps/booking");
    const r = await type(await refFor("date", "Check-in date"), "09/13/2011");
    expect(r.value).toBe("2011-09-13");
    const t = await type(await refFor("time", "Arrival time"), "1:51 AM");
    expect(t.value).toBe("01:51");
  });

  it("fails, naming the forms, on a value that is not one, and on one the field refuses", async () => {
    await h.goto("/apps/booking");
    const bad = await failure(setValue(await refFor("date", "Check-in date"), "next Tuesday"));
    expect(bad.code).toBe(1);
    expect(bad.message).toMatch(/not a date value.*2011-09-13/);
    const over = await failure(setValue(await refFor("slider", "Guests"), "20"));
    expect(over.message).toMatch(/holds "8" after setting "20" \(it takes min 1, max 8/);
    const text = await failure(setValue(await refFor("textbox", "Guest name"), "x"));
    expect(text.message).toMatch(/no value set_value can set/);
  });

  it("sets a slider built without ARIA by clicking its track, and reads its handle back", async () => {
    await h.goto("/apps/settings");
    // Named by the text before it in its row.
    const slider = await refFor("slider", "Volume");
    const r = await setValue(slider, "70%");
    expect(r.value).toBe("70%");
    expect(await h.evaluate("document.getElementById('vol-out').textContent")).toBe("70");
    const snap = await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined);
    expect(snap.text).toContain(`${slider} slider "Volume" = "70%"`);
  });
});

describe("custom switches over a visually hidden checkbox", () => {
  it("reads the label as the checkbox with its name and state, and toggles it by click and by Space", async () => {
    await h.goto("/apps/settings");
    const checked = (id: string) => h.evaluate<boolean>(`document.getElementById(${JSON.stringify(id)}).checked`);
    // Transparent 1 px checkbox, label named by its title.
    const news = await refFor("checkbox", "Product news");
    expect((await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined)).text).toContain(`${news} checkbox "Product news" unchecked`);
    await h.tools.click(create(ClickParamsSchema, { ref: news }), undefined);
    expect(await checked("news")).toBe(true);
    await h.tools.pressKeys(create(PressKeysParamsSchema, { ref: await refFor("checkbox", "Product news"), keys: ["Space"] }), undefined);
    expect(await checked("news")).toBe(false);
    await h.tools.pressKeys(create(PressKeysParamsSchema, { ref: await refFor("checkbox", "Product news"), keys: [" "] }), undefined);
    expect(await checked("news")).toBe(true);
    expect(await refFor("checkbox", "Product news")).toBeTruthy();
    // A clipped pixel inside its label, named by the label's text, checked.
    const tfa = await refFor("checkbox", "Two-factor sign-in");
    expect((await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined)).text).toContain(`${tfa} checkbox "Two-factor sign-in" checked`);
    await h.tools.pressKeys(create(PressKeysParamsSchema, { ref: tfa, keys: ["Space"] }), undefined);
    expect(await checked("tfa")).toBe(false);
    await h.tools.click(create(ClickParamsSchema, { ref: await refFor("checkbox", "Two-factor sign-in") }), undefined);
    expect(await checked("tfa")).toBe(true);
    expect(await h.evaluate("document.getElementById('status').textContent")).toBe("tfa on");
  });
});

describe("clicks, suggestions, selections, values", () => {
  it("clicks icons that swap on hover after the swap, and says when the element itself was replaced", async () => {
    await h.goto("/apps/social");
    // The image inside the like icon is swapped on the next frame: pressed before the swap,
    // the release would land on another element and the icon's handler would not run.
    const like = await refFor("button", "like");
    const r = await h.tools.click(create(ClickParamsSchema, { ref: like }), undefined);
    expect(await h.evaluate("document.querySelector('.count').textContent")).toBe("1 likes");
    expect(r.evidence?.notes ?? []).toEqual([]);
    // The follow icon is itself replaced by its hover version.
    const follow = await refFor("button", "Follow Ada");
    const f = await h.tools.click(create(ClickParamsSchema, { ref: follow }), undefined);
    expect(await h.evaluate("document.getElementById('status').textContent")).toBe("followed Follow Ada");
    expect(f.evidence?.notes?.join(" ")).toMatch(new RegExp(`${follow} was replaced by <img.follow "Follow Ada"> when the pointer reached it`));
  });

  it("waits for a debounced suggestion list near the field and reports its items", async () => {
    await h.goto("/apps/travel");
    const from = await refFor("textbox", "City or airport");
    const r = await type(from, "Lis", { waitForSuggestion: true });
    expect(r.suggestions).toEqual(["Lisbon"]);
    const option = await refFor("option", "Lisbon");
    expect(r.evidence?.refsAdded).toContain(option);
    await h.goto("/apps/mail");
    const q = await type(await refFor("textbox", "Search mail"), "al", { waitForSuggestion: true });
    expect(q.suggestions).toEqual(["Analytical engine notes", "Alan Turing"]);
    await h.goto("/apps/booking");
    const none = await type(await refFor("textbox", "Guest name"), "Ada", { waitForSuggestion: true });
    expect(none.suggestions).toEqual([]);
    expect(none.evidence?.notes?.join(" ")).toMatch(/no suggestions appeared/);
  });

  it("selects text by ref and substring, and in the whole page", async () => {
    await h.goto("/apps/slides");
    const editor = await refFor("textbox", "");
    const r = await h.tools.selectText(create(SelectTextParamsSchema, { ref: editor, text: "Costs stayed  flat" }), undefined);
    expect(r.selected).toBe("Costs stayed flat");
    expect(await h.evaluate("getSelection().toString()")).toBe("Costs stayed flat");
    const page = await h.tools.selectText(create(SelectTextParamsSchema, { text: "quarterly RESULTS" }), undefined);
    expect(page.selected).toBe("Quarterly results");
    const missing = await failure(h.tools.selectText(create(SelectTextParamsSchema, { ref: editor, text: "not there" }), undefined));
    expect(missing.message).toMatch(/is not in the text of/);
  });

  it("returns a field's whole value from extract and from a snapshot scoped to it, and prints multiline", async () => {
    await h.goto("/apps/clinic");
    const notes = await refFor("textbox", "Clinical notes");
    const full = await h.evaluate<string>("document.getElementById('notes').value");
    expect(full.length).toBeGreaterThan(300);
    const x = await h.tools.extract(create(ExtractParamsSchema, { ref: notes }), undefined);
    expect(x.content).toBe(full);
    const scoped = await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, { ref: notes }), undefined);
    expect(scoped.text).toContain(full.slice(-60));
    const page = await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined);
    expect(page.text).toMatch(new RegExp(`${notes} textbox "Clinical notes" = ".*…" multiline`));
  });
});
