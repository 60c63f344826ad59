import Anthropic from "@anthropic-ai/sdk";
import type { Message, MessageCreateParamsBase, RawMessageStreamEvent, ThinkingConfigParam, Tool } from "@anthropic-ai/sdk/resources/messages/messages";
import { anthropicTool } from "@baton/sdk/contract";
import { type BlockLayout, type ThinkingBlock, toAnthropicMessages, turnSignature } from "./anthropic-messages.js";
import { type AttemptFailure, defaultRetry, kindForStatus, parseRetryAfter, type RetryOptions, withRetries } from "./retry.js";
import type { ModelCall, ModelRequest, ModelTurn, Provider } from "./types.js";
import { acceptsImages } from "./vision.js";

/** Options of the Anthropic provider. */
export interface AnthropicOptions {
  readonly apiKey: string;
  /** Another endpoint (a proxy, a test server); api.anthropic.com by default. */
  readonly baseURL?: string | undefined;
  readonly retry?: RetryOptions;
  /** Output tokens for the answer itself; a thinking model gets `thinkingTokens` more. */
  readonly maxTokens?: number;
  /** Tokens a thinking model may spend thinking (its budget where the model takes one). */
  readonly thinkingTokens?: number;
  /** Stream the answer (text and thinking reach the client as they arrive); default true. */
  readonly stream?: boolean;
  /** Whether a model reads images (screenshots); every Claude since the 3 family does. */
  readonly vision?: (model: string) => boolean;
}

/** A Claude model's version from its name: `claude-sonnet-4-5-20250929` → 4.5, `claude-3-7-sonnet-…` → 3.7. */
function claudeVersion(model: string): number | undefined {
  const m = /^claude-(?:[a-z]+-(\d+)(?:-(\d)(?!\d))?|(\d+)-(\d)-[a-z])/.exec(model);
  if (!m) return undefined;
  const [major, minor] = m[1] ? [m[1], m[2] ?? "0"] : [m[3], m[4]];
  return Number(major) + Number(minor) / 10;
}

/**
 * How a model is asked to think: the 4.6 models and later decide how much themselves (adaptive
 * thinking, which also thinks between tool calls; their thinking is asked for summarised, as some
 * of them leave it out by default); 3.7 to 4.5 take a token budget; older models do not think.
 */
export function thinkingFor(model: string, budget: number): ThinkingConfigParam | undefined {
  const v = model.startsWith("claude-mythos-preview") ? 5 : claudeVersion(model);
  if (v === undefined || v < 3.7) return undefined;
  if (v >= 4.6) return { type: "adaptive", display: "summarized" };
  return { type: "enabled", budget_tokens: budget };
}

/** The HTTP status an error type stands for, for errors that came inside a stream (no status of their own). */
const statusOfType: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/**
 * Maps whatever the Anthropic SDK threw onto a retry decision, as the OpenAI and Gemini
 * providers do: 429 rate limits, 5xx and 529 "overloaded" retried, 401/403 auth, other 4xx bad
 * requests. An error event inside a stream has no status; its type says which it is.
 */
export function classifyAnthropicError(e: unknown, timedOut: boolean): AttemptFailure {
  if (timedOut || e instanceof Anthropic.APIConnectionTimeoutError) return { kind: "timeout", status: 0, message: "the model call timed out" };
  if (e instanceof Anthropic.APIUserAbortError) return { kind: "aborted", status: 0, message: "aborted" };
  if (e instanceof Anthropic.APIConnectionError) return { kind: "network", status: 0, message: e.message || "connection failed" };
  if (e instanceof Anthropic.APIError) {
    const status = typeof e.status === "number" ? e.status : (statusOfType[e.type ?? ""] ?? 0);
    const message = e.apiMessage ? `${status || e.type} ${e.type ? `${e.type}: ` : ""}${e.apiMessage}` : e.message;
    return { kind: status ? kindForStatus(status) : "server", status, message, retryAfterMs: parseRetryAfter(e.headers) };
  }
  return { kind: "network", status: 0, message: e instanceof Error ? e.message : String(e) };
}

/** One content block of an answer; a tool call's arguments as the text the model wrote. */
type Block = ThinkingBlock | { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; args: string };

