import { describe, expect, it } from "vitest";
import { subsetMismatch } from "./json-subset.js";

describe("state checks (JSON subset)", () => {
  it("accepts extra keys and requires lists item by item", () => {
    const actual = { cart: { lines: [{ product: "mug", qty: 3, price: 14 }], coupon: "" }, orders: [] };
    expect(subsetMismatch(actual, { cart: { lines: [{ product: "mug", qty: 3 }] } })).toBeUndefined();
    expect(subsetMismatch(actual, { orders: [] })).toBeUndefined();
    expect(subsetMismatch(actual, {})).toBeUndefined();
  });

  it("says where and how the state differs", () => {
    const actual = { cart: { lines: [{ product: "mug", qty: 1 }] }, n: null };
    expect(subsetMismatch(actual, { cart: { lines: [{ qty: 3 }] } })).toBe("cart.lines[0].qty: expected 3, got 1");
    expect(subsetMismatch(actual, { cart: { lines: [] } })).toBe('cart.lines: expected 0 item(s), got 1: [{"product":"mug","qty":1}]');
    expect(subsetMismatch(actual, { cart: { coupon: "X" } })).toBe('cart.coupon: expected "X", got undefined');
    expect(subsetMismatch(actual, { n: {} })).toBe("n: expected an object, got null");
    expect(subsetMismatch(actual, { cart: [] })).toBe('cart: expected a list, got {"lines":[{"product":"mug","qty":1}]}');
    expect(subsetMismatch(1, 2)).toBe("(root): expected 2, got 1");
  });
});
