import { describe, expect, it } from "vitest";
import { chatJsonWire, FakeLlmServer } from "../testing/fake-llm-server.js";
import { findRoots, parseDecision, repairJson, retryReminder } from "./json-decision.js";
import { OpenAiChatProvider } from "./openai-chat.js";

describe("JSON-in-text parsing", () => {
  it("walks brackets with string awareness: braces inside strings do not count", () => {
    const roots = findRoots('Sure! {"text": "use } and { freely \\" ok", "calls": []} done');
    expect(roots).toEqual([{ text: '{"text": "use } and { freely \\" ok", "calls": []}', closed: true }]);
    expect(findRoots('{"a": {"b": [1, 2')).toEqual([{ text: '{"a": {"b": [1, 2', closed: false }]);
  });

  it("repairs trailing commas, an open string and unclosed brackets, in order", () => {
    expect(repairJson('{"calls": [{"tool": "click", "args": {"ref": "e1",},},],}')).toEqual({ calls: [{ tool: "click", args: { ref: "e1" } }] });
    expect(repairJson('{"text": "half a sent')).toEqual({ text: "half a sent" });
    expect(repairJson('{"calls": [{"tool": "go_back", "args": {')).toEqual({ calls: [{ tool: "go_back", args: {} }] });
    expect(repairJson("{nope: 1}")).toBeUndefined();
  });

  it("accepts a decision wrapped in prose or a code fence", () => {
    const r = parseDecision('Here you go:\n```json\n{"text": "Opening", "calls": [{"tool": "navigate", "args": {"url": "https://a.example"}}]}\n```');
    expect(r).toEqual({
      ok: true,
      repaired: false,
      decision: { text: "Opening", calls: [{ name: "navigate", arguments: '{"url":"https://a.example"}' }] },
    });
    expect(parseDecision('{"tool": "go_back", "args": {}}')).toMatchObject({ ok: true, decision: { calls: [{ name: "go_back" }] } });
  });

  it("names the failure: truncated, malformed, blocked, wrong shape, multiple roots", () => {
    expect(parseDecision('{"text": "a", "calls": [{"tool": "click", "args": {"ref": "e1"}', "length")).toMatchObject({ ok: true, repaired: true });
    expect(parseDecision("I will click the button now.", "length")).toMatchObject({ ok: false, failure: "truncated" });
    expect(parseDecision("I will click the button now.")).toMatchObject({ ok: false, failure: "malformed" });
    expect(parseDecision("{'text': 'single quotes'}")).toMatchObject({ ok: false, failure: "malformed" });
    expect(parseDecision("", "content_filter")).toMatchObject({ ok: false, failure: "blocked" });
    expect(parseDecision("   ")).toMatchObject({ ok: false, failure: "blocked" });
    expect(parseDecision('{"thought": "hmm"}')).toMatchObject({ ok: false, failure: "shape" });
    expect(parseDecision('{"text": "one"} {"text": "two"}')).toMatchObject({ ok: false, failure: "multiple" });
    expect(retryReminder("truncated", "cut")).toContain("cut off");
  });

  it("re-asks with the reason and uses the corrected reply (through a real server)", async () => {
    const server = await new FakeLlmServer(chatJsonWire).start();
    try {
      const p = new OpenAiChatProvider({ apiKey: "sk-x", baseURL: `${server.url}/v1`, jsonMode: true });
      server.script(
        { kind: "raw", content: '{"text": "one"} {"text": "two"}' },
        { kind: "raw", content: '{"text": "fixed", "calls": [{"tool": "go_back", "args": {}}]}' },
      );
      const t = await p.generate({
        model: "m",
        system: "s",
        items: [{ type: "user", text: "go back" }],
        tools: [],
        signal: new AbortController().signal,
        callIndex: 0,
        foldRequested: false,
      });
      expect(t.text).toBe("fixed");
      expect(t.calls.map((c) => c.name)).toEqual(["go_back"]);
      expect(t.notes.some((n) => n.includes("multiple"))).toBe(true);
      const second = server.bodies[1] as { messages: { role: string; content: string }[] };
      expect(second.messages.at(-1)?.content).toContain("more than one JSON decision");
      // Bounded: a model that never complies gets its text back as a plain answer.
      server.script({ kind: "raw", content: "no json at all" });
      const g = await p.generate({ model: "m", system: "s", items: [{ type: "user", text: "x" }], tools: [], signal: new AbortController().signal, callIndex: 0, foldRequested: false });
      expect(g.text).toBe("no json at all");
      expect(server.bodies).toHaveLength(3);
    } finally {
      await server.stop();
    }
  });
});
