import http from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeAnswer, FakeUsage, WireFormat } from "./fake-llm-wire.js";

export { anthropicWire, chatJsonWire, chatWire, type FakeAnswer, type FakeUsage, geminiWire, pieces, responsesWire, type WireFormat } from "./fake-llm-wire.js";

/** What the fake model should do for one request. */
export type FakeReply =
  | FakeAnswer
  | { readonly kind: "status"; readonly status: number; readonly headers?: Record<string, string>; readonly message?: string }
  | { readonly kind: "hang" }
  /** Starts streaming the answer, then sends the API's error event instead of the rest (wires that have one). */
  | { readonly kind: "stream_error"; readonly status: number; readonly message?: string; readonly answer: FakeAnswer }
  /** Starts answering, then drops the connection: half the stream's events, or nothing unstreamed. */
  | { readonly kind: "cut"; readonly answer: FakeAnswer };

/** A reply, or a function of the request's parsed body (a "model" that reads its prompt). */
export type FakeStep = FakeReply | ((body: unknown) => FakeReply);

/** Options of {@link FakeLlmServer}. */
export interface FakeLlmOptions {
  /** Pause between streamed events, so a client sees deltas arrive over time. */
  readonly chunkDelayMs?: number;
  /** Answers any origin's CORS preflight and lets it read the replies, as a hosted API does for a page (an extension's standalone mode). */
  readonly cors?: boolean;
  /** Pause before each answer, as a model's time to its first token (benchmarks). */
  readonly latencyMs?: number;
}

/** True when the request asks for a stream: OpenAI's `stream: true`, Gemini's `:streamGenerateContent`. */
function wantsStream(path: string, body: unknown): boolean {
  return path.includes(":streamGenerateContent") || (typeof body === "object" && body !== null && (body as { stream?: unknown }).stream === true);
}

/**
 * A local HTTP server that answers like a model API: each request takes the next scripted
 * reply (the last one repeats), rendered in the given wire format, whole or as server-sent
 * events when the request asks to stream. Records request bodies, paths and headers.
 */
export class FakeLlmServer {
  readonly bodies: unknown[] = [];
  readonly paths: string[] = [];
  /** Each request's headers (Node lower-cases their names). */
  readonly headers: http.IncomingHttpHeaders[] = [];
  private replies: FakeStep[] = [];
  private readonly server: http.Server;
  private readonly hanging = new Set<http.ServerResponse>();
  url = "";

  constructor(
    private readonly wire: WireFormat,
    private readonly usage: FakeUsage | ((body: unknown) => FakeUsage) = { input: 11, output: 7, cached: 0 },
    private readonly options: FakeLlmOptions = {},
  ) {
    this.server = http.createServer((req, res) => {
      if (options.cors) {
        res.setHeader("access-control-allow-origin", "*");
        if (req.method === "OPTIONS") {
          const headers = req.headers["access-control-request-headers"] ?? "*";
          res.writeHead(204, { "access-control-allow-methods": "POST, GET", "access-control-allow-headers": headers, "access-control-max-age": "600" });
          res.end();
          return;
        }
      }
      let raw = "";
      req.on("data", (c: Buffer) => (raw += c.toString()));
      req.on("end", () => {
        this.headers.push(req.headers);
        void this.answer(req.url ?? "", raw, res);
      });
    });
  }

  private async answer(path: string, raw: string, res: http.ServerResponse): Promise<void> {
    this.paths.push(path);
    let body: unknown;
    try {
      body = JSON.parse(raw || "{}");
    } catch {
      body = raw;
    }
    this.bodies.push(body);
    const step = (this.replies.length > 1 ? this.replies.shift() : this.replies[0]) ?? { kind: "text", text: "" };
    const reply = typeof step === "function" ? step(body) : step;
    if (reply.kind === "hang") {
      this.hanging.add(res);
      res.on("close", () => this.hanging.delete(res));
      return;
    }
    if (reply.kind === "status" || (reply.kind === "stream_error" && !wantsStream(path, body))) {
      const message = reply.message ?? `fake ${reply.status}`;
      res.writeHead(reply.status, { "content-type": "application/json", ...("headers" in reply ? reply.headers : {}) });
      res.end(JSON.stringify(this.wire.error?.(reply.status, message) ?? { error: { message, type: "server_error", code: reply.status, status: "UNAVAILABLE" } }));
      return;
    }
    if (this.options.latencyMs) await new Promise((r) => setTimeout(r, this.options.latencyMs));
    const answer = reply.kind === "cut" || reply.kind === "stream_error" ? reply.answer : reply;
    const usage = typeof this.usage === "function" ? this.usage(body) : this.usage;
    if (!wantsStream(path, body) || !this.wire.stream) {
      if (reply.kind === "cut") return void res.destroy();
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(this.wire.body(answer, usage)));
      return;
    }
    const events = this.wire.stream(answer, usage);
    const half = events.slice(0, Math.max(1, Math.floor(events.length / 2)));
    const send =
      reply.kind === "cut" ? half : reply.kind === "stream_error" && this.wire.streamError ? [...half, this.wire.streamError(reply.status, reply.message ?? `fake ${reply.status}`)] : events;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const e of send) {
      if (res.destroyed) return;
      res.write(e);
      if (this.options.chunkDelayMs) await new Promise((r) => setTimeout(r, this.options.chunkDelayMs));
    }
    if (reply.kind === "cut") res.destroy();
    else res.end();
  }

  /** Starts listening on 127.0.0.1 on a free port. */
  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Replaces the reply script and clears the recorded requests. */
  script(...replies: FakeStep[]): void {
    this.replies = replies;
    this.bodies.length = 0;
    this.paths.length = 0;
    this.headers.length = 0;
  }

  /** Stops the server (hanging requests are cut). */
  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
