import { ApiError, type Content, type FunctionDeclaration, type GenerateContentParameters, type GenerateContentResponse, GoogleGenAI, type Part } from "@google/genai";
import { geminiFunctionDeclaration } from "@baton/sdk/contract";
import { type AttemptFailure, defaultRetry, kindForStatus, parseRetryAfter, type RetryOptions, withRetries } from "./retry.js";
import type { ModelCall, ModelRequest, ModelTurn, Provider } from "./types.js";
import { acceptsImages, base64Of, imageLabel, resultFor } from "./vision.js";

/** Options of the Gemini provider. */
export interface GeminiOptions {
  readonly apiKey: string;
  /** Another endpoint (a proxy, a test server); Google's by default. */
  readonly baseUrl?: string | undefined;
  readonly retry?: RetryOptions;
  readonly maxOutputTokens?: number;
  /** Stream the answer (text and thoughts reach the client as they arrive); default true. */
  readonly stream?: boolean;
  /** Whether a model reads images (screenshots); every Gemini model does by default. */
  readonly vision?: (model: string) => boolean;
}

/** Thinking models, whose thought summaries are asked for (and streamed). */
const thinkingModel = /^gemini-(2\.5|[3-9])/;

/** The parts of a streamed answer, put together in order; function calls arrive whole. */
function joinChunks(chunks: readonly GenerateContentResponse[]): GenerateContentResponse {
  const parts: Part[] = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
  const last = chunks.at(-1);
  return { candidates: [{ content: { role: "model", parts }, finishReason: last?.candidates?.[0]?.finishReason }], usageMetadata: last?.usageMetadata } as GenerateContentResponse;
}

/** Arguments or a result as the object Gemini wants; text that is not a JSON object (a fenced result) goes under `key`. */
function argsObject(s: string, key = "unparsed"): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(s || "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { [key]: s };
  }
}

/**
 * The conversation as Gemini contents: calls are `functionCall` parts, results
 * `functionResponse` parts, and the results' screenshots `inlineData` parts (each after a text
 * label) at the end of the same user turn.
 */
export function toGeminiContents(req: ModelRequest, vision = true): Content[] {
  const out: Content[] = [];
  let images: Part[] = [];
  const flush = () => {
    out.at(-1)?.parts?.push(...images);
    images = [];
  };
  for (const it of req.items) {
    if (it.type !== "tool_result") flush();
    if (it.type === "user") out.push({ role: "user", parts: [{ text: it.text }] });
    else if (it.type === "assistant") {
      const parts: Part[] = [];
      if (it.text) parts.push({ text: it.text });
      for (const c of it.calls) {
        // Gemini 3 rejects a replayed function call without the thought signature it came with.
        parts.push({ functionCall: { id: c.id, name: c.name, args: argsObject(c.arguments) }, ...(c.signature ? { thoughtSignature: c.signature } : {}) });
      }
      if (parts.length) out.push({ role: "model", parts });
    } else {
      const r = resultFor(it, vision);
      const part: Part = { functionResponse: { id: it.callId, name: it.name, response: argsObject(r.output, "output") } };
      // Consecutive results travel in one user turn, as the API expects.
      const last = out.at(-1);
      if (last?.role === "user" && last.parts?.every((p) => p.functionResponse)) last.parts.push(part);
      else out.push({ role: "user", parts: [part] });
      for (const img of r.images) {
        images.push({ text: imageLabel(img, it.name, it.callId) }, { inlineData: { mimeType: img.mimeType, data: base64Of(img.data) } });
      }
    }
  }
  flush();
  return out;
}

/**
 * Gemini through @google/genai with native function calling from the generated declarations.
 * Streams by default (text and thought deltas go to `onStream`; function calls arrive whole in
 * their chunk and are taken when the stream has finished). The SDK's retries are off; a wrapped fetch captures Retry-After (ApiError does not carry
 * headers) so backoff honours it like the other providers.
 */
export class GeminiProvider implements Provider {
  readonly name = "gemini";

  constructor(private readonly o: GeminiOptions) {}

  async generate(req: ModelRequest): Promise<ModelTurn> {
    let retryAfterMs: number | undefined;
    const ai = new GoogleGenAI({
      apiKey: this.o.apiKey,
      httpOptions: {
        ...(this.o.baseUrl ? { baseUrl: this.o.baseUrl } : {}),
        retryOptions: { attempts: 1 },
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          retryAfterMs = res.ok ? undefined : parseRetryAfter(res.headers);
          return res;
        },
      },
    });
    const functionDeclarations = req.tools.map(geminiFunctionDeclaration) as unknown as FunctionDeclaration[];
    const classify = (e: unknown, timedOut: boolean): AttemptFailure => {
      if (timedOut) return { kind: "timeout", status: 0, message: "the model call timed out" };
      if (e instanceof ApiError) return { kind: kindForStatus(e.status), status: e.status, message: e.message, retryAfterMs };
      return { kind: "network", status: 0, message: e instanceof Error ? e.message : String(e) };
    };
    const params = (signal: AbortSignal): GenerateContentParameters => ({
      model: req.model,
      contents: toGeminiContents(req, (this.o.vision ?? ((m) => acceptsImages("gemini", m)))(req.model)),
      config: {
        systemInstruction: req.system,
        tools: [{ functionDeclarations }],
        maxOutputTokens: this.o.maxOutputTokens ?? 4096,
        abortSignal: signal,
        ...(thinkingModel.test(req.model) ? { thinkingConfig: { includeThoughts: true } } : {}),
      },
    });
    const streamed = async (signal: AbortSignal, attempt: number): Promise<GenerateContentResponse> => {
      if (attempt > 1) req.onStream?.({ kind: "restart", attempt });
      const chunks: GenerateContentResponse[] = [];
      for await (const chunk of await ai.models.generateContentStream(params(signal))) {
        chunks.push(chunk);
        for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
          if (typeof part.text === "string" && part.text && !part.functionCall) req.onStream?.({ kind: part.thought ? "reasoning" : "text", delta: part.text });
        }
      }
      // An answer always ends with a finish reason: without one the stream was cut.
      if (!chunks.some((c) => c.candidates?.[0]?.finishReason)) throw new Error("the model's stream ended before the answer was complete");
      return joinChunks(chunks);
    };
    const { value, retries, notes } = await withRetries(
      req.signal,
      this.o.retry ?? defaultRetry,
      (signal, attempt) => (this.o.stream === false ? ai.models.generateContent(params(signal)) : streamed(signal, attempt)),
      classify,
    );
    let text = "";
    let reasoning = "";
    const calls: ModelCall[] = [];
    for (const part of value.candidates?.[0]?.content?.parts ?? []) {
      if (part.functionCall?.name) {
        calls.push({
          id: part.functionCall.id ?? "",
          name: part.functionCall.name,
          arguments: JSON.stringify(part.functionCall.args ?? {}),
          ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}),
        });
      } else if (typeof part.text === "string") {
        if (part.thought) reasoning += part.text;
        else text += part.text;
      }
    }
    const u = value.usageMetadata;
    return {
      text,
      reasoning,
      calls,
      usage: { input: u?.promptTokenCount ?? 0, output: (u?.candidatesTokenCount ?? 0) + (u?.thoughtsTokenCount ?? 0), cached: u?.cachedContentTokenCount ?? 0 },
      retries,
      notes,
    };
  }
}
