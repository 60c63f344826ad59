import OpenAI from "openai";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionContentPart, ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { openAiChatTool } from "@baton/sdk/contract";
import { jsonToolInstructions, parseDecision, retryReminder } from "./json-decision.js";
import { classifyOpenAiError } from "./openai-errors.js";
import { defaultRetry, type RetryOptions, withRetries } from "./retry.js";
import type { ModelCall, ModelImage, ModelRequest, ModelTurn, Provider } from "./types.js";
import { acceptsImages, dataUrl, imageLabel, resultFor } from "./vision.js";

/** Options of the Chat Completions provider. */
export interface OpenAiChatOptions {
  readonly apiKey: string;
  /** Any OpenAI-compatible server: OpenRouter, Ollama, vLLM, llama.cpp server… */
  readonly baseURL?: string | undefined;
  /** Tool calls as JSON in the reply text, for servers without native tool support. */
  readonly jsonMode?: boolean;
  /** Reminders after an unusable JSON reply before giving up. */
  readonly jsonRetries?: number;
  readonly retry?: RetryOptions;
  readonly maxTokens?: number;
  /** Provider name in "name:model" (for traces). */
  readonly name?: string;
  /**
   * Stream native-tool answers (text and reasoning reach the client as they arrive); default
   * true. Servers that cannot stream tool calls need false (`BATON_CHAT_STREAM=0`). JSON mode
   * never streams: its text is the decision, not words for the user.
   */
  readonly stream?: boolean;
  /** Whether a model reads images (screenshots); by default by its name (see vision.ts). */
  readonly vision?: (model: string) => boolean;
}

/** Images sent apart from their tool results (a tool message carries text only), each labelled. */
function imageParts(images: readonly { img: ModelImage; tool: string; callId: string }[]): ChatCompletionContentPart[] {
  return images.flatMap(({ img, tool, callId }) => [
    { type: "text" as const, text: imageLabel(img, tool, callId) },
    { type: "image_url" as const, image_url: { url: dataUrl(img) } },
  ]);
}

/** Reasoning text in a message or a delta: `reasoning_content` (DeepSeek, vLLM) or `reasoning` (OpenRouter, Ollama). */
function reasoningOf(m: unknown): string {
  const r = (m as { reasoning_content?: unknown; reasoning?: unknown } | undefined) ?? {};
  const v = r.reasoning_content ?? r.reasoning;
  return typeof v === "string" ? v : "";
}

/**
 * The conversation as Chat Completions messages (native tools). A tool message carries text
 * only, so the screenshots of a turn's results follow them in one user message.
 */
export function toChatMessages(req: ModelRequest, system: string, vision = true): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: "system", content: system }];
  let images: { img: ModelImage; tool: string; callId: string }[] = [];
  const flush = () => {
    if (images.length) out.push({ role: "user", content: imageParts(images) });
    images = [];
  };
  for (const it of req.items) {
    if (it.type !== "tool_result") flush();
    if (it.type === "user") out.push({ role: "user", content: it.text });
    else if (it.type === "assistant") {
      out.push({
        role: "assistant",
        content: it.text || null,
        ...(it.calls.length
          ? { tool_calls: it.calls.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } })) }
          : {}),
      });
    } else {
      const r = resultFor(it, vision);
      out.push({ role: "tool", tool_call_id: it.callId, content: r.output });
      for (const img of r.images) images.push({ img, tool: it.name, callId: it.callId });
    }
  }
  flush();
  return out;
}

/** The conversation for JSON mode: calls and results become plain text turns (their screenshots after them). */
function toJsonMessages(req: ModelRequest, system: string, vision: boolean): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: "system", content: system }];
  let results: string[] = [];
  let images: { img: ModelImage; tool: string; callId: string }[] = [];
  const flush = () => {
    if (!results.length) return;
    const text = `Tool results:\n${results.join("\n")}`;
    out.push({ role: "user", content: images.length ? [{ type: "text", text }, ...imageParts(images)] : text });
    results = [];
    images = [];
  };
  for (const it of req.items) {
    if (it.type === "tool_result") {
      const r = resultFor(it, vision);
      results.push(`${it.name} (${it.callId}) → ${r.output}`);
      for (const img of r.images) images.push({ img, tool: it.name, callId: it.callId });
      continue;
    }
    flush();
    if (it.type === "user") out.push({ role: "user", content: it.text });
    else {
      const calls = it.calls.map((c) => ({ tool: c.name, args: safeParse(c.arguments) }));
      out.push({ role: "assistant", content: JSON.stringify({ text: it.text, calls }) });
    }
  }
  flush();
  return out;
}

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/**
 * OpenAI Chat Completions, for OpenAI itself and every compatible server by base URL. Native
 * tool calls by default; `jsonMode` asks for one JSON decision in the text and hardens the
 * parse (see json-decision.ts), re-asking with the reason when a reply is unusable.
 */
export class OpenAiChatProvider implements Provider {
  readonly name: string;
  private readonly client: OpenAI;

  constructor(private readonly o: OpenAiChatOptions) {
    this.name = o.name ?? (o.jsonMode ? "chat-json" : "chat");
    // The same provider runs in an extension page (standalone mode), with the user's own key.
    this.client = new OpenAI({ apiKey: o.apiKey, baseURL: o.baseURL, maxRetries: 0, timeout: 30 * 60_000, dangerouslyAllowBrowser: true });
  }

