/**
 * The wire formats the fake model servers speak: OpenAI Responses, Chat Completions (also
 * OpenRouter, Ollama, vLLM, llama.cpp), Chat Completions carrying JSON-in-text decisions,
 * Anthropic Messages and Gemini generateContent — each as a whole JSON body and, where the API
 * streams, as the server-sent events the real API sends (so the real SDKs parse them).
 */

/** What the fake model answers with: text, tool calls, or both, with an optional reasoning summary. */
export type FakeAnswer =
  | { readonly kind: "text"; readonly text: string; readonly reasoning?: string }
  | {
      readonly kind: "calls";
      readonly calls: readonly { readonly name: string; readonly args: string }[];
      readonly text?: string | null;
      readonly reasoning?: string;
    }
  | { readonly kind: "raw"; readonly content: string; readonly finish?: string };

/** Tokens the fake reports. */
export interface FakeUsage {
  readonly input: number;
  readonly output: number;
  readonly cached: number;
}

/** One API's wire format: the whole answer, and (for APIs that stream) its SSE events. */
export interface WireFormat {
  readonly body: (r: FakeAnswer, usage: FakeUsage) => unknown;
  /** The answer as server-sent events, each a complete `event:`/`data:` block. */
  readonly stream?: (r: FakeAnswer, usage: FakeUsage) => string[];
  /** The body of an HTTP error, where the API has its own shape (a generic one otherwise). */
  readonly error?: (status: number, message: string) => unknown;
  /** An error the API sends inside a stream that had started well (Anthropic's `event: error`). */
  readonly streamError?: (status: number, message: string) => string;
}

function callId(i: number): string {
  return `call_fake_${i}`;
}

/** Splits a text into small pieces, as a model streams it. */
export function pieces(text: string, size = 8): string[] {
  return text.match(new RegExp(`[\\s\\S]{1,${size}}`, "g")) ?? [];
}

function textOf(r: FakeAnswer): string | null {
  return r.kind === "text" ? r.text : r.kind === "raw" ? r.content : (r.text ?? null);
}

