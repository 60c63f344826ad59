import OpenAI from "openai";
import type { Response, ResponseCreateParamsBase, ResponseInputItem, Tool } from "openai/resources/responses/responses";
import { openAiResponsesTool } from "@baton/sdk/contract";
import { classifyOpenAiError } from "./openai-errors.js";
import { defaultRetry, type RetryOptions, withRetries } from "./retry.js";
import type { ModelCall, ModelRequest, ModelTurn, Provider } from "./types.js";
import { acceptsImages, dataUrl, resultFor } from "./vision.js";

/** Options of the OpenAI Responses provider. */
export interface OpenAiResponsesOptions {
  readonly apiKey: string;
  /** An OpenAI-compatible Responses endpoint; api.openai.com by default. */
  readonly baseURL?: string | undefined;
  readonly retry?: RetryOptions;
  /** Output token cap per call (2048 and up keeps JSON from being cut off). */
  readonly maxOutputTokens?: number;
  /** Stream the answer (text and reasoning reach the client as they arrive); default true. */
  readonly stream?: boolean;
  /** Whether a model reads images (screenshots); by default every model but the old text-only ones. */
  readonly vision?: (model: string) => boolean;
}

/**
 * The conversation as Responses input items. A tool result's screenshots travel inside its
 * `function_call_output`, as `input_image` parts after the text, to a model that reads them.
 */
export function toResponsesInput(req: ModelRequest, vision = true): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  for (const it of req.items) {
    if (it.type === "user") out.push({ role: "user", content: it.text });
    else if (it.type === "assistant") {
      if (it.text) out.push({ role: "assistant", content: it.text });
      for (const c of it.calls) out.push({ type: "function_call", call_id: c.id, name: c.name, arguments: c.arguments });
    } else {
      const { output, images } = resultFor(it, vision);
      out.push({
        type: "function_call_output",
        call_id: it.callId,
        output: images.length
          ? [{ type: "input_text", text: output }, ...images.map((img) => ({ type: "input_image" as const, image_url: dataUrl(img), detail: "auto" as const }))]
          : output,
      });
    }
  }
  return out;
}

/** Reasoning models, whose reasoning summary is asked for (and streamed). */
const reasoningModel = /^(o\d|gpt-5)/;

/** A 400 saying the account may not have reasoning summaries (unverified organisations). */
function summaryRefused(e: unknown): boolean {
  return e instanceof OpenAI.BadRequestError && /summar|verif/i.test(e.message);
}

/**
 * OpenAI Responses API with native function calling; tools come from the generated
 * declarations. Streams by default: text and reasoning-summary deltas go to `onStream` as they
 * arrive, and the turn is read from the final `response.completed` event, so tool calls are
 * taken whole, once. A stream that ends without it is a failed attempt, retried like any.
 * The SDK's own retries are off: {@link withRetries} owns backoff, Retry-After and per-attempt
 * timeouts, identically for every provider.
 */
export class OpenAiResponsesProvider implements Provider {
  readonly name = "openai";
  private readonly client: OpenAI;
  /** Off once the account refused reasoning summaries. */
  private summaries = true;

  constructor(private readonly o: OpenAiResponsesOptions) {
    // The same provider runs in an extension page (standalone mode), with the user's own key.
    this.client = new OpenAI({ apiKey: o.apiKey, baseURL: o.baseURL, maxRetries: 0, timeout: 30 * 60_000, dangerouslyAllowBrowser: true });
  }

  private async once(req: ModelRequest, signal: AbortSignal, attempt: number): Promise<Response> {
    if (attempt > 1) req.onStream?.({ kind: "restart", attempt });
    const summary = this.summaries && reasoningModel.test(req.model);
    const params: ResponseCreateParamsBase = {
      model: req.model,
      instructions: req.system,
      input: toResponsesInput(req, (this.o.vision ?? ((m) => acceptsImages("openai", m)))(req.model)),
      tools: req.tools.map(openAiResponsesTool) as unknown as Tool[],
      max_output_tokens: this.o.maxOutputTokens ?? 4096,
      store: false,
      ...(summary ? { reasoning: { summary: "auto" } } : {}),
    };
    try {
      if (this.o.stream === false) return await this.client.responses.create({ ...params, stream: false }, { signal });
      const stream = await this.client.responses.create({ ...params, stream: true }, { signal });
      for await (const ev of stream) {
        if (ev.type === "response.output_text.delta") req.onStream?.({ kind: "text", delta: ev.delta });
        else if (ev.type === "response.reasoning_summary_text.delta") req.onStream?.({ kind: "reasoning", delta: ev.delta });
        else if (ev.type === "response.completed" || ev.type === "response.incomplete") return ev.response;
        else if (ev.type === "response.failed") throw new Error(`the model call failed: ${ev.response.error?.message ?? "no reason given"}`);
      }
      throw new Error("the model's stream ended before the response was complete");
    } catch (e) {
      if (!summary || !summaryRefused(e)) throw e;
      this.summaries = false;
      return this.once(req, signal, attempt);
    }
  }

  async generate(req: ModelRequest): Promise<ModelTurn> {
    const { value, retries, notes } = await withRetries(req.signal, this.o.retry ?? defaultRetry, (signal, n) => this.once(req, signal, n), classifyOpenAiError);
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
