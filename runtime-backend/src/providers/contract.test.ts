/**
 * The provider contract (the loop must be able to use any provider in place of another): one
 * suite, every provider, each
 * through a local server speaking that API's real wire format with the real SDK pointed at it.
 * Same inputs, same shaped outputs, same error semantics. Chrome's built-in model, chat only,
 * runs the chat half of it against a stand-in with the Prompt API's interface.
 */
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { parseToolCall, type ToolSpec } from "@baton/sdk/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicWire, chatJsonWire, chatWire, FakeLlmServer, geminiWire, responsesWire, type WireFormat } from "../testing/fake-llm-server.js";
import { promptApiStandIn, type StandInState, standInTokens } from "../testing/prompt-api-stand-in.js";
import { AnthropicProvider } from "./anthropic.js";
import { type BuiltInOptions, BuiltInProvider, promptTooLong } from "./built-in.js";
import { GeminiProvider } from "./gemini.js";
import { OpenAiChatProvider } from "./openai-chat.js";
import { OpenAiResponsesProvider } from "./openai-responses.js";
import type { RetryOptions } from "./retry.js";
import { type ModelRequest, ProviderError, type Provider, type StreamDelta } from "./types.js";

const retry: RetryOptions = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 5_000, timeoutMs: 10_000 };
const tools: ToolSpec[] = Object.values(toolCatalog.tools);

interface Subject {
  readonly name: string;
  readonly wire: WireFormat;
  readonly make: (url: string, r: RetryOptions, stream: boolean, vision?: boolean) => Provider;
  /** A model of this API that reasons, and how its request asks for the reasoning; none when the API has no such switch. */
  readonly reasoning?: { readonly model: string; readonly asked: (body: unknown) => unknown };
  /** The tool outputs the server received, to check the conversation went out right. */
  readonly sentOutputs: (body: unknown) => string[];
  /** The images the server received, as base64, in order. */
  readonly sentImages: (body: unknown) => string[];
}

/** The base64 payload of a data: URL. */
const base64Of = (url: string | undefined) => (url ?? "").replace(/^data:[^;]+;base64,/, "");

/** Image URLs in Chat Completions messages (the parts of user messages). */
const chatImages = (b: unknown) =>
  ((b as { messages: { content: unknown }[] }).messages ?? []).flatMap((m) =>
    Array.isArray(m.content) ? (m.content as { type: string; image_url?: { url: string } }[]).filter((p) => p.type === "image_url").map((p) => base64Of(p.image_url?.url)) : [],
  );

/** Anthropic's `tool_result` blocks in the user messages of a Messages request. */
const anthropicResults = (b: unknown) =>
  ((b as { messages: { role: string; content: unknown }[] }).messages ?? []).flatMap((m) =>
    m.role === "user" && Array.isArray(m.content) ? (m.content as { type: string; content?: unknown }[]).filter((p) => p.type === "tool_result") : [],
  );

/** A message's text, whether it is a string or a list of parts. */
const textOfContent = (c: unknown) => (typeof c === "string" ? c : Array.isArray(c) ? (c as { type: string; text?: string }[]).filter((p) => p.type === "text").map((p) => p.text).join("\n") : "");