function reasoningOf(r: FakeAnswer): string {
  return r.kind === "raw" ? "" : (r.reasoning ?? "");
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

function responsesBody(r: FakeAnswer, u: FakeUsage): Record<string, unknown> {
  const output: unknown[] = [];
  const reasoning = reasoningOf(r);
  if (reasoning) output.push({ type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: reasoning }] });
  const text = textOf(r);
  if (text) output.push({ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] });
  if (r.kind === "calls") {
    r.calls.forEach((c, i) => output.push({ type: "function_call", id: `fc_${i}`, call_id: callId(i), name: c.name, arguments: c.args, status: "completed" }));
  }
  return {
    id: "resp_1",
    object: "response",
    created_at: 1,
    status: "completed",
    model: "fake",
    output,
    usage: {
      input_tokens: u.input,
      output_tokens: u.output,
      total_tokens: u.input + u.output,
      input_tokens_details: { cached_tokens: u.cached },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

/** OpenAI Responses wire format; streams the documented `response.*` events. */
export const responsesWire: WireFormat = {
  body: responsesBody,
  stream(r, u) {
    const whole = responsesBody(r, u);
    const out: string[] = [];
    let seq = 0;
    const ev = (type: string, data: Record<string, unknown>) => out.push(sse({ type, sequence_number: seq++, ...data }, type));
    ev("response.created", { response: { ...whole, status: "in_progress", output: [], usage: null } });
    (whole.output as Record<string, unknown>[]).forEach((item, i) => {
      const id = item.id as string;
      if (item.type === "reasoning") {
        ev("response.output_item.added", { output_index: i, item: { ...item, summary: [] } });
        for (const d of pieces(reasoningOf(r))) ev("response.reasoning_summary_text.delta", { item_id: id, output_index: i, summary_index: 0, delta: d });
        ev("response.reasoning_summary_text.done", { item_id: id, output_index: i, summary_index: 0, text: reasoningOf(r) });
      } else if (item.type === "message") {
        ev("response.output_item.added", { output_index: i, item: { ...item, status: "in_progress", content: [] } });
        for (const d of pieces(textOf(r) ?? "")) ev("response.output_text.delta", { item_id: id, output_index: i, content_index: 0, delta: d, logprobs: [] });
        ev("response.output_text.done", { item_id: id, output_index: i, content_index: 0, text: textOf(r), logprobs: [] });
      } else {
        ev("response.output_item.added", { output_index: i, item: { ...item, arguments: "", status: "in_progress" } });
        for (const d of pieces(item.arguments as string)) ev("response.function_call_arguments.delta", { item_id: id, output_index: i, delta: d });
        ev("response.function_call_arguments.done", { item_id: id, output_index: i, arguments: item.arguments });
      }
      ev("response.output_item.done", { output_index: i, item });
    });
    ev("response.completed", { response: whole });
    return out;
  },
};

function chatUsage(u: FakeUsage) {
  return { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output, prompt_tokens_details: { cached_tokens: u.cached } };
}

function chatFinish(r: FakeAnswer): string {
  return r.kind === "calls" ? "tool_calls" : r.kind === "raw" ? (r.finish ?? "stop") : "stop";
}

/** OpenAI Chat Completions wire format (also OpenRouter, Ollama, vLLM, llama.cpp); streams `chat.completion.chunk`s. */
export const chatWire: WireFormat = {
  body: (r, u) => ({
    id: "chatcmpl_1",
    object: "chat.completion",
    created: 1,
    model: "fake",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: textOf(r),
          ...(reasoningOf(r) ? { reasoning_content: reasoningOf(r) } : {}),
          ...(r.kind === "calls"
            ? { tool_calls: r.calls.map((c, i) => ({ id: callId(i), type: "function", function: { name: c.name, arguments: c.args } })) }
            : {}),
        },
        finish_reason: chatFinish(r),
      },
    ],
    usage: chatUsage(u),
  }),
  stream(r, u) {
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      sse({ id: "chatcmpl_1", object: "chat.completion.chunk", created: 1, model: "fake", choices, ...extra });
    const delta = (d: Record<string, unknown>, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish }]);
    const out = [delta({ role: "assistant", content: "" })];
    for (const d of pieces(reasoningOf(r))) out.push(delta({ reasoning_content: d }));
    for (const d of pieces(textOf(r) ?? "")) out.push(delta({ content: d }));
    if (r.kind === "calls") {
      r.calls.forEach((c, i) => {
        out.push(delta({ tool_calls: [{ index: i, id: callId(i), type: "function", function: { name: c.name, arguments: "" } }] }));
        for (const a of pieces(c.args)) out.push(delta({ tool_calls: [{ index: i, function: { arguments: a } }] }));
      });
    }
    out.push(delta({}, chatFinish(r)));
    out.push(chunk([], { usage: chatUsage(u) }));
    out.push("data: [DONE]\n\n");
    return out;
  },
};

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** Chat Completions carrying JSON-in-text decisions (servers without tool support); never streamed. */
export const chatJsonWire: WireFormat = {
  body(r, u) {
    if (r.kind === "raw") return chatWire.body(r, u);
    const content =
      r.kind === "text"
        ? JSON.stringify({ text: r.text, calls: [] })
        : // Arguments travel as the raw string so malformed arguments stay malformed.
          `{"text": ${JSON.stringify(r.text ?? "")}, "calls": [${r.calls.map((c) => `{"tool": ${JSON.stringify(c.name)}, "args": ${isJson(c.args) ? c.args : JSON.stringify(c.args)}}`).join(", ")}]}`;
    return chatWire.body({ kind: "raw", content }, u);
  },
};

function geminiParts(r: FakeAnswer): unknown[] {
  const parts: unknown[] = [];
  if (reasoningOf(r)) parts.push({ text: reasoningOf(r), thought: true });
  const text = textOf(r);
  if (text) parts.push({ text });
  if (r.kind === "calls") {
    for (const c of r.calls) {
      let args: unknown;
      try {
        args = JSON.parse(c.args);
      } catch {
        // Gemini's wire cannot carry malformed JSON; the closest thing is a wrong-typed object.
        args = { url: 42 };
      }
      parts.push({ functionCall: { name: c.name, args }, thoughtSignature: `sig-${parts.length}` });
    }
  }
  return parts;
}

function geminiUsage(u: FakeUsage) {
  return { promptTokenCount: u.input, candidatesTokenCount: u.output, totalTokenCount: u.input + u.output, cachedContentTokenCount: u.cached };
}

/** Gemini generateContent wire format; streams `streamGenerateContent?alt=sse` chunks. */
export const geminiWire: WireFormat = {
  body: (r, u) => ({
    candidates: [{ content: { role: "model", parts: geminiParts(r) }, finishReason: "STOP", index: 0 }],
    usageMetadata: geminiUsage(u),
    modelVersion: "fake",
  }),
  stream(r, u) {
    const chunk = (parts: unknown[], last = false) =>
      sse({
        candidates: [{ content: { role: "model", parts }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }],
        ...(last ? { usageMetadata: geminiUsage(u) } : {}),
        modelVersion: "fake",
      });
    const out: string[] = [];
    for (const d of pieces(reasoningOf(r))) out.push(chunk([{ text: d, thought: true }]));
    for (const d of pieces(textOf(r) ?? "")) out.push(chunk([{ text: d }]));
    // Function calls arrive whole, in the last chunk.
    const calls = geminiParts(r).filter((p) => (p as { functionCall?: unknown }).functionCall);
    out.push(chunk(calls, true));
    return out;
  },
};

