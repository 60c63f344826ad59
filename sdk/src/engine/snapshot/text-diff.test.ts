import { describe, expect, it } from "vitest";
import type { SnapshotLine } from "./render-text.js";
import { maxTextChanges, textChanges } from "./text-diff.js";

const text = (plain: string, depth = 0): SnapshotLine => ({ depth, text: JSON.stringify(plain), plain });
const ref = (r: string, line: string, depth = 0): SnapshotLine => ({ depth, ref: r, text: `${r} ${line}`, plain: "" });

describe("textChanges", () => {
  it("reports text that appeared, changed in its place, and went away", () => {
    const before = [ref("e1", 'button "Add to cart"'), text("Added to cart: 1"), text("Free shipping"), ref("e2", 'button "Checkout"'), text("Old banner")];
    const after = [ref("e1", 'button "Add to cart"'), text("Added to cart: 2"), text("Free shipping"), ref("e2", 'button "Checkout"'), text("Card declined")];
    const c = textChanges(before, after);
    // One line gone and one come after the same ref, at the same place: a change.
    expect(c.changed).toEqual(['"Added to cart: 1" → "Added to cart: 2"', '"Old banner" → "Card declined"']);
    expect(c.added).toEqual([]);
    expect(c.removed).toEqual([]);
  });

  it("treats a line that only moved as no change, and counts repeated lines", () => {
    const before = [text("A"), ref("e1", 'link "x"'), text("B"), text("B")];
    const after = [ref("e1", 'link "x"'), text("B"), text("A"), text("Toast: saved")];
    const c = textChanges(before, after);
    expect(c.added).toEqual(['"Toast: saved"']);
    expect(c.removed).toEqual(['"B"']);
    expect(c.changed).toEqual([]);
  });

  it("reports refs whose name, value or state changed, not focus or hover", () => {
    const before = [ref("e1", 'switch "Dark mode" off'), ref("e2", 'textbox "Name" = "Ad"'), ref("e3", 'button "Edit" on-hover')];
    const after = [ref("e1", 'switch "Dark mode" on focused'), ref("e2", 'textbox "Name" = "Ad" focused'), ref("e3", 'button "Edit"')];
    expect(textChanges(before, after).changed).toEqual(['e1 switch "Dark mode" off → switch "Dark mode" on']);
  });

  it("is bounded", () => {
    const after = Array.from({ length: 30 }, (_, i) => text(`line ${i}`));
    expect(textChanges([], after).added).toHaveLength(maxTextChanges);
  });
});