const subjects: Subject[] = [
  {
    name: "openai responses",
    wire: responsesWire,
    make: (url, r, stream, vision) => new OpenAiResponsesProvider({ apiKey: "sk-test", baseURL: `${url}/v1`, retry: r, stream, ...(vision === undefined ? {} : { vision: () => vision }) }),
    reasoning: { model: "gpt-5-mini", asked: (b) => (b as { reasoning?: { summary?: string } }).reasoning?.summary },
    sentOutputs: (b) =>
      ((b as { input: { type?: string; output?: unknown }[] }).input ?? [])
        .filter((i) => i.type === "function_call_output")
        .map((i) => (typeof i.output === "string" ? i.output : (i.output as { type: string; text?: string }[]).filter((p) => p.type === "input_text").map((p) => p.text).join("\n"))),
    sentImages: (b) =>
      ((b as { input: { type?: string; output?: unknown }[] }).input ?? [])
        .filter((i) => i.type === "function_call_output" && Array.isArray(i.output))
        .flatMap((i) => (i.output as { type: string; image_url?: string }[]).filter((p) => p.type === "input_image").map((p) => base64Of(p.image_url))),
  },
  {
    name: "openai chat completions",
    wire: chatWire,
    make: (url, r, stream, vision) => new OpenAiChatProvider({ apiKey: "sk-test", baseURL: `${url}/v1`, retry: r, stream, ...(vision === undefined ? {} : { vision: () => vision }) }),
    sentOutputs: (b) => ((b as { messages: { role: string; content: string }[] }).messages ?? []).filter((m) => m.role === "tool").map((m) => m.content),
    sentImages: chatImages,
  },
  {
    name: "chat completions, JSON-in-text mode",
    wire: chatJsonWire,
    make: (url, r, _stream, vision) => new OpenAiChatProvider({ apiKey: "sk-test", baseURL: `${url}/v1`, retry: r, jsonMode: true, ...(vision === undefined ? {} : { vision: () => vision }) }),
    sentOutputs: (b) =>
      ((b as { messages: { role: string; content: unknown }[] }).messages ?? [])
        .map((m) => (m.role === "user" ? textOfContent(m.content) : ""))
        .filter((t) => t.startsWith("Tool results:")),
    sentImages: chatImages,
  },
  {
    name: "anthropic",
    wire: anthropicWire,
    make: (url, r, stream, vision) => new AnthropicProvider({ apiKey: "sk-ant-test", baseURL: url, retry: r, stream, ...(vision === undefined ? {} : { vision: () => vision }) }),
    reasoning: { model: "claude-haiku-4-5", asked: (b) => (b as { thinking?: { type?: string } }).thinking?.type },
    sentOutputs: (b) => anthropicResults(b).map((r) => (typeof r.content === "string" ? r.content : textOfContent(r.content))),
    sentImages: (b) =>
      anthropicResults(b).flatMap((r) =>
        Array.isArray(r.content) ? (r.content as { type: string; source?: { data: string } }[]).filter((p) => p.type === "image").map((p) => p.source?.data ?? "") : [],
      ),
  },
  {
    name: "gemini",
    wire: geminiWire,
    make: (url, r, stream, vision) => new GeminiProvider({ apiKey: "AIza-test", baseUrl: url, retry: r, stream, ...(vision === undefined ? {} : { vision: () => vision }) }),
    reasoning: { model: "gemini-2.5-flash", asked: (b) => (b as { generationConfig?: { thinkingConfig?: { includeThoughts?: boolean } } }).generationConfig?.thinkingConfig?.includeThoughts },
    sentOutputs: (b) =>
      ((b as { contents: { parts: { functionResponse?: { response: unknown } }[] }[] }).contents ?? []).flatMap((c) =>
        c.parts.filter((p) => p.functionResponse).map((p) => JSON.stringify(p.functionResponse?.response)),
      ),
    sentImages: (b) =>
      ((b as { contents: { parts: { inlineData?: { data: string } }[] }[] }).contents ?? []).flatMap((c) => c.parts.flatMap((p) => (p.inlineData ? [p.inlineData.data] : []))),
  },
];

/** A tiny JPEG (a 1×1 white pixel): what a screenshot looks like on the wire. */
const jpeg = Uint8Array.from(
  Buffer.from(
    "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
    "base64",
  ),
);

/** A turn whose snapshot came with a screenshot (and a second call with another). */
function withScreenshots(): ModelRequest {
  const base = request();
  return {
    ...base,
    items: [
      { type: "user", text: "What does the page look like?" },
      {
        type: "assistant",
        text: "",
        calls: [
          { id: "call_1_0", name: "take_snapshot", arguments: '{"include_screenshot":true}' },
          { id: "call_1_1", name: "screenshot", arguments: "{}" },
        ],
      },
      {
        type: "tool_result",
        callId: "call_1_0",
        name: "take_snapshot",
        output: '{"text":"[e1] button \\"Go\\"","screenshot":{"mime_type":"image/jpeg","url":"screenshot:shot_call_1_0_0","width":1280,"height":800}}',
        images: [{ id: "shot_call_1_0_0", mimeType: "image/jpeg", data: jpeg, width: 1280, height: 800 }],
      },
      {
        type: "tool_result",
        callId: "call_1_1",
        name: "screenshot",
        output: '{"image":{"mime_type":"image/png","url":"screenshot:shot_call_1_1_0","width":640,"height":400}}',
        images: [{ id: "shot_call_1_1_0", mimeType: "image/png", data: Uint8Array.of(137, 80, 78, 71), width: 640, height: 400 }],
      },
    ],
  };
}