/** Anthropic's error type for an HTTP status, as its error bodies and stream error events name it. */
function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    504: "timeout_error",
    529: "overloaded_error",
  };
  return types[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

function anthropicError(status: number, message: string) {
  return { type: "error", error: { type: anthropicErrorType(status), message }, request_id: "req_fake" };
}

/** Anthropic's tool input, an object on the wire: malformed arguments become the closest thing, a wrong-typed object. */
function anthropicInput(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return { url: 42 };
  }
}

/** Anthropic usage: `input_tokens` counts only what was not read from the cache. */
function anthropicUsage(u: FakeUsage) {
  return { input_tokens: u.input - u.cached, output_tokens: u.output, cache_read_input_tokens: u.cached, cache_creation_input_tokens: 0 };
}

function anthropicStop(r: FakeAnswer): string {
  return r.kind === "calls" ? "tool_use" : r.kind === "raw" && r.finish === "length" ? "max_tokens" : "end_turn";
}

/** The content blocks of an answer: a thinking block (with its signature), the text, the tool calls. */
function anthropicContent(r: FakeAnswer): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (reasoningOf(r)) out.push({ type: "thinking", thinking: reasoningOf(r), signature: "sig-thinking-0" });
  const text = textOf(r);
  if (text) out.push({ type: "text", text });
  if (r.kind === "calls") r.calls.forEach((c, i) => out.push({ type: "tool_use", id: `toolu_fake_${i}`, name: c.name, input: anthropicInput(c.args) }));
  return out;
}

function anthropicMessage(content: unknown[], stop: string | null, usage: Record<string, number>) {
  return { id: "msg_fake_1", type: "message", role: "assistant", model: "fake", content, stop_reason: stop, stop_sequence: null, usage };
}

/**
 * Anthropic Messages wire format (`POST /v1/messages`); streams the documented events:
 * `message_start`, a `ping`, per content block `content_block_start`, its deltas (`thinking_delta`
 * then `signature_delta`, `text_delta`, `input_json_delta` with the raw argument text) and
 * `content_block_stop`, then `message_delta` (stop reason, output tokens) and `message_stop`.
 * Errors have Anthropic's body (`{"type":"error","error":{"type":"overloaded_error",…}}`).
 */
export const anthropicWire: WireFormat = {
  body: (r, u) => anthropicMessage(anthropicContent(r), anthropicStop(r), anthropicUsage(u)),
  stream(r, u) {
    const out: string[] = [];
    const ev = (type: string, data: Record<string, unknown> = {}) => out.push(sse({ type, ...data }, type));
    const usage = anthropicUsage(u);
    ev("message_start", { message: anthropicMessage([], null, { ...usage, output_tokens: 1 }) });
    ev("ping");
    const blocks = anthropicContent(r);
    blocks.forEach((block, index) => {
      if (block.type === "thinking") {
        ev("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
        for (const d of pieces(block.thinking as string)) ev("content_block_delta", { index, delta: { type: "thinking_delta", thinking: d } });
        ev("content_block_delta", { index, delta: { type: "signature_delta", signature: block.signature } });
      } else if (block.type === "text") {
        ev("content_block_start", { index, content_block: { type: "text", text: "" } });
        for (const d of pieces(block.text as string)) ev("content_block_delta", { index, delta: { type: "text_delta", text: d } });
      } else {
        ev("content_block_start", { index, content_block: { ...block, input: {} } });
        // The arguments as the model wrote them, malformed or not: the raw text streams.
        const call = r.kind === "calls" ? r.calls[blocks.slice(0, index).filter((b) => b.type === "tool_use").length] : undefined;
        for (const d of pieces(call?.args ?? "{}")) ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: d } });
      }
      ev("content_block_stop", { index });
    });
    ev("message_delta", { delta: { stop_reason: anthropicStop(r), stop_sequence: null }, usage: { output_tokens: u.output } });
    ev("message_stop");
    return out;
  },
  error: anthropicError,
  streamError: (status, message) => sse(anthropicError(status, message), "error"),
};
