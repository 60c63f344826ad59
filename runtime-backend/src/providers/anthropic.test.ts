/**
 * What the Anthropic provider does beyond the shared contract (contract.test.ts): the tools in
 * Anthropic's shape with the cache breakpoints on the stable prefix, the thinking each model
 * takes, thinking blocks carried back with a turn's results, and Anthropic's own errors (529,
 * an error event inside a stream), all with the real SDK against the fake Messages server.
 */
import { anthropicTools, toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import type { ToolSpec } from "@baton/sdk/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicWire, FakeLlmServer } from "../testing/fake-llm-server.js";
import { AnthropicProvider, thinkingFor } from "./anthropic.js";
import type { RetryOptions } from "./retry.js";
import { type ModelCall, type ModelRequest, ProviderError, type StreamDelta } from "./types.js";

const retry: RetryOptions = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 5_000, timeoutMs: 10_000 };
const tools: ToolSpec[] = Object.values(toolCatalog.tools);
const server = new FakeLlmServer(anthropicWire);
beforeAll(() => server.start());
afterAll(() => server.stop());

function request(model: string, items: ModelRequest["items"] = [{ type: "user", text: "Open example.com" }], onStream?: (d: StreamDelta) => void): ModelRequest {
  return { model, system: "You are a test.", items, tools, signal: new AbortController().signal, callIndex: 0, foldRequested: false, onStream };
}

/** The request's next turn: the answered calls, each with a result. */
function answered(calls: readonly ModelCall[]): ModelRequest["items"] {
  return [
    { type: "user", text: "Open example.com" },
    { type: "assistant", text: "Opening it.", calls },
    ...calls.map((c) => ({ type: "tool_result" as const, callId: c.id, name: c.name, output: '{"url":"https://example.com/"}' })),
  ];
}

interface Body {
  system: { type: string; text: string; cache_control?: unknown }[];
  tools: Record<string, unknown>[];
  thinking?: unknown;
  max_tokens: number;
  messages: { role: string; content: { type: string; [k: string]: unknown }[] }[];
}
const body = (i = 0) => server.bodies[i] as Body;

