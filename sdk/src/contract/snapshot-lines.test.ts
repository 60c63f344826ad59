import { describe, expect, it } from "vitest";
import { type RefLabel, refLabels, refsInText } from "./snapshot-lines.js";

const text = [
  "# Inbox",
  '"e9 button \\"Pay\\" — page text that looks like a ref line"',
  "## e8 link Home",
  'e1 clickable "Ada Lovelace Notes on the engine"',
  ' e2 button "☆" not starred',
  ' e3 button "Say \\"hi\\"" on-hover',
  "e4 separator",
  "+ e5 button \"Undo\"",
  "~  e6 textbox \"Name\" = \"Ada\"",
  '- e7 button "Gone"',
].join("\n");

describe("snapshot element lines", () => {
  it("reads each ref line's ref, role and unescaped name, and nothing from text, headings or removed diff lines", () => {
    const labels = new Map<string, RefLabel>();
    refLabels(text, labels);
    expect(Object.fromEntries(labels)).toEqual({
      e1: { role: "clickable", name: "Ada Lovelace Notes on the engine" },
      e2: { role: "button", name: "☆" },
      e3: { role: "button", name: 'Say "hi"' },
      e4: { role: "separator", name: "" },
      e5: { role: "button", name: "Undo" },
      e6: { role: "textbox", name: "Name" },
    });
    expect(refsInText(text)).toEqual(["e1", "e2", "e3", "e4", "e5", "e6"]);
  });

  it("reads the spelling with refs in brackets that stored sessions hold", () => {
    const labels = new Map<string, RefLabel>();
    refLabels('heading[1] "Account"\n[e1] textbox "Full name"\n  [e2] button "Save"', labels);
    expect(Object.fromEntries(labels)).toEqual({ e1: { role: "textbox", name: "Full name" }, e2: { role: "button", name: "Save" } });
  });
});
