import { describe, expect, it } from "vitest";
import { checkExpectations, parseScriptFile, ScriptFileError } from "./script-file.js";
import { snapshotRefs } from "./snapshot-refs.js";
import { findTarget, latestSnapshotText, resolveTargets } from "./targets.js";
import { targetOf, urlPattern } from "./recorder.js";

const snapshot = [
  "# Account",
  '"Fill in your details."',
  'e1 textbox "Full name"',
  'e2 checkbox "Agree to terms" unchecked',
  'e3 button "Save"',
  "iframe [cross-origin localhost:8081/remote]",
  ' e4 button "Remote pay"',
  ' e5 button "Save"',
  'e6 link "Say \\"hi\\""',
  "e7 separator",
].join("\n");

/** The same page as snapshots stored before the bare ref spelled it: refs in brackets, two spaces a level. */
const bracketed = snapshot.replace(/^( *)(e\d+) /gm, "$1$1[$2] ");

describe("snapshotRefs", () => {
  it("reads refs, roles and names, unescaping quotes, skipping lines without a ref", () => {
    expect(snapshotRefs(snapshot).map(({ context: _, ...r }) => r)).toEqual([
      { ref: "e1", role: "textbox", name: "Full name" },
      { ref: "e2", role: "checkbox", name: "Agree to terms" },
      { ref: "e3", role: "button", name: "Save" },
      { ref: "e4", role: "button", name: "Remote pay" },
      { ref: "e5", role: "button", name: "Save" },
      { ref: "e6", role: "link", name: 'Say "hi"' },
      { ref: "e7", role: "separator", name: "" },
    ]);
  });

  it("reads snapshots stored with refs in brackets alike", () => {
    expect(bracketed).toContain('  [e4] button "Remote pay"');
    const read = (text: string) => snapshotRefs(text).map(({ context, ...r }) => ({ ...r, block: context?.split("\n")[0]?.replace(/[[\]]/g, "") }));
    expect(read(bracketed)).toEqual(read(snapshot));
    expect(read(bracketed).find((r) => r.ref === "e4")?.block).toBe("iframe cross-origin localhost:8081/remote");
  });

  it("never reads a ref from quoted page text or a heading", () => {
    expect(snapshotRefs('"e9 button \\"Pay\\""\n## e8 link "Home"\ne1 button "Real"').map((r) => r.ref)).toEqual(["e1"]);
  });
});

/** Rows of a settings list: the same link text in every row, told apart by the row. */
const rows = [
  "## Filters",
  'row "Matches: from:(deals@shop.example)"',
  ' e1 link "edit"',
  ' e2 link "delete"',
  'row "Matches: subject:(invoice)"',
  ' e3 link "edit"',
  ' e4 link "delete"',
  'e5 row "Kernel patch v2 Linus Torvalds"',
  ' e6 button "☆" not starred',
  'e7 button "delete"',
].join("\n");

describe("blocks", () => {
  it("gives each indented ref the text of its block, and a top-level ref none", () => {
    const refs = snapshotRefs(rows);
    expect(refs.find((r) => r.ref === "e4")?.context).toBe('row "Matches: subject:(invoice)"\ne3 link "edit"\ne4 link "delete"');
    expect(refs.find((r) => r.ref === "e6")?.context).toBe('e5 row "Kernel patch v2 Linus Torvalds"\ne6 button "☆" not starred');
    expect(refs.find((r) => r.ref === "e7")?.context).toBe("");
  });

  it("finds a ref by the text of its block with `within`", () => {
    const refs = snapshotRefs(rows);
    expect(findTarget(refs, { role: "link", name: "delete", within: "SUBJECT:(invoice)" })).toBe("e4");
    expect(findTarget(refs, { role: "link", name: "delete", within: "deals@shop" })).toBe("e2");
    expect(findTarget(refs, { role: "button", name: "☆", within: "Kernel patch" })).toBe("e6");
    expect(findTarget(refs, { role: "link", name: "delete", within: "nowhere" })).toBeUndefined();
  });
});

describe("role + name targets", () => {
  const refs = snapshotRefs(snapshot);
  it("matches exactly, then ignoring case and spacing, then by substring; nth picks among equals", () => {
    expect(findTarget(refs, { role: "button", name: "Save" })).toBe("e3");
    expect(findTarget(refs, { role: "button", name: "Save", nth: 1 })).toBe("e5");
    expect(findTarget(refs, { role: "Button", name: "remote  PAY" })).toBe("e4");
    expect(findTarget(refs, { role: "checkbox", name: "terms" })).toBe("e2");
    expect(findTarget(refs, { role: "link", name: "Save" })).toBeUndefined();
  });

  it("replaces target arguments and leaves the rest, marking what it cannot resolve", () => {
    const r = resolveTargets(
      { from_ref: { role: "button", name: "Save" }, to_ref: { role: "button", name: "Checkout" }, text: "x" },
      snapshot,
    );
    expect(r.args).toEqual({ from_ref: "e3", to_ref: 'unresolved: button "Checkout"', text: "x" });
    expect(r.unresolved).toEqual(['button "Checkout"']);
    expect(resolveTargets({ ref: { role: "button", name: "Save" } }, undefined).unresolved).toHaveLength(1);
  });

  it("finds the latest snapshot among tool outputs, including one attached to an error", () => {
    const outputs = [
      JSON.stringify({ text: 'e1 button "Old"' }),
      JSON.stringify({ evidence: { url: "http://x" } }),
      JSON.stringify({ error: { code: "stale_ref", snapshot: { text: 'e9 button "Fresh"' } } }),
      "not json",
    ];
    expect(latestSnapshotText(outputs)).toBe('e9 button "Fresh"');
    expect(latestSnapshotText(outputs.slice(0, 2))).toBe('e1 button "Old"');
    expect(latestSnapshotText([JSON.stringify({ content: "# An extract, not a snapshot" })])).toBeUndefined();
    expect(latestSnapshotText([outputs[0]!, JSON.stringify({ text: "" })])).toBe("");
  });
});

