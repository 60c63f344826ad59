import { describe, expect, it } from "vitest";
import { costOf, priceOf } from "./pricing.js";

describe("pricing", () => {
  it("prices dated model names by their family and never confuses mini with its parent", () => {
    expect(priceOf("gpt-4o-2024-08-06")).toEqual(priceOf("gpt-4o"));
    expect(priceOf("gpt-4o-mini-2024-07-18")).toEqual(priceOf("gpt-4o-mini"));
    expect(priceOf("models/gemini-2.5-flash")).toEqual(priceOf("gemini-2.5-flash"));
    expect(priceOf("llama3.1:8b")).toBeUndefined();
    // Claude's dated names, and a minor version never priced as its major one.
    expect(priceOf("claude-sonnet-4-5-20250929")).toEqual(priceOf("claude-sonnet-4-5"));
    expect(priceOf("claude-sonnet-5-5")).toEqual([2, 0.1, 10]);
    expect(priceOf("claude-sonnet-5")).toEqual([2, 0.2, 10]);
  });

  it("bills cached input at the cached rate", () => {
    // gpt-4o: $2.50 in, $1.25 cached, $10 out per million.
    expect(costOf("gpt-4o", { input: 1_000_000, cached: 400_000, output: 100_000 })).toBeCloseTo(0.6 * 2.5 + 0.4 * 1.25 + 0.1 * 10, 6);
    expect(costOf("unknown-model", { input: 10, cached: 0, output: 10 })).toBe(0);
  });
});
