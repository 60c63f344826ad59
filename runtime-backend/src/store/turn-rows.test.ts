import { describe, expect, it } from "vitest";
import { type JsonPieces, joinRows, pushRecord, scrubNul } from "./turn-rows.js";

describe("turn rows as JSON text", () => {
  it("embeds JSON-text fields as pieces of their own, as they are, and skips undefined fields", () => {
    const raw = new Set(["doc"] as const);
    const a: JsonPieces = [];
    pushRecord(a, { id: "a'b", n: 1, doc: '{"x":"q\\"uote"}', skip: undefined }, raw);
    pushRecord(a, { id: "c", n: 2, doc: null, skip: undefined }, raw);
    expect(a).toContain('{"x":"q\\"uote"}');
    const b: JsonPieces = [];
    pushRecord(b, { id: "d", n: 3, doc: "[1]" }, raw);
    expect(JSON.parse(joinRows([a, [], b]))).toEqual([
      { id: "a'b", n: 1, doc: { x: 'q"uote' } },
      { id: "c", n: 2, doc: null },
      { id: "d", n: 3, doc: [1] },
    ]);
    expect(joinRows([])).toBe("[]");
    expect(joinRows([[], []])).toBe("[]");
  });

  it("stores a NUL as U+FFFD, and leaves an escaped backslash before the letters u0000 alone", () => {
    const text = JSON.stringify({ a: "x\u0000y", b: "\\u0000", c: "\\\u0000", d: "plain" });
    expect(JSON.parse(scrubNul(text))).toEqual({ a: "x\ufffdy", b: "\\u0000", c: "\\\ufffd", d: "plain" });
    expect(scrubNul('{"d":"plain"}')).toBe('{"d":"plain"}');
    const pieces: JsonPieces = [];
    pushRecord(pieces, { s: "nul\u0000here", doc: JSON.stringify({ t: "\u0000" }) }, new Set(["doc"] as const));
    expect(JSON.parse(joinRows([pieces]))).toEqual([{ s: "nul\ufffdhere", doc: { t: "\ufffd" } }]);
  });
});
