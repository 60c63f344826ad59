import OpenAI from "openai";
import type { ResponseInputItem, Tool } from "openai/resources/responses/responses";
import { openAiResponsesTool } from "@baton/sdk/contract";
import { classifyOpenAiError } from "./openai-errors.js";
import { defaultRetry, type RetryOptions, withRetries } from "./retry.js";
import type { ModelCall, ModelRequest, ModelTurn, Provider } from "./types.js";

/** Options of the OpenAI Responses provider. */
export interface OpenAiResponsesOptions {
  readonly apiKey: string;
  /** An OpenAI-compatible Responses endpoint; api.openai.com by default. */
  readonly baseURL?: string | undefined;
  readonly retry?: RetryOptions;
  /** Output token cap per call (2048 and up keeps JSON from being cut off). */
  readonly maxOutputTokens?: number;
}

/** The conversation as Responses input items. */
export function toResponsesInput(req: ModelRequest): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  for (const it of req.items) {
    if (it.type === "user") out.push({ role: "user", content: it.text });
    else if (it.type === "assistant") {
      if (it.text) out.push({ role: "assistant", content: it.text });
      for (const c of it.calls) out.push({ type: "function_call", call_id: c.id, name: c.name, arguments: c.arguments });
    } else out.push({ type: "function_call_output", call_id: it.callId, output: it.output });
  }
  return out;
}

/**
 * OpenAI Responses API with native function calling; tools come from the generated
 * declarations. The SDK's own retries are off: {@link withRetries} owns backoff, Retry-After
 * and per-attempt timeouts, identically for every provider.
 */
export class OpenAiResponsesProvider implements Provider {
  readonly name = "openai";
  private readonly client: OpenAI;

  constructor(private readonly o: OpenAiResponsesOptions) {
    this.client = new OpenAI({ apiKey: o.apiKey, baseURL: o.baseURL, maxRetries: 0, timeout: 30 * 60_000 });
  }

  async generate(req: ModelRequest): Promise<ModelTurn> {
    const tools = req.tools.map(openAiResponsesTool) as unknown as Tool[];
    const { value, retries, notes } = await withRetries(
      req.signal,
      this.o.retry ?? defaultRetry,
      (signal) =>
        this.client.responses.create(
          {
            model: req.model,
            instructions: req.system,
            input: toResponsesInput(req),
            tools,
            max_output_tokens: this.o.maxOutputTokens ?? 4096,
            store: false,
          },
          { signal },
        ),
      classifyOpenAiError,
    );
    let text = "";
    let reasoning = "";
    const calls: ModelCall[] = [];
    for (const item of value.output ?? []) {
      if (item.type === "message") {
        for (const part of item.content ?? []) if (part.type === "output_text") text += part.text;
      } else if (item.type === "function_call") {
        calls.push({ id: item.call_id, name: item.name, arguments: item.arguments ?? "" });
      } else if (item.type === "reasoning") {
        reasoning += (item.summary ?? []).map((s) => s.text).join("\n");
      }
    }
    const u = value.usage;
    return {
      text,
      reasoning,
      calls,
      usage: { input: u?.input_tokens ?? 0, output: u?.output_tokens ?? 0, cached: u?.input_tokens_details?.cached_tokens ?? 0 },
      retries,
      notes,
    };
  }
}