function request(signal: AbortSignal = new AbortController().signal, onStream?: (d: StreamDelta) => void, model = "fake-model"): ModelRequest {
  return {
    model,
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
    onStream,
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

// Every subject whose API streams runs the whole suite twice: streamed and answered whole.
const variants = subjects.flatMap((subject) => (subject.wire.stream ? [true, false] : [false]).map((stream) => ({ subject, stream })));

for (const { subject, stream } of variants) {
  describe(`provider contract: ${subject.name}${subject.wire.stream ? (stream ? ", streamed" : ", whole") : ""}`, () => {
    const server = new FakeLlmServer(subject.wire, { input: 123, output: 45, cached: 6 });
    let provider: Provider;
    beforeAll(async () => {
      await server.start();
      provider = subject.make(server.url, retry, stream);
    });
    const streamedRequest = (i: number) => server.paths[i]?.includes(":streamGenerateContent") || (server.bodies[i] as { stream?: boolean }).stream === true;
    afterAll(() => server.stop());

    it("returns a text-only answer as text with no calls", async () => {
      server.script({ kind: "text", text: "Hello there" });
      const t = await provider.generate(request());
      expect(t.text).toBe("Hello there");
      expect(t.calls).toEqual([]);
      // The conversation went out with the earlier tool result in it.
      expect(subject.sentOutputs(server.bodies[0]).join(" ")).toContain("Example Domain");
    });

    it(`asks the server for ${stream ? "a stream" : "a whole answer"}`, async () => {
      server.script({ kind: "text", text: "ok" });
      await provider.generate(request());
      expect(streamedRequest(0)).toBe(stream);
    });

    if (subject.name !== "chat completions, JSON-in-text mode") {
      it("returns the reasoning summary apart from the text", async () => {
        server.script({ kind: "calls", calls: [{ name: "go_back", args: "{}" }], text: "Going back.", reasoning: "The page is wrong; go back." });
        const t = await provider.generate(request());
        expect(t.reasoning).toBe("The page is wrong; go back.");
        expect(t.text).toBe("Going back.");
        expect(t.calls.map((c) => c.name)).toEqual(["go_back"]);
      });
    }

    const reasoning = subject.reasoning;
    if (reasoning) {
      it("asks a reasoning model for its reasoning summary, and not other models", async () => {
        server.script({ kind: "text", text: "ok" });
        // A session's first call: no earlier turn whose setting the call must keep (Anthropic's tool loops).
        const first = (model?: string): ModelRequest => ({ ...request(undefined, undefined, model), items: [{ type: "user", text: "Open example.com" }] });
        await provider.generate(first(reasoning.model));
        await provider.generate(first());
        expect(reasoning.asked(server.bodies[0])).toBeTruthy();
        expect(reasoning.asked(server.bodies[1])).toBeFalsy();
      });
    }

    if (stream) {
      it("streams text and reasoning as they arrive; the turn is exactly what streamed", async () => {
        server.script({ kind: "text", text: "Hello there, this answer streams in pieces.", reasoning: "First I think, then I answer." });
        const seen: StreamDelta[] = [];
        const t = await provider.generate(request(undefined, (d) => seen.push(d)));
        const text = seen.filter((d) => d.kind === "text");
        expect(text.length).toBeGreaterThan(2);
        expect(text.map((d) => d.delta).join("")).toBe(t.text);
        expect(seen.filter((d) => d.kind === "reasoning").map((d) => d.delta).join("")).toBe(t.reasoning);
        expect(t.text).toBe("Hello there, this answer streams in pieces.");
      });

      it("takes tool calls whole, once, however their arguments streamed", async () => {
        const args = '{"url":"https://example.org/a/long/path?with=query&and=more"}';
        server.script({ kind: "calls", calls: [{ name: "navigate", args }, { name: "take_snapshot", args: "{}" }], text: "Opening it." });
        const t = await provider.generate(request(undefined, () => undefined));
        expect(t.calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
          ["navigate", JSON.parse(args)],
          ["take_snapshot", {}],
        ]);
      });

      it("retries a stream cut mid-answer as a whole call: a restart, then the full answer once", async () => {
        const answer = { kind: "calls", calls: [{ name: "go_back", args: "{}" }], text: "Going back to the list of results now." } as const;
        server.script({ kind: "cut", answer }, answer);
        const seen: StreamDelta[] = [];
        const t = await provider.generate(request(undefined, (d) => seen.push(d)));
        expect(t.retries).toBe(1);
        expect(server.bodies).toHaveLength(2);
        expect(t.text).toBe(answer.text);
        expect(t.calls.map((c) => c.name)).toEqual(["go_back"]);
        const restart = seen.findIndex((d) => d.kind === "restart");
        expect(seen[restart]).toEqual({ kind: "restart", attempt: 2 });
        // The cut attempt streamed part of the text; after the restart, the whole text streams again.
        const before = seen.slice(0, restart).flatMap((d) => (d.kind === "text" ? [d.delta] : [])).join("");
        const after = seen.slice(restart + 1).flatMap((d) => (d.kind === "text" ? [d.delta] : [])).join("");
        expect(answer.text.startsWith(before)).toBe(true);
        expect(after).toBe(answer.text);
      });
    }

    it("sends screenshots as images to a model that reads them, each once, with the results' text intact", async () => {
      server.script({ kind: "text", text: "I see it." });
      const p = subject.make(server.url, retry, stream, true);
      await p.generate(withScreenshots());
      const body = server.bodies[0];
      expect(subject.sentImages(body)).toEqual([Buffer.from(jpeg).toString("base64"), Buffer.from([137, 80, 78, 71]).toString("base64")]);
      expect(subject.sentOutputs(body).join(" ")).toContain("screenshot:shot_call_1_0_0");
      expect(JSON.stringify(body)).not.toContain("does not read images");
    });

    it("gives a model that does not read images one line per screenshot instead, and no image", async () => {
      server.script({ kind: "text", text: "I cannot see it." });
      const p = subject.make(server.url, retry, stream, false);
      await p.generate(withScreenshots());
      const body = server.bodies[0];
      expect(subject.sentImages(body)).toEqual([]);
      expect(JSON.stringify(body)).not.toContain(Buffer.from(jpeg).toString("base64"));
      const outputs = subject.sentOutputs(body).join("\n");
      expect(outputs).toContain("[screenshot shot_call_1_0_0 (1280×800 image/jpeg) not shown: this model does not read images; use the snapshot text]");
      expect(outputs).toContain("[screenshot shot_call_1_1_0 (640×400 image/png) not shown");
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
      const p = subject.make(server.url, { ...retry, maxAttempts: 2, timeoutMs: 300 }, stream);
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

describe("openai reasoning summaries", () => {
  it("asks again without them when the account may not have them, and stops asking", async () => {
    const server = await new FakeLlmServer(responsesWire).start();
    try {
      const p = new OpenAiResponsesProvider({ apiKey: "sk-test", baseURL: `${server.url}/v1`, retry });
      server.script({ kind: "status", status: 400, message: "Your organization must be verified to generate reasoning summaries." }, { kind: "text", text: "ok" });
      const t = await p.generate(request(undefined, undefined, "gpt-5-mini"));
      expect(t.text).toBe("ok");
      await p.generate(request(undefined, undefined, "gpt-5-mini"));
      const asked = (server.bodies as { reasoning?: unknown }[]).map((b) => b.reasoning !== undefined);
      expect(asked).toEqual([true, false, false]);
    } finally {
      await server.stop();
    }
  });
});

// Chrome's built-in model answers questions and never drives the agent: the contract's chat half
// (text, streaming, images refused as notes, stop, timeout, usage), through a stand-in with the
// Prompt API's interface (headless Chromium has no model to run).
describe("provider contract: Chrome's built-in model (Prompt API stand-in), chat only", () => {
  for (const stream of [true, false]) {
    describe(stream ? "streamed" : "whole", () => {
      const make = (state: Partial<StandInState> = {}, o: BuiltInOptions = {}) => {
        const api = promptApiStandIn({ answer: () => "Hello there", ...state });
        return { ...api, provider: new BuiltInProvider({ languageModel: api.LanguageModel, stream, ...o }) };
      };

      it("returns a text-only answer as text with no calls; the conversation went out with the earlier tool result in it", async () => {
        const { provider, state } = make();
        const t = await provider.generate(request());
        expect(t.text).toBe("Hello there");
        expect(t.calls).toEqual([]);
        expect(t.reasoning).toBe("");
        const sent = JSON.stringify(state.log.prompts[0]?.messages);
        expect(sent).toContain("Example Domain");
        expect(state.log.created[0]?.initialPrompts?.[0]).toEqual({ role: "system", content: "You are a test." });
      });

      it(`asks the model for ${stream ? "a stream" : "a whole answer"}`, async () => {
        const { provider, state } = make();
        await provider.generate(request());
        expect(state.log.prompts.map((p) => p.streamed)).toEqual([stream]);
      });

      it("gives one line per screenshot instead of images (it reads the page's text)", async () => {
        const { provider, state } = make();
        await provider.generate(withScreenshots());
        const sent = JSON.stringify(state.log.prompts[0]?.messages);
        expect(sent).toContain("[screenshot shot_call_1_0_0 (1280×800 image/jpeg) not shown: this model does not read images; use the snapshot text]");
        expect(sent).not.toContain(Buffer.from(jpeg).toString("base64"));
      });

      it("stops during a call when the session's signal aborts", async () => {
        const { provider } = make({ chunkDelayMs: 10_000 });
        const ctl = new AbortController();
        setTimeout(() => ctl.abort(), 100);
        const t0 = performance.now();
        const e = await provider.generate(request(ctl.signal)).catch((x: unknown) => x);
        expect(e).toBeInstanceOf(ProviderError);
        expect((e as ProviderError).kind).toBe("aborted");
        expect(performance.now() - t0).toBeLessThan(5_000);
      });

      it("times out an answer that does not come, and reports a timeout", async () => {
        const { provider } = make({ chunkDelayMs: 10_000 }, { timeoutMs: 300 });
        const e = await provider.generate(request()).catch((x: unknown) => x);
        expect((e as ProviderError).kind).toBe("timeout");
      });

      it("reports usage counts from the session's context usage", async () => {
        const { provider, state } = make();
        const t = await provider.generate(request());
        const [system, ...earlier] = state.log.created[0]?.initialPrompts ?? [];
        const prompt = state.log.prompts[0]!.messages.slice(1 + earlier.length);
        expect(t.usage).toEqual({ input: standInTokens([system!, ...earlier]) + standInTokens(prompt), output: standInTokens("Hello there"), cached: 0 });
      });
    });
  }

  it("streams the answer as it is written; the turn is exactly what streamed", async () => {
    const { LanguageModel } = promptApiStandIn({ answer: () => "Hello there, this answer streams in pieces.", chunkDelayMs: 5 });
    const seen: StreamDelta[] = [];
    const t = await new BuiltInProvider({ languageModel: LanguageModel }).generate(request(undefined, (d) => seen.push(d)));
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.every((d) => d.kind === "text")).toBe(true);
    expect(seen.map((d) => (d.kind === "text" ? d.delta : "")).join("")).toBe(t.text);
    expect(t.text).toBe("Hello there, this answer streams in pieces.");
  });

  it("never hands the model the tools, and returns no calls however it answers", async () => {
    const { LanguageModel, state } = promptApiStandIn({ answer: () => '{"tool":"click","args":{"ref":"e1"}}' });
    const t = await new BuiltInProvider({ languageModel: LanguageModel }).generate(request());
    expect(t.calls).toEqual([]);
    expect(JSON.stringify(state.log.created)).not.toContain("take_snapshot");
  });

  it("says what is wrong when the model is not ready, or the browser has none", async () => {
    for (const availability of ["unavailable", "downloadable", "downloading"] as const) {
      const { LanguageModel, state } = promptApiStandIn({ availability });
      const e = await new BuiltInProvider({ languageModel: LanguageModel }).generate(request()).catch((x: unknown) => x);
      expect(e, availability).toMatchObject({ kind: "bad_request", message: expect.stringContaining(`Chrome's built-in model is ${availability}`) });
      // Nothing was created: a download needs the user's gesture in the panel, not a model call.
      expect(state.log.created).toEqual([]);
    }
    const none = await new BuiltInProvider().generate(request()).catch((x: unknown) => x);
    expect(none).toMatchObject({ kind: "bad_request", message: expect.stringContaining("this browser has no built-in model") });
  });

  it("fails a prompt longer than the context window as too long (413), saying so", async () => {
    const { LanguageModel } = promptApiStandIn({ contextWindow: 35 });
    const e = await new BuiltInProvider({ languageModel: LanguageModel }).generate(request()).catch((x: unknown) => x);
    expect(e).toMatchObject({ kind: "bad_request", status: promptTooLong, message: expect.stringContaining("longer than Chrome's built-in model can read") });
  });
});
