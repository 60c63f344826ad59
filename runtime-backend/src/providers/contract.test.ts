/**
 * The provider contract (seed 004's behavioural Liskov test): one suite, every provider, each
 * through a local server speaking that API's real wire format with the real SDK pointed at it.
 * Same inputs, same shaped outputs, same error semantics.
 */
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { parseToolCall, type ToolSpec } from "@baton/sdk/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatJsonWire, chatWire, FakeLlmServer, geminiWire, responsesWire, type WireFormat } from "../testing/fake-llm-server.js";
import { GeminiProvider } from "./gemini.js";
import { OpenAiChatProvider } from "./openai-chat.js";
import { OpenAiResponsesProvider } from "./openai-responses.js";
import type { RetryOptions } from "./retry.js";
import { type ModelRequest, ProviderError, type Provider } from "./types.js";

const retry: RetryOptions = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 5_000, timeoutMs: 10_000 };
const tools: ToolSpec[] = Object.values(toolCatalog.tools);

interface Subject {
  readonly name: string;
  readonly wire: WireFormat;
  readonly make: (url: string, r: RetryOptions) => Provider;
  /** The tool outputs the server received, to check the conversation went out right. */
  readonly sentOutputs: (body: unknown) => string[];
}

const subjects: Subject[] = [
  {
    name: "openai responses",
    wire: responsesWire,
    make: (url, r) => new OpenAiResponsesProvider({ apiKey: "sk-test", baseURL: `${url}/v1`, retry: r }),
    sentOutputs: (b) => ((b as { input: { type?: string; output?: string }[] }).input ?? []).filter((i) => i.type === "function_call_output").map((i) => i.output ?? ""),
  },
  {
    name: "openai chat completions",
    wire: chatWire,
    make: (url, r) => new OpenAiChatProvider({ apiKey: "sk-test", baseURL: `${url}/v1`, retry: r }),
    sentOutputs: (b) => ((b as { messages: { role: string; content: string }[] }).messages ?? []).filter((m) => m.role === "tool").map((m) => m.content),
  },
  {
    name: "chat completions, JSON-in-text mode",
    wire: chatJsonWire,
    make: (url, r) => new OpenAiChatProvider({ apiKey: "sk-test", baseURL: `${url}/v1`, retry: r, jsonMode: true }),
    sentOutputs: (b) =>
      ((b as { messages: { role: string; content: string }[] }).messages ?? [])
        .filter((m) => m.role === "user" && m.content.startsWith("Tool results:"))
        .map((m) => m.content),
  },
  {
    name: "gemini",
    wire: geminiWire,
    make: (url, r) => new GeminiProvider({ apiKey: "AIza-test", baseUrl: url, retry: r }),
    sentOutputs: (b) =>
      ((b as { contents: { parts: { functionResponse?: { response: unknown } }[] }[] }).contents ?? []).flatMap((c) =>
        c.parts.filter((p) => p.functionResponse).map((p) => JSON.stringify(p.functionResponse?.response)),
      ),
  },
];

function request(signal: AbortSignal = new AbortController().signal): ModelRequest {
  return {
    model: "fake-model",
    system: "You are a test.",
    items: [
      { type: "user", text: "Open example.com" },
      { type: "assistant", text: "", calls: [{ id: "call_1_0", name: "navigate", arguments: '{"url":"https://example.com"}' }] },
      { type: "tool_result", callId: "call_1_0", name: "navigate", output: '{"url":"https://example.com/","title":"Example Domain"}' },
    ],
    tools,
    signal,
    callIndex: 1,
    foldRequested: false,
  };
}

describe("gemini thought signatures", () => {
  it("returns a call's signature and sends it back when the call is replayed", async () => {
    const server = await new FakeLlmServer(geminiWire).start();
    try {
      const p = new GeminiProvider({ apiKey: "AIza-test", baseUrl: server.url, retry });
      server.script({ kind: "calls", calls: [{ name: "go_back", args: "{}" }] });
      const t = await p.generate(request());
      expect(t.calls[0]?.signature).toBe("sig-0");
      const replay: ModelRequest = {
        ...request(),
        items: [
          { type: "user", text: "go back" },
          { type: "assistant", text: "", calls: [{ id: "call_1_0", name: "go_back", arguments: "{}", signature: "sig-0" }] },
          { type: "tool_result", callId: "call_1_0", name: "go_back", output: "{}" },
        ],
      };
      server.script({ kind: "text", text: "ok" });
      await p.generate(replay);
      const sent = server.bodies[0] as { contents: { role: string; parts: { thoughtSignature?: string }[] }[] };
      expect(sent.contents[1]?.parts[0]?.thoughtSignature).toBe("sig-0");
    } finally {
      await server.stop();
    }
  });
});

