import http from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake model should do for one request. */
export type FakeReply =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "calls"; readonly calls: readonly { readonly name: string; readonly args: string }[]; readonly text?: string | null }
  | { readonly kind: "raw"; readonly content: string; readonly finish?: string }
  | { readonly kind: "status"; readonly status: number; readonly headers?: Record<string, string>; readonly message?: string }
  | { readonly kind: "hang" };

/** Tokens the fake reports. */
export interface FakeUsage {
  readonly input: number;
  readonly output: number;
  readonly cached: number;
}

/** Renders a reply in one API's wire format. */
export type WireFormat = (r: Exclude<FakeReply, { kind: "status" | "hang" }>, usage: FakeUsage) => unknown;

function callId(i: number): string {
  return `call_fake_${i}`;
}

/** OpenAI Responses wire format. */
export const responsesWire: WireFormat = (r, u) => {
  const output: unknown[] = [];
  const text = r.kind === "text" ? r.text : r.kind === "raw" ? r.content : (r.text ?? null);
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
};

/** OpenAI Chat Completions wire format (also OpenRouter, Ollama, vLLM, llama.cpp). */
export const chatWire: WireFormat = (r, u) => ({
  id: "chatcmpl_1",
  object: "chat.completion",
  created: 1,
  model: "fake",
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content: r.kind === "text" ? r.text : r.kind === "raw" ? r.content : (r.text ?? null),
        ...(r.kind === "calls"
          ? { tool_calls: r.calls.map((c, i) => ({ id: callId(i), type: "function", function: { name: c.name, arguments: c.args } })) }
          : {}),
      },
      finish_reason: r.kind === "calls" ? "tool_calls" : r.kind === "raw" ? (r.finish ?? "stop") : "stop",
    },
  ],
  usage: {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cached },
  },
});

/** Chat Completions carrying JSON-in-text decisions (servers without tool support). */
export const chatJsonWire: WireFormat = (r, u) => {
  if (r.kind === "raw") return chatWire(r, u);
  const content =
    r.kind === "text"
      ? JSON.stringify({ text: r.text, calls: [] })
      : // Arguments travel as the raw string so malformed arguments stay malformed.
        `{"text": ${JSON.stringify(r.text ?? "")}, "calls": [${r.calls.map((c) => `{"tool": ${JSON.stringify(c.name)}, "args": ${isJson(c.args) ? c.args : JSON.stringify(c.args)}}`).join(", ")}]}`;
  return chatWire({ kind: "raw", content }, u);
};

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** Gemini generateContent wire format. */
export const geminiWire: WireFormat = (r, u) => {
  const parts: unknown[] = [];
  const text = r.kind === "text" ? r.text : r.kind === "raw" ? r.content : r.text;
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
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: u.input, candidatesTokenCount: u.output, totalTokenCount: u.input + u.output, cachedContentTokenCount: u.cached },
    modelVersion: "fake",
  };
};

/**
 * A local HTTP server that answers like a model API: each request takes the next scripted
 * reply (the last one repeats), rendered in the given wire format. Records request bodies.
 */
export class FakeLlmServer {
  readonly bodies: unknown[] = [];
  readonly paths: string[] = [];
  private replies: FakeReply[] = [];
  private readonly server: http.Server;
  private readonly hanging = new Set<http.ServerResponse>();
  url = "";

  /**
   * @param o.cors answers any origin's CORS preflight and lets it read the replies, as a hosted
   *   API does for a browser client (a page, an extension's standalone mode).
   */
  constructor(
    private readonly wire: WireFormat,
    private readonly usage: FakeUsage = { input: 11, output: 7, cached: 0 },
    o: { readonly cors?: boolean } = {},
  ) {
    this.server = http.createServer((req, res) => {
      if (o.cors) {
        res.setHeader("access-control-allow-origin", "*");
        if (req.method === "OPTIONS") {
          res.writeHead(204, { "access-control-allow-methods": "POST, GET", "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*", "access-control-max-age": "600" });
          res.end();
          return;
        }
      }
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        this.paths.push(req.url ?? "");
        try {
          this.bodies.push(JSON.parse(body || "{}"));
        } catch {
          this.bodies.push(body);
        }
        const reply = (this.replies.length > 1 ? this.replies.shift() : this.replies[0]) ?? { kind: "text", text: "" };
        if (reply.kind === "hang") {
          this.hanging.add(res);
          res.on("close", () => this.hanging.delete(res));
          return;
        }
        if (reply.kind === "status") {
          res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
          res.end(JSON.stringify({ error: { message: reply.message ?? `fake ${reply.status}`, type: "server_error", code: reply.status, status: "UNAVAILABLE" } }));
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(this.wire(reply, this.usage)));
      });
    });
  }

  /** Starts listening on 127.0.0.1 on a free port. */
  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Replaces the reply script and clears the recorded requests. */
  script(...replies: FakeReply[]): void {
    this.replies = replies;
    this.bodies.length = 0;
    this.paths.length = 0;
  }

  /** Stops the server (hanging requests are cut). */
  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
