import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { MouseButton, ScrollDirection } from "@baton/gen/baton/v1/tools_pb";
import { describe, expect, it } from "vitest";
import { parseToolCall } from "./parse-tool-call.js";
import { ToolErrorCode } from "./tool-error.js";

/** A malformed call: the tool name, the raw arguments, the expected code and words the message must name. */
interface Bad {
  readonly why: string;
  readonly tool: string;
  readonly args: unknown;
  readonly code?: ToolErrorCode;
  readonly names: readonly string[];
}

const INVALID = ToolErrorCode.INVALID_ARGUMENTS;
const deep = (n: number): string => "[".repeat(n) + "]".repeat(n);
const deepObject = (n: number): unknown => {
  let v: unknown = { ref: "e1" };
  for (let i = 0; i < n; i++) v = { nested: v };
  return v;
};

const bad: Bad[] = [
  // Bad JSON.
  { why: "unterminated object", tool: "click", args: '{"ref": "e1"', names: ["click", "not valid JSON"] },
  { why: "trailing comma", tool: "click", args: '{"ref": "e1",}', names: ["click", "not valid JSON"] },
  { why: "single quotes", tool: "click", args: "{'ref': 'e1'}", names: ["click", "not valid JSON"] },
  { why: "bare word", tool: "navigate", args: "https://example.com", names: ["navigate", "not valid JSON"] },
  { why: "prose around JSON", tool: "click", args: 'Sure! {"ref":"e1"}', names: ["click", "not valid JSON"] },
  { why: "two roots", tool: "click", args: '{"ref":"e1"}{"ref":"e2"}', names: ["click", "not valid JSON"] },
  { why: "markdown fence", tool: "click", args: '```json\n{"ref":"e1"}\n```', names: ["click", "not valid JSON"] },
  { why: "NaN literal", tool: "scroll", args: '{"pixels": NaN}', names: ["scroll", "not valid JSON"] },
  { why: "comment inside", tool: "click", args: '{"ref":"e1" /* hi */}', names: ["click", "not valid JSON"] },
  { why: "truncated string", tool: "type_text", args: '{"ref":"e1","text":"hel', names: ["type_text", "not valid JSON"] },
  { why: "array root", tool: "click", args: '["e1"]', names: ["click", "JSON object", "array"] },
  { why: "null root", tool: "click", args: "null", names: ["click", "JSON object", "null"] },
  { why: "number root", tool: "scroll", args: "42", names: ["scroll", "JSON object", "42"] },
  { why: "string root", tool: "click", args: '"e1"', names: ["click", "JSON object"] },
  { why: "boolean root", tool: "go_back", args: "true", names: ["go_back", "JSON object"] },
  { why: "double-encoded garbage", tool: "click", args: JSON.stringify("{ref:e1}"), names: ["click", "not valid JSON"] },
  { why: "5,000-deep arrays", tool: "click", args: deep(5000), names: ["click", "JSON object"] },
  // Unknown tools.
  { why: "typo", tool: "clik", args: "{}", code: ToolErrorCode.UNKNOWN_TOOL, names: ["clik", "click"] },
  { why: "made-up tool", tool: "buy_now", args: "{}", code: ToolErrorCode.UNKNOWN_TOOL, names: ["buy_now", "navigate"] },
  { why: "empty name", tool: "", args: "{}", code: ToolErrorCode.UNKNOWN_TOOL, names: ["no tool named", "take_snapshot"] },
  { why: "huge name", tool: "x".repeat(10_000), args: "{}", code: ToolErrorCode.UNKNOWN_TOOL, names: ["no tool named"] },
  { why: "name with JSON", tool: '{"name":"click"}', args: "{}", code: ToolErrorCode.UNKNOWN_TOOL, names: ["no tool named"] },
  // Unknown keys.
  { why: "unknown key", tool: "click", args: { ref: "e1", selector: "#buy" }, names: ["click", "selector", "Valid fields: ref"] },
  { why: "near-miss key", tool: "click", args: { reff: "e1" }, names: ["click", "reff", 'did you mean "ref"'] },
  { why: "case-mangled key", tool: "type_text", args: { ref: "e1", text: "a", Press_Enter: true }, names: ["type_text", "Press_Enter"] },
  { why: "key on a no-arg tool", tool: "go_back", args: { steps: 2 }, names: ["go_back", "steps", "takes no arguments"] },
  { why: "prototype key", tool: "click", args: '{"__proto__": {"ref": "e1"}}', names: ["click", "__proto__"] },
  { why: "constructor key", tool: "click", args: { constructor: "x", ref: "e1" }, names: ["click", "constructor"] },
  { why: "both spellings", tool: "type_text", args: { ref: "e1", text: "a", press_enter: true, pressEnter: false }, names: ["type_text", "given twice"] },
  { why: "huge key", tool: "click", args: { ["k".repeat(100_000)]: 1 }, names: ["click", "is not a field"] },
  { why: "many unknown keys", tool: "click", args: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])), names: ["click", "more"] },
  // Missing required.
  { why: "empty args for navigate", tool: "navigate", args: "", names: ["navigate", "url", "is required"] },
  { why: "empty object for type_text", tool: "type_text", args: {}, names: ["type_text", "ref", "text"] },
  { why: "null required", tool: "navigate", args: { url: null }, names: ["navigate", "url", "is required"] },
  { why: "missing to_ref", tool: "drag", args: { from_ref: "e1" }, names: ["drag", "to_ref"] },
  { why: "missing values", tool: "select_option", args: { ref: "e3" }, names: ["select_option", "values"] },
  { why: "missing answer", tool: "done", args: { success: true }, names: ["done", "answer"] },
  { why: "missing query", tool: "search_user_memory", args: { limit: 3 }, names: ["search_user_memory", "query"] },
  { why: "empty required string", tool: "ask_user", args: { question: "" }, names: ["ask_user", "question", "must not be empty"] },
  // Wrong types.
  { why: "ref as number", tool: "click", args: { ref: 12 }, names: ["click", "ref", "must be a string", "number 12"] },
  { why: "x as string", tool: "click", args: { x: "100", y: 5 }, names: ["click", "x", "must be a number"] },
  { why: "bool as string", tool: "type_text", args: { ref: "e1", text: "a", clear: "yes" }, names: ["type_text", "clear", "true or false"] },
  { why: "bool as number", tool: "take_snapshot", args: { include_screenshot: 1 }, names: ["take_snapshot", "include_screenshot"] },
  { why: "integer as float", tool: "take_snapshot", args: { offset: 1.5 }, names: ["take_snapshot", "offset", "whole number"] },
  { why: "integer as string", tool: "scroll", args: { pixels: "300" }, names: ["scroll", "pixels", "an integer"] },
  { why: "array for string", tool: "navigate", args: { url: ["https://a.test"] }, names: ["navigate", "url", "array"] },
  { why: "object for string", tool: "navigate", args: { url: { href: "https://a.test" } }, names: ["navigate", "url", "object"] },
  { why: "string for array", tool: "press_keys", args: { keys: "Enter" }, names: ["press_keys", "keys", "must be an array"] },
  { why: "numbers in string array", tool: "press_keys", args: { keys: ["Tab", 13] }, names: ["press_keys", "keys[1]", "must be a string"] },
  { why: "bad enum", tool: "scroll", args: { direction: "sideways" }, names: ["scroll", "direction", '"down"'] },
  { why: "enum near miss", tool: "click", args: { ref: "e1", button: "rigth" }, names: ["click", "button", 'did you mean "right"'] },
  { why: "enum as number", tool: "click", args: { ref: "e1", button: 2 }, names: ["click", "button", "must be one of"] },
  { why: "bad enum in list", tool: "click", args: { ref: "e1", modifiers: ["shift", "hyper"] }, names: ["click", "modifiers[1]"] },
  { why: "enum zero value", tool: "extract", args: { format: "unspecified" }, names: ["extract", "format"] },
  // Out of range.
  { why: "click_count too high", tool: "click", args: { ref: "e1", click_count: 4 }, names: ["click", "click_count", "at most 3"] },
  { why: "negative offset", tool: "take_snapshot", args: { offset: -1 }, names: ["take_snapshot", "offset", "at least 0"] },
  { why: "max_chars too small", tool: "take_snapshot", args: { max_chars: 10 }, names: ["take_snapshot", "max_chars", "at least 200"] },
  { why: "quality 0", tool: "screenshot", args: { quality: 0 }, names: ["screenshot", "quality"] },
  { why: "limit 1000", tool: "search_user_memory", args: { query: "a", limit: 1000 }, names: ["search_user_memory", "limit", "at most 20"] },
  { why: "infinite-looking number", tool: "scroll", args: '{"pixels": 1e400}', names: ["scroll", "pixels"] },
  { why: "unsafe integer", tool: "take_snapshot", args: { offset: 2 ** 60 }, names: ["take_snapshot", "offset"] },
  { why: "wait too long", tool: "wait_for", args: { ms: 3_600_000 }, names: ["wait_for", "ms", "at most 30000"] },
  // Huge strings and lists.
  { why: "huge text", tool: "type_text", args: { ref: "e1", text: "a".repeat(20_001) }, names: ["type_text", "text", "at most 20000"] },
  { why: "huge url", tool: "navigate", args: { url: `https://a.test/${"p".repeat(5000)}` }, names: ["navigate", "url", "4096"] },
  { why: "huge raw arguments", tool: "type_text", args: JSON.stringify({ ref: "e1", text: "a".repeat(300_000) }), names: ["type_text", "the limit is"] },
  { why: "too many keys", tool: "press_keys", args: { keys: Array.from({ length: 51 }, () => "Tab") }, names: ["press_keys", "keys", "at most 50"] },
  { why: "too many paths", tool: "upload_file", args: { ref: "e1", paths: Array.from({ length: 21 }, (_, i) => `/tmp/${i}`) }, names: ["upload_file", "paths"] },
  { why: "long tag", tool: "save_memory", args: { text: "likes tea", tags: ["t".repeat(51)] }, names: ["save_memory", "tags[0]", "at most 50"] },
  // Nested garbage.
  { why: "nested object in ref", tool: "click", args: { ref: { ref: { ref: "e1" } } }, names: ["click", "ref", "object"] },
  { why: "deeply nested unknown key", tool: "click", args: deepObject(2000), names: ["click", "nested"] },
  { why: "array of arrays", tool: "select_option", args: { ref: "e1", values: [["a"], ["b"]] }, names: ["select_option", "values[0]"] },
  { why: "object in list", tool: "upload_file", args: { ref: "e1", paths: [{ path: "/tmp/a" }] }, names: ["upload_file", "paths[0]"] },
  { why: "mixed garbage", tool: "type_text", args: { ref: [], text: {}, clear: "no", junk: null }, names: ["type_text", "ref", "text", "clear", "junk"] },
];