/** An answer, streamed or whole, in one shape. */
interface Answer {
  readonly blocks: readonly Block[];
  readonly usage: Partial<Message["usage"]>;
  readonly stop: string | null;
}

function answerOf(m: Message): Answer {
  const blocks: Block[] = [];
  for (const b of m.content) {
    if (b.type === "text") blocks.push({ type: "text", text: b.text });
    else if (b.type === "thinking") blocks.push({ type: "thinking", thinking: b.thinking, signature: b.signature });
    else if (b.type === "redacted_thinking") blocks.push({ type: "redacted_thinking", data: b.data });
    else if (b.type === "tool_use") blocks.push({ type: "tool_use", id: b.id, name: b.name, args: JSON.stringify(b.input ?? {}) });
  }
  return { blocks, usage: m.usage, stop: m.stop_reason };
}

/** Text (or thinking) blocks of one answer run together with a blank line between them, streamed and whole alike. */
const blockGap = "\n\n";

/**
 * Claude through the official `@anthropic-ai/sdk` (Messages API): native tool use from the
 * generated declarations, screenshots as image blocks in their tool results, thinking (adaptive
 * or budgeted by model) returned as reasoning and carried back with the turn's tool calls, and
 * prompt caching on the stable prefix: a breakpoint on the last tool (the tools) and on the
 * system prompt (tools and system), so each step pays full price only for the conversation.
 * Streams by default: text and thinking deltas go to `onStream`; tool calls are assembled from
 * their `input_json_delta` pieces and taken when `message_stop` arrives (a stream without it
 * is a failed attempt, retried). The SDK's own retries are off: {@link withRetries} owns
 * backoff, Retry-After and timeouts, as for every provider.
 */
export class AnthropicProvider implements Provider {
  readonly name = "anthropic";
  private readonly client: Anthropic;

  constructor(private readonly o: AnthropicOptions) {
    this.client = new Anthropic({
      apiKey: o.apiKey,
      baseURL: o.baseURL,
      maxRetries: 0,
      timeout: 30 * 60_000,
      // The same provider runs in an extension page (standalone mode), with the user's own key:
      // the SDK then sends `anthropic-dangerous-direct-browser-access`, which the API requires.
      dangerouslyAllowBrowser: true,
      // The backend traces its model calls itself; the SDK's own spans would count each twice.
      openTelemetry: { traces: false, propagation: false },
    });
  }

  async generate(req: ModelRequest): Promise<ModelTurn> {
    const { messages, thinkingAllowed } = toAnthropicMessages(req, (this.o.vision ?? ((m) => acceptsImages("anthropic", m)))(req.model));
    const budget = this.o.thinkingTokens ?? 4096;
    const thinking = thinkingAllowed ? thinkingFor(req.model, budget) : undefined;
    const tools = req.tools.map(anthropicTool) as unknown as Tool[];
    const last = tools.at(-1);
    if (last) tools[tools.length - 1] = { ...last, cache_control: { type: "ephemeral" } };
    const params: MessageCreateParamsBase = {
      model: req.model,
      system: [{ type: "text", text: req.system, cache_control: { type: "ephemeral" } }],
      messages,
      ...(tools.length ? { tools } : {}),
      max_tokens: (this.o.maxTokens ?? 4096) + (thinking ? budget : 0),
      ...(thinking ? { thinking } : {}),
    };
    const { value, retries, notes } = await withRetries(
      req.signal,
      this.o.retry ?? defaultRetry,
      async (signal, attempt) => {
        if (this.o.stream === false) return answerOf(await this.client.messages.create({ ...params, stream: false }, { signal }));
        if (attempt > 1) req.onStream?.({ kind: "restart", attempt });
        return this.streamed(req, params, signal);
      },
      classifyAnthropicError,
    );
    return this.turnOf(value, thinking !== undefined, retries, notes);
  }

