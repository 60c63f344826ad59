import { describe, expect, it } from "vitest";
import { hexOf } from "./hex.js";

describe("hexOf", () => {
  it("writes each byte as two lowercase digits, over the whole array or a slice", () => {
    const bytes = new Uint8Array([0, 9, 10, 171, 255]);
    expect(hexOf(bytes)).toBe("00090aabff");
    expect(hexOf(bytes, 1, 3)).toBe("090a");
    expect(hexOf(new Uint8Array())).toBe("");
  });
});