for (const subject of subjects) {
  describe(`provider contract: ${subject.name}`, () => {
    const server = new FakeLlmServer(subject.wire, { input: 123, output: 45, cached: 6 });
    let provider: Provider;
    beforeAll(async () => {
      await server.start();
      provider = subject.make(server.url, retry);
    });
    afterAll(() => server.stop());

    it("returns a text-only answer as text with no calls", async () => {
      server.script({ kind: "text", text: "Hello there" });
      const t = await provider.generate(request());
      expect(t.text).toBe("Hello there");
      expect(t.calls).toEqual([]);
      // The conversation went out with the earlier tool result in it.
      expect(subject.sentOutputs(server.bodies[0]).join(" ")).toContain("Example Domain");
    });

    it("returns one tool call with its arguments as a JSON string", async () => {
      server.script({ kind: "calls", calls: [{ name: "navigate", args: '{"url":"https://example.org"}' }] });
      const t = await provider.generate(request());
      expect(t.calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([["navigate", { url: "https://example.org" }]]);
      const parsed = parseToolCall(toolCatalog, t.calls[0]!.name, t.calls[0]!.arguments);
      expect(parsed.ok).toBe(true);
    });

    it("returns parallel tool calls in order", async () => {
      server.script({
        kind: "calls",
        calls: [
          { name: "take_snapshot", args: "{}" },
          { name: "search_user_memory", args: '{"query":"address"}' },
        ],
      });
      const t = await provider.generate(request());
      expect(t.calls.map((c) => c.name)).toEqual(["take_snapshot", "search_user_memory"]);
    });

    it("returns '' (never null) as text for a tool-only response with null content", async () => {
      server.script({ kind: "calls", calls: [{ name: "go_back", args: "{}" }], text: null });
      const t = await provider.generate(request());
      expect(t.text).toBe("");
      expect(typeof t.text).toBe("string");
      expect(t.calls).toHaveLength(1);
    });

    it("passes malformed arguments through for the loop to report, without throwing", async () => {
      server.script({ kind: "calls", calls: [{ name: "navigate", args: '{"url": ' }] });
      const t = await provider.generate(request());
      expect(t.calls).toHaveLength(1);
      const parsed = parseToolCall(toolCatalog, t.calls[0]!.name, t.calls[0]!.arguments);
      expect(parsed.ok).toBe(false);
    });

    it("retries a 429 after the server's Retry-After, then succeeds", async () => {
      server.script({ kind: "status", status: 429, headers: { "retry-after": "1" } }, { kind: "text", text: "ok" });
      const t0 = performance.now();
      const t = await provider.generate(request());
      expect(t.text).toBe("ok");
      expect(t.retries).toBe(1);
      expect(server.bodies).toHaveLength(2);
      // The base backoff is 5 ms: only Retry-After explains a wait this long.
      expect(performance.now() - t0).toBeGreaterThanOrEqual(900);
    });

    it("gives up on 500 after the attempt budget with a server error", async () => {
      server.script({ kind: "status", status: 500 });
      const e = await provider.generate(request()).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ProviderError);
      expect((e as ProviderError).kind).toBe("server");
      expect((e as ProviderError).status).toBe(500);
      expect((e as ProviderError).attempts).toBe(3);
      expect(server.bodies).toHaveLength(3);
    });

    it("does not retry a 400", async () => {
      server.script({ kind: "status", status: 400 });
      const e = await provider.generate(request()).catch((x: unknown) => x);
      expect((e as ProviderError).kind).toBe("bad_request");
      expect(server.bodies).toHaveLength(1);
    });

    it("times out each attempt and reports a timeout", async () => {
      server.script({ kind: "hang" });
      const p = subject.make(server.url, { ...retry, maxAttempts: 2, timeoutMs: 300 });
      const e = await p.generate(request()).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ProviderError);
      expect((e as ProviderError).kind).toBe("timeout");
      expect((e as ProviderError).attempts).toBe(2);
    });

    it("stops during a call when the session's signal aborts", async () => {
      server.script({ kind: "hang" });
      const ctl = new AbortController();
      setTimeout(() => ctl.abort(), 100);
      const t0 = performance.now();
      const e = await provider.generate(request(ctl.signal)).catch((x: unknown) => x);
      expect((e as ProviderError).kind).toBe("aborted");
      expect(performance.now() - t0).toBeLessThan(5_000);
    });

    it("reports usage counts", async () => {
      server.script({ kind: "text", text: "counted" });
      const t = await provider.generate(request());
      expect(t.usage).toEqual({ input: 123, output: 45, cached: 6 });
    });
  });
}
