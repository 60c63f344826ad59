import WebSocket from "ws";
import { CdpClosedError, CdpError, type CdpEvent, type CdpTransport, Listeners } from "../cdp/transport.js";

interface Pending {
  readonly method: string;
  readonly resolve: (value: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;
}

interface WireMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code?: number; message?: string };
  sessionId?: string;
}

/**
 * CDP over the WebSocket Chromium opens with `--remote-debugging-port`. Connect to the browser
 * endpoint (`ws://127.0.0.1:PORT/devtools/browser/…`) and address pages through flat sessions.
 */
export class WebSocketTransport implements CdpTransport {
  readonly #ws: WebSocket;
  readonly #pending = new Map<number, Pending>();
  readonly #events = new Listeners<CdpEvent>();
  readonly #closes = new Listeners<string>();
  #nextId = 1;
  #closed = false;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.on("message", (data) => this.#onMessage(String(data)));
    ws.on("close", () => this.#shutdown("websocket closed"));
    ws.on("error", (e) => this.#shutdown(`websocket error: ${e.message}`));
  }

  /** Opens the WebSocket; rejects if it does not open within `timeoutMs`. */
  static connect(url: string, timeoutMs = 10_000): Promise<WebSocketTransport> {
    return new Promise((resolve, reject) => {
      // CDP messages (screenshots, big AX trees) can be large; no payload cap, no compression.
      const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 512 * 1024 * 1024 });
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error(`CDP WebSocket ${url} did not open within ${timeoutMs} ms`));
      }, timeoutMs);
      ws.once("open", () => {
        clearTimeout(timer);
        resolve(new WebSocketTransport(ws));
      });
      ws.once("error", (e) => {
        clearTimeout(timer);
        reject(new Error(`CDP WebSocket ${url}: ${e.message}`));
      });
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  send<R = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<R> {
    if (this.#closed) return Promise.reject(new CdpClosedError(method, "already closed"));
    const id = this.#nextId++;
    const message: WireMessage = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    return new Promise<R>((resolve, reject) => {
      this.#pending.set(id, { method, resolve: resolve as (v: Record<string, unknown>) => void, reject });
      this.#ws.send(JSON.stringify(message), (err) => {
        if (err) {
          this.#pending.delete(id);
          reject(new CdpClosedError(method, err.message));
        }
      });
    });
  }

  onEvent(listener: (event: CdpEvent) => void): () => void {
    return this.#events.add(listener);
  }

  onClose(listener: (reason: string) => void): () => void {
    return this.#closes.add(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    const done = new Promise<void>((resolve) => this.#ws.once("close", () => resolve()));
    this.#ws.close();
    // A peer that never answers the close handshake must not hang the caller.
    await Promise.race([done, new Promise((r) => setTimeout(r, 1000))]);
    this.#ws.terminate();
    this.#shutdown("closed by client");
  }

  #onMessage(text: string): void {
    let msg: WireMessage;
    try {
      msg = JSON.parse(text) as WireMessage;
    } catch {
      return;
    }
    if (typeof msg.id === "number") {
      const pending = this.#pending.get(msg.id);
      if (!pending) return;
      this.#pending.delete(msg.id);
      if (msg.error) pending.reject(new CdpError(pending.method, msg.error.message ?? "error", msg.error.code));
      else pending.resolve(msg.result ?? {});
      return;
    }
    if (msg.method) {
      this.#events.emit({ method: msg.method, params: msg.params ?? {}, sessionId: msg.sessionId });
    }
  }

  #shutdown(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const p of this.#pending.values()) p.reject(new CdpClosedError(p.method, reason));
    this.#pending.clear();
    this.#closes.emit(reason);
  }
}