describe("the anthropic provider", () => {
  it("declares the catalog's tools in Anthropic's shape and marks the stable prefix (tools, system) for the prompt cache", async () => {
    server.script({ kind: "text", text: "ok" });
    await new AnthropicProvider({ apiKey: "sk-ant-test", baseURL: server.url, retry }).generate(request("claude-haiku-4-5"));
    const b = body();
    expect(server.paths).toEqual(["/v1/messages"]);
    expect(b.tools.map(({ cache_control, ...t }) => t)).toEqual(JSON.parse(JSON.stringify(anthropicTools)));
    expect(b.tools.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    expect(b.system).toEqual([{ type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } }]);
    // Two breakpoints, no more: the conversation after them changes every step.
    expect(JSON.stringify(b).match(/"cache_control"/g)).toHaveLength(2);
  });

  it("asks each model for the thinking it takes: adaptive from 4.6 on, a budget from 3.7 to 4.5, none before", () => {
    for (const m of ["claude-sonnet-5-5", "claude-opus-4-6", "claude-sonnet-5", "claude-fable-5-1", "claude-mythos-preview"]) {
      expect(thinkingFor(m, 4096), m).toEqual({ type: "adaptive", display: "summarized" });
    }
    for (const m of ["claude-sonnet-4-5-20250929", "claude-haiku-4-5", "claude-opus-4-1", "claude-sonnet-4-20250514", "claude-3-7-sonnet-20250219"]) {
      expect(thinkingFor(m, 4096), m).toEqual({ type: "enabled", budget_tokens: 4096 });
    }
    for (const m of ["claude-3-5-haiku-latest", "claude-3-haiku-20240307", "fake-model"]) expect(thinkingFor(m, 4096), m).toBeUndefined();
  });

  for (const stream of [true, false]) {
    it(`carries a thinking turn's blocks back with its results, keeping thinking on (${stream ? "streamed" : "whole"})`, async () => {
      const p = new AnthropicProvider({ apiKey: "sk-ant-test", baseURL: server.url, retry, stream });
      server.script({ kind: "calls", calls: [{ name: "navigate", args: '{"url":"https://example.com"}' }], text: "Opening it.", reasoning: "The task names the site." }, { kind: "text", text: "done" });
      const t = await p.generate(request("claude-haiku-4-5"));
      expect(t.reasoning).toBe("The task names the site.");
      expect(body().thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
      expect(body().max_tokens).toBe(4096 + 4096);
      await p.generate(request("claude-haiku-4-5", answered(t.calls)));
      const sent = body(1);
      // The assistant message as the model wrote it: thinking (with its signature) first, then text, then the call.
      expect(sent.messages[1]).toEqual({
        role: "assistant",
        content: [
          { type: "thinking", thinking: "The task names the site.", signature: "sig-thinking-0" },
          { type: "text", text: "Opening it." },
          { type: "tool_use", id: "toolu_fake_0", name: "navigate", input: { url: "https://example.com" } },
        ],
      });
      expect(sent.messages[2]).toEqual({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_fake_0", content: '{"url":"https://example.com/"}' }] });
      expect(sent.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
    });
  }

  it("keeps thinking off while it answers a tool turn that was not asked to think (another provider's)", async () => {
    server.script({ kind: "text", text: "ok" });
    const p = new AnthropicProvider({ apiKey: "sk-ant-test", baseURL: server.url, retry });
    await p.generate(request("claude-sonnet-5-5", answered([{ id: "call_1_0", name: "navigate", arguments: '{"url":"https://example.com"}', signature: "gemini-signature" }])));
    expect(body().thinking).toBeUndefined();
    expect(body().max_tokens).toBe(4096);
    expect(body().messages[1]?.content.map((c) => c.type)).toEqual(["text", "tool_use"]);
  });

  it("retries a 529 (overloaded) and an overloaded error event inside a stream, restarting the stream", async () => {
    const p = new AnthropicProvider({ apiKey: "sk-ant-test", baseURL: server.url, retry });
    const answer = { kind: "text", text: "Here is the answer, in several pieces." } as const;
    server.script({ kind: "status", status: 529, message: "Overloaded" }, { kind: "stream_error", status: 529, message: "Overloaded", answer }, answer);
    const seen: StreamDelta[] = [];
    const t = await p.generate(request("claude-haiku-4-5", undefined, (d) => seen.push(d)));
    expect(t.text).toBe(answer.text);
    expect(t.retries).toBe(2);
    expect(t.notes).toEqual([expect.stringMatching(/^attempt 1: server 529: 529 overloaded_error: Overloaded/), expect.stringMatching(/^attempt 2: server 529: 529 overloaded_error: Overloaded/)]);
    expect(seen.filter((d) => d.kind === "restart")).toEqual([{ kind: "restart", attempt: 2 }, { kind: "restart", attempt: 3 }]);
  });

  it("fails at once on a refused key or a bad request, saying what the API said", async () => {
    const p = new AnthropicProvider({ apiKey: "sk-ant-test", baseURL: server.url, retry });
    server.script({ kind: "status", status: 401, message: "invalid x-api-key" });
    const auth = await p.generate(request("claude-haiku-4-5")).catch((e: unknown) => e);
    expect(auth).toBeInstanceOf(ProviderError);
    expect(auth).toMatchObject({ kind: "auth", status: 401, attempts: 1, message: "401 authentication_error: invalid x-api-key (after 1 attempt)" });
    server.script({ kind: "stream_error", status: 400, message: "messages: roles must alternate", answer: { kind: "text", text: "never sent whole" } });
    const bad = await p.generate(request("claude-haiku-4-5")).catch((e: unknown) => e);
    expect(bad).toMatchObject({ kind: "bad_request", status: 400, attempts: 1 });
    expect(server.bodies).toHaveLength(1);
  });
});
