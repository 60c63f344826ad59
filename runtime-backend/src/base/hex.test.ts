import { describe, expect, it } from "vitest";
import { hexOf } from "./hex.js";

describe("hexOf", () => {
  it("writes each byte as two lowercase digits, over the whole array or a slice", () => {
    const bytes = new Uint8Array([0, 9, 10, 171, 255]);
    expect(hexOf(bytes)).toBe("00090aabff");
    expect(hexOf(bytes, 1, 3)).toBe("090a");
    expect(hexOf(new Uint8Array())).toBe("");
    const all = Uint8Array.from({ length: 256 }, (_, b) => b);
    const expected = Array.from(all, (b) => b.toString(16).padStart(2, "0")).join("");
    expect(hexOf(all)).toBe(expected);
    // Past its reused buffer's size, and a short one after it: nothing of the long one is left over.
    const long = Uint8Array.from({ length: 40_000 }, (_, i) => i % 256);
    expect(hexOf(long)).toBe(expected.repeat(40_000 / 256 + 1).slice(0, 80_000));
    expect(hexOf(all, 0, 2)).toBe("0001");
  });
});
