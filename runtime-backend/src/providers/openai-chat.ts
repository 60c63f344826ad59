import OpenAI from "openai";
import type { ChatCompletion, ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { openAiChatTool } from "@baton/sdk/contract";
import { jsonToolInstructions, parseDecision, retryReminder } from "./json-text.js";
import { classifyOpenAiError } from "./openai-errors.js";
import { defaultRetry, type RetryOptions, withRetries } from "./retry.js";
import type { ModelCall, ModelRequest, ModelTurn, Provider } from "./types.js";

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
}

/** The conversation as Chat Completions messages (native tools). */
export function toChatMessages(req: ModelRequest, system: string): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: "system", content: system }];
  for (const it of req.items) {
    if (it.type === "user") out.push({ role: "user", content: it.text });
    else if (it.type === "assistant") {
      out.push({
        role: "assistant",
        content: it.text || null,
        ...(it.calls.length
          ? { tool_calls: it.calls.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } })) }
          : {}),
      });
    } else out.push({ role: "tool", tool_call_id: it.callId, content: it.output });
  }
  return out;
}

/** The conversation for JSON mode: calls and results become plain text turns. */
function toJsonMessages(req: ModelRequest, system: string): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: "system", content: system }];
  let results: string[] = [];
  for (const it of req.items) {
    if (it.type === "tool_result") {
      results.push(`${it.name} (${it.callId}) → ${it.output}`);
      continue;
    }
    if (results.length) {
      out.push({ role: "user", content: `Tool results:\n${results.join("\n")}` });
      results = [];
    }
    if (it.type === "user") out.push({ role: "user", content: it.text });
    else {
      const calls = it.calls.map((c) => ({ tool: c.name, args: safeParse(c.arguments) }));
      out.push({ role: "assistant", content: JSON.stringify({ text: it.text, calls }) });
    }
  }
  if (results.length) out.push({ role: "user", content: `Tool results:\n${results.join("\n")}` });
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
 * parse (see json-text.ts), re-asking with the reason when a reply is unusable.
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
    return withRetries(
      req.signal,
      this.o.retry ?? defaultRetry,
      (signal) =>
        this.client.chat.completions.create(
          { model: req.model, messages, ...(tools ? { tools } : {}), max_tokens: this.o.maxTokens ?? 4096 },
          { signal },
        ) as Promise<ChatCompletion>,
      classifyOpenAiError,
    );
  }

  async generate(req: ModelRequest): Promise<ModelTurn> {
    return this.o.jsonMode ? this.generateJson(req) : this.generateNative(req);
  }

  private async generateNative(req: ModelRequest): Promise<ModelTurn> {
    const tools = req.tools.map(openAiChatTool) as unknown as ChatCompletionTool[];
    const { value, retries, notes } = await this.call(req, toChatMessages(req, req.system), tools);
    const msg = value.choices?.[0]?.message;
    const calls: ModelCall[] = [];
    for (const tc of msg?.tool_calls ?? []) {
      if (tc.type === "function") calls.push({ id: tc.id, name: tc.function.name, arguments: tc.function.arguments ?? "" });
    }
    const reasoning = (msg as { reasoning?: unknown; reasoning_content?: unknown } | undefined)?.reasoning_content ?? (msg as { reasoning?: unknown } | undefined)?.reasoning;
    return {
      text: msg?.content ?? "",
      reasoning: typeof reasoning === "string" ? reasoning : "",
      calls,
      usage: usageOf(value),
      retries,
      notes,
    };
  }

  private async generateJson(req: ModelRequest): Promise<ModelTurn> {
    const system = `${req.system}\n\n${jsonToolInstructions(req.tools)}`;
    const messages = toJsonMessages(req, system);
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