  /**
   * One streamed call, put back together: content blocks by index from their start events and
   * deltas (thinking and its signature, text, the raw text of a tool call's arguments), usage from
   * `message_start` and `message_delta`, complete only at `message_stop`.
   */
  private async streamed(req: ModelRequest, params: MessageCreateParamsBase, signal: AbortSignal): Promise<Answer> {
    const events = await this.client.messages.create({ ...params, stream: true }, { signal });
    const blocks: Block[] = [];
    let usage: Partial<Message["usage"]> = {};
    let stop: string | null = null;
    let done = false;
    // Blocks of one kind run together with a gap, sent before the first piece of each later block.
    const said = { text: false, reasoning: false };
    const gap = { text: false, reasoning: false };
    const emit = (kind: "text" | "reasoning", delta: string) => {
      if (!delta) return;
      if (gap[kind]) req.onStream?.({ kind, delta: blockGap });
      gap[kind] = false;
      said[kind] = true;
      req.onStream?.({ kind, delta });
    };
    const start = (kind: "text" | "reasoning", initial: string) => {
      gap[kind] = said[kind];
      emit(kind, initial);
    };
    for await (const ev of events as AsyncIterable<RawMessageStreamEvent>) {
      if (ev.type === "message_start") usage = { ...ev.message.usage };
      else if (ev.type === "content_block_start") {
        const b = ev.content_block;
        if (b.type === "text") {
          blocks[ev.index] = { type: "text", text: b.text };
          start("text", b.text);
        } else if (b.type === "thinking") {
          blocks[ev.index] = { type: "thinking", thinking: b.thinking, signature: b.signature };
          start("reasoning", b.thinking);
        } else if (b.type === "redacted_thinking") blocks[ev.index] = { type: "redacted_thinking", data: b.data };
        else if (b.type === "tool_use") blocks[ev.index] = { type: "tool_use", id: b.id, name: b.name, args: "" };
      } else if (ev.type === "content_block_delta") {
        const b = blocks[ev.index];
        const d = ev.delta;
        if (d.type === "text_delta" && b?.type === "text") {
          b.text += d.text;
          emit("text", d.text);
        } else if (d.type === "thinking_delta" && b?.type === "thinking") {
          blocks[ev.index] = { ...b, thinking: b.thinking + d.thinking };
          emit("reasoning", d.thinking);
        } else if (d.type === "signature_delta" && b?.type === "thinking") blocks[ev.index] = { ...b, signature: d.signature };
        else if (d.type === "input_json_delta" && b?.type === "tool_use") b.args += d.partial_json;
      } else if (ev.type === "message_delta") {
        stop = ev.delta.stop_reason;
        // Later counts win; a field the delta leaves out (null) keeps the start's.
        for (const [k, v] of Object.entries(ev.usage)) if (v !== null && v !== undefined) (usage as Record<string, unknown>)[k] = v;
      } else if (ev.type === "message_stop") done = true;
    }
    if (!done) throw new Error("the model's stream ended before the answer was complete");
    return { blocks: blocks.filter(Boolean), usage, stop };
  }

  private turnOf(a: Answer, thinking: boolean, retries: number, notes: string[]): ModelTurn {
    const texts: string[] = [];
    const thoughts: string[] = [];
    const calls: ModelCall[] = [];
    const layout: BlockLayout[number][] = [];
    for (const b of a.blocks) {
      if (b.type === "text") {
        if (b.text) texts.push(b.text);
        layout.push({ type: "text" });
      } else if (b.type === "tool_use") {
        calls.push({ id: b.id, name: b.name, arguments: b.args || "{}" });
        layout.push({ type: "tool_use" });
      } else {
        if (b.type === "thinking" && b.thinking) thoughts.push(b.thinking);
        layout.push(b);
      }
    }
    if (a.stop === "max_tokens") notes.push("the answer reached max_tokens and was cut off");
    else if (a.stop === "refusal") notes.push("the model declined to answer (stop reason: refusal)");
    // The turn's thinking blocks and setting travel with its first call, to come back with its results.
    const first = calls[0];
    if (first) calls[0] = { ...first, signature: turnSignature({ layout, thinking }) };
    const u = a.usage;
    const read = u.cache_read_input_tokens ?? 0;
    return {
      text: texts.join(blockGap),
      reasoning: thoughts.join(blockGap),
      calls,
      // Anthropic's input_tokens leaves out what was read from or written to the cache; the turn counts all input.
      usage: { input: (u.input_tokens ?? 0) + read + (u.cache_creation_input_tokens ?? 0), output: u.output_tokens ?? 0, cached: read },
      retries,
      notes,
    };
  }
}