describe("parseScriptFile", () => {
  it("accepts a script with targets and expectations", () => {
    const s = parseScriptFile(
      JSON.stringify({
        turns: [
          { text: "<goal>Log in</goal>", calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Log in" } } }] },
        ],
        expect: { text: ["Welcome"], url: "/home$", js: ["document.cookie.includes('sid')"], answer: "in" },
      }),
    );
    expect(s.turns).toHaveLength(2);
    expect(s.expect?.url).toBe("/home$");
  });

  const bad: [string, string, string][] = [
    ["not JSON", "{turns:", "s.json: $: not valid JSON"],
    ["an array", "[]", 's.json: $: must be an object with "turns"'],
    ["no turns", "{}", "s.json: turns: must be a non-empty list"],
    ["unknown top key", '{"turns":[{"text":"a"}],"steps":1}', "s.json: steps: unknown key"],
    ["unknown turn key", '{"turns":[{"txt":"a"}]}', "s.json: turns[0].txt: unknown key"],
    ["empty turn", '{"turns":[{}]}', 's.json: turns[0]: needs "text", "calls" or "error"'],
    ["call without name", '{"turns":[{"calls":[{"args":{}}]}]}', 's.json: turns[0].calls[0]: must be an object with a "name"'],
    ["args as a list", '{"turns":[{"calls":[{"name":"click","args":[1]}]}]}', "s.json: turns[0].calls[0].args: must be an object"],
    ["bad loopFrom", '{"turns":[{"text":"a"}],"loopFrom":3}', "s.json: loopFrom: must be a turn index from 0 to 0"],
    ["bad url regex", '{"turns":[{"text":"a"}],"expect":{"url":"("}}', "s.json: expect.url: is not a valid regular expression"],
    ["text not a list", '{"turns":[{"text":"a"}],"expect":{"text":"Welcome"}}', "s.json: expect.text: must be a list of strings"],
    ["unknown expect key", '{"turns":[{"text":"a"}],"expect":{"title":"x"}}', "s.json: expect.title: unknown key"],
  ];
  it.each(bad)("rejects %s with where and why", (_what, json, message) => {
    expect(() => parseScriptFile(json, "s.json")).toThrow(ScriptFileError);
    expect(() => parseScriptFile(json, "s.json")).toThrow(message);
  });
});

describe("checkExpectations", () => {
  const page = {
    url: async () => "http://127.0.0.1:5000/home",
    text: async () => "Welcome back,\n  Ada",
    evaluate: async (js: string) => {
      if (js === "boom()") throw new Error("boom is not defined");
      return js === "1 + 1 === 2";
    },
  };

  it("passes when everything holds", async () => {
    const ok = { text: ["Welcome back, Ada"], url: "/home$", js: ["1 + 1 === 2"], answer: "Ada" };
    expect(await checkExpectations(ok, page, "Logged in as Ada")).toEqual([]);
    expect(await checkExpectations(undefined, page, "")).toEqual([]);
  });

  it("reports each broken expectation in words", async () => {
    const broken = await checkExpectations(
      { text: ["Goodbye"], url: "/login$", js: ["false", "boom()"], answer: "Bob" },
      page,
      "Logged in as Ada",
    );
    expect(broken).toEqual([
      'expected text "Goodbye" on the page, not found',
      "expected the URL to match //login$/, but it is http://127.0.0.1:5000/home",
      "expected `false` to be truthy in the page, got false",
      "`boom()` threw in the page: boom is not defined",
      'expected the answer to contain "Bob", got "Logged in as Ada"',
    ]);
  });
});

describe("recording targets", () => {
  it("names a ref by role and name, with nth among equals, so findTarget finds it again", () => {
    const refs = snapshotRefs(snapshot);
    expect(targetOf(refs, "e5")).toEqual({ role: "button", name: "Save", nth: 1 });
    expect(targetOf(refs, "e3")).toEqual({ role: "button", name: "Save" });
    expect(targetOf(refs, "e99")).toBeUndefined();
    for (const r of refs) expect(findTarget(refs, targetOf(refs, r.ref)!)).toBe(r.ref);
  });

  it("matches a URL by its path and query, on any host or port", () => {
    const re = new RegExp(urlPattern("http://127.0.0.1:4000/product.html?id=blue-mug"));
    expect(re.test("http://localhost:9999/product.html?id=blue-mug")).toBe(true);
    expect(re.test("http://localhost:9999/product.html?id=red-mug")).toBe(false);
  });
});