  private call(req: ModelRequest, messages: ChatCompletionMessageParam[], tools: ChatCompletionTool[] | undefined) {
    const stream = tools !== undefined && this.o.stream !== false;
    return withRetries(
      req.signal,
      this.o.retry ?? defaultRetry,
      (signal, attempt) => {
        const body = { model: req.model, messages, ...(tools ? { tools } : {}), max_tokens: this.o.maxTokens ?? 4096 };
        if (!stream) return this.client.chat.completions.create({ ...body, stream: false }, { signal });
        if (attempt > 1) req.onStream?.({ kind: "restart", attempt });
        return this.streamed(req, body, signal);
      },
      classifyOpenAiError,
    );
  }

  /**
   * One streamed call, put back together as the completion the server would have sent whole:
   * text and reasoning deltas go to `onStream` as they arrive; tool calls are assembled from
   * their pieces (by index) and returned only when the stream finished.
   */
  private async streamed(
    req: ModelRequest,
    body: { model: string; messages: ChatCompletionMessageParam[]; tools?: ChatCompletionTool[]; max_tokens: number },
    signal: AbortSignal,
  ): Promise<ChatCompletion> {
    const chunks = await this.client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal });
    let content = "";
    let reasoning = "";
    let finish: string | null = null;
    let usage: ChatCompletionChunk["usage"];
    const calls: { id: string; name: string; arguments: string }[] = [];
    for await (const chunk of chunks) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const d = choice.delta ?? {};
      if (d.content) {
        content += d.content;
        req.onStream?.({ kind: "text", delta: d.content });
      }
      const r = reasoningOf(d);
      if (r) {
        reasoning += r;
        req.onStream?.({ kind: "reasoning", delta: r });
      }
      for (const tc of d.tool_calls ?? []) {
        const c = (calls[tc.index] ??= { id: "", name: "", arguments: "" });
        if (tc.id) c.id = tc.id;
        if (tc.function?.name) c.name += tc.function.name;
        if (tc.function?.arguments) c.arguments += tc.function.arguments;
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    if (finish === null) throw new Error("the model's stream ended before the answer was complete");
    return {
      id: "",
      object: "chat.completion",
      created: 0,
      model: body.model,
      choices: [
        {
          index: 0,
          finish_reason: finish as ChatCompletion.Choice["finish_reason"],
          logprobs: null,
          message: {
            role: "assistant",
            content: content || null,
            refusal: null,
            ...(reasoning ? { reasoning_content: reasoning } : {}),
            ...(calls.length ? { tool_calls: calls.filter(Boolean).map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } })) } : {}),
          },
        },
      ],
      ...(usage ? { usage } : {}),
    };
  }

  private sees(model: string): boolean {
    return (this.o.vision ?? ((m) => acceptsImages(this.name, m)))(model);
  }

  async generate(req: ModelRequest): Promise<ModelTurn> {
    return this.o.jsonMode ? this.generateJson(req) : this.generateNative(req);
  }

  private async generateNative(req: ModelRequest): Promise<ModelTurn> {
    const tools = req.tools.map(openAiChatTool) as unknown as ChatCompletionTool[];
    const { value, retries, notes } = await this.call(req, toChatMessages(req, req.system, this.sees(req.model)), tools);
    const msg = value.choices?.[0]?.message;
    const calls: ModelCall[] = [];
    for (const tc of msg?.tool_calls ?? []) {
      if (tc.type === "function") calls.push({ id: tc.id, name: tc.function.name, arguments: tc.function.arguments ?? "" });
    }
    return {
      text: msg?.content ?? "",
      reasoning: reasoningOf(msg),
      calls,
      usage: usageOf(value),
      retries,
      notes,
    };
  }

  private async generateJson(req: ModelRequest): Promise<ModelTurn> {
    const system = `${req.system}\n\n${jsonToolInstructions(req.tools)}`;
    const messages = toJsonMessages(req, system, this.sees(req.model));
    const notes: string[] = [];
    let retries = 0;
    const usage = { input: 0, output: 0, cached: 0 };
    const budget = this.o.jsonRetries ?? 2;
    for (let attempt = 0; ; attempt++) {
      const r = await this.call(req, messages, undefined);
      retries += r.retries;
      notes.push(...r.notes);
      const u = usageOf(r.value);
      usage.input += u.input;
      usage.output += u.output;
      usage.cached += u.cached;
      const choice = r.value.choices?.[0];
      const reply = choice?.message?.content ?? "";
      const parsed = parseDecision(reply, choice?.finish_reason ?? "");
      if (parsed.ok) {
        if (parsed.repaired) notes.push("json: repaired the reply");
        return {
          text: parsed.decision.text,
          reasoning: "",
          calls: parsed.decision.calls.map((c, i) => ({ id: `json_${i}`, ...c })),
          usage,
          retries,
          notes,
        };
      }
      notes.push(`json: ${parsed.failure}: ${parsed.detail}`);
      if (attempt >= budget) {
        // Out of reminders: hand the raw text to the loop as a plain answer rather than fail.
        return { text: reply, reasoning: "", calls: [], usage, retries, notes };
      }
      messages.push({ role: "assistant", content: reply || "(empty)" });
      messages.push({ role: "user", content: retryReminder(parsed.failure, parsed.detail) });
    }
  }
}

function usageOf(c: ChatCompletion): { input: number; output: number; cached: number } {
  const u = c.usage;
  return { input: u?.prompt_tokens ?? 0, output: u?.completion_tokens ?? 0, cached: u?.prompt_tokens_details?.cached_tokens ?? 0 };
}
