import { describe, expect, it } from "vitest";
import { jsonRecord, scrubNul } from "./session-commit.js";

describe("a commit's rows as JSON text", () => {
  it("embeds JSON-text fields as they are, and skips undefined fields", () => {
    const raw = new Set(["doc"]);
    const rows = [jsonRecord({ id: "a'b", n: 1, doc: '{"x":"q\\"uote"}', skip: undefined }, raw), jsonRecord({ id: "c", n: 2, doc: null }, raw)];
    expect(rows[0]).toContain('{"x":"q\\"uote"}');
    expect(JSON.parse(`[${rows.join(",")}]`)).toEqual([
      { id: "a'b", n: 1, doc: { x: 'q"uote' } },
      { id: "c", n: 2, doc: null },
    ]);
  });

  it("stores a NUL as U+FFFD, and leaves an escaped backslash before the letters u0000 alone", () => {
    const text = JSON.stringify({ a: "x\u0000y", b: "\\u0000", c: "\\\u0000", d: "plain" });
    expect(JSON.parse(scrubNul(text))).toEqual({ a: "x\ufffdy", b: "\\u0000", c: "\\\ufffd", d: "plain" });
    expect(scrubNul('{"d":"plain"}')).toBe('{"d":"plain"}');
    const row = jsonRecord({ s: "nul\u0000here", doc: JSON.stringify({ t: "\u0000" }) }, new Set(["doc"]));
    expect(JSON.parse(row)).toEqual({ s: "nul\ufffdhere", doc: { t: "\ufffd" } });
  });
});