describe("parseToolCall on malformed input", () => {
  it("covers at least 60 cases", () => {
    expect(bad.length).toBeGreaterThanOrEqual(60);
  });

  it.each(bad.map((b) => [b.why, b] as const))("%s → a clear ToolError", (_why, b) => {
    let out: ReturnType<typeof parseToolCall> | undefined;
    expect(() => {
      out = parseToolCall(toolCatalog, b.tool, b.args);
    }).not.toThrow();
    if (!out || out.ok) {
      throw new Error(`expected a ToolError for ${b.why}`);
    }
    expect(out.error.code).toBe(b.code ?? INVALID);
    for (const word of b.names) {
      expect(out.error.message).toContain(word);
    }
    expect(out.error.message.length).toBeLessThan(2000);
  });
});

describe("parseToolCall on good input", () => {
  it("reads snake_case and camelCase keys into a typed call", () => {
    const a = parseToolCall(toolCatalog, "type_text", '{"ref":"e4","text":"hello","press_enter":true}');
    const b = parseToolCall(toolCatalog, "typeText", { ref: "e4", text: "hello", pressEnter: true });
    for (const r of [a, b]) {
      expect(r.ok).toBe(true);
      if (!r.ok || r.call.tool.case !== "typeText") throw new Error("not typeText");
      expect(r.call.tool.value.ref).toBe("e4");
      expect(r.call.tool.value.pressEnter).toBe(true);
      expect(r.call.tool.value.clear).toBe(true); // schema default applied
    }
  });

  it("maps model enum names onto proto enums and treats null as absent", () => {
    const r = parseToolCall(toolCatalog, "click", { ref: "e1", button: "RIGHT", modifiers: ["shift"], x: null });
    if (!r.ok || r.call.tool.case !== "click") throw new Error(JSON.stringify(r));
    expect(r.call.tool.value.button).toBe(MouseButton.RIGHT);
    expect(r.call.tool.value.x).toBeUndefined();
    const s = parseToolCall(toolCatalog, "scroll", { direction: "up", pixels: 400 });
    if (!s.ok || s.call.tool.case !== "scroll") throw new Error(JSON.stringify(s));
    expect(s.call.tool.value.direction).toBe(ScrollDirection.UP);
  });

  it("accepts a tool-name spelled by camelCase, case or a functions. prefix", () => {
    for (const name of ["take_snapshot", "takeSnapshot", "TakeSnapshot", "functions.take_snapshot", "take-snapshot"]) {
      const r = parseToolCall(toolCatalog, name, "{}");
      expect(r.ok && r.tool.name).toBe("take_snapshot");
    }
  });

  it("unwraps double-encoded arguments and keeps explicit values over defaults", () => {
    const r = parseToolCall(toolCatalog, "take_snapshot", JSON.stringify(JSON.stringify({ max_chars: 500 })));
    if (!r.ok || r.call.tool.case !== "takeSnapshot") throw new Error(JSON.stringify(r));
    expect(r.call.tool.value.maxChars).toBe(500);
  });
});
