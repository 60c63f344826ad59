import { describe, expect, it } from "vitest";
import { toAnthropicMessages, turnOf, turnSignature } from "./anthropic-messages.js";
import type { ModelRequest } from "./types.js";

function req(items: ModelRequest["items"]): ModelRequest {
  return { model: "claude-haiku-4-5", system: "s", items, tools: [], signal: new AbortController().signal, callIndex: 0, foldRequested: false };
}

describe("the conversation as Anthropic messages", () => {
  it("puts a turn's results in one user message, and alternates roles", () => {
    const { messages } = toAnthropicMessages(
      req([
        { type: "user", text: "context" },
        {
          type: "assistant",
          text: "",
          calls: [
            { id: "c0", name: "take_snapshot", arguments: "{}" },
            { id: "c1", name: "navigate", arguments: "not json" },
          ],
        },
        { type: "tool_result", callId: "c0", name: "take_snapshot", output: "snap" },
        { type: "tool_result", callId: "c1", name: "navigate", output: "nav" },
      ]),
    );
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(messages[1]?.content).toEqual([
      { type: "tool_use", id: "c0", name: "take_snapshot", input: {} },
      // Input must be an object: arguments that are not JSON travel as text.
      { type: "tool_use", id: "c1", name: "navigate", input: { unparsed: "not json" } },
    ]);
    expect(messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "c0", content: "snap" },
      { type: "tool_result", tool_use_id: "c1", content: "nav" },
    ]);
  });

  it("ends on the user: a last assistant message would be taken as the start of the answer", () => {
    const { messages } = toAnthropicMessages(req([{ type: "user", text: "The user says: thanks" }, { type: "assistant", text: "Done.", calls: [] }]));
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(messages[2]?.content).toEqual([{ type: "text", text: "Continue." }]);
  });

  it("puts thinking blocks back where the model wrote them, between its calls too", () => {
    const layout = [
      { type: "thinking", thinking: "first", signature: "s1" },
      { type: "text" },
      { type: "tool_use" },
      { type: "redacted_thinking", data: "opaque" },
      { type: "tool_use" },
    ] as const;
    const signature = turnSignature({ layout, thinking: true });
    expect(turnOf(signature)).toEqual({ layout, thinking: true });
    expect(turnOf("a-gemini-thought-signature")).toBeUndefined();
    const { messages, thinkingAllowed } = toAnthropicMessages(
      req([
        { type: "user", text: "u" },
        {
          type: "assistant",
          text: "Two steps.",
          calls: [
            { id: "a", name: "go_back", arguments: "{}", signature },
            { id: "b", name: "take_snapshot", arguments: "{}" },
          ],
        },
        { type: "tool_result", callId: "a", name: "go_back", output: "1" },
        { type: "tool_result", callId: "b", name: "take_snapshot", output: "2" },
      ]),
    );
    expect(thinkingAllowed).toBe(true);
    expect(messages[1]?.content).toEqual([
      { type: "thinking", thinking: "first", signature: "s1" },
      { type: "text", text: "Two steps." },
      { type: "tool_use", id: "a", name: "go_back", input: {} },
      { type: "redacted_thinking", data: "opaque" },
      { type: "tool_use", id: "b", name: "take_snapshot", input: {} },
    ]);
  });
});
