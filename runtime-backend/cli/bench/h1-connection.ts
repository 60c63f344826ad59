import net from "node:net";

/** A response: status and body. */
export interface H1Response {
  readonly status: number;
  readonly body: Buffer;
}

const headerEnd = Buffer.from("\r\n\r\n");

/**
 * One keep-alive HTTP/1.1 connection with one request in flight at a time: what a browser, the
 * extension or an SDK client holds per session. The bench's load generator speaks it directly
 * on a socket (as wrk or autocannon do) instead of through `node:http`, whose per-request
 * objects cost the client process about as much CPU as the server spends on its HTTP layer —
 * on a 2-core machine, taken from the server. It sends real requests (request line, headers,
 * `content-length`) and reads real responses: a status line, headers, then a body framed by
 * `content-length` or chunked encoding; anything else rejects.
 */
export class H1Connection {
  private readonly socket: net.Socket;
  private chunks: Buffer[] = [];
  private size = 0;
  private pending: { resolve: (r: H1Response) => void; reject: (e: Error) => void } | undefined;
  private failed: Error | undefined;

  /**
   * @param host target host.
   * @param port target port.
   * @param headers header lines sent with every request (`Name: value`, no CRLF).
   */
  constructor(
    host: string,
    port: number,
    private readonly headers: readonly string[],
  ) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on("data", (c: Buffer) => {
      this.chunks.push(c);
      this.size += c.length;
      this.parse();
    });
    const fail = (e: Error) => {
      this.failed = e;
      this.pending?.reject(e);
      this.pending = undefined;
    };
    this.socket.on("error", fail);
    this.socket.on("close", () => fail(new Error("connection closed")));
  }

  /** POSTs `body` to `path`; resolves with the response once its body is complete. */
  post(path: string, body: Uint8Array): Promise<H1Response> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.pending) return Promise.reject(new Error("a request is already in flight on this connection"));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      const head = `POST ${path} HTTP/1.1\r\n${this.headers.join("\r\n")}\r\ncontent-length: ${body.length}\r\n\r\n`;
      this.socket.cork();
      this.socket.write(head);
      this.socket.write(body);
      this.socket.uncork();
    });
  }

  /** Closes the connection. */
  close(): void {
    this.socket.destroy();
  }

  private parse(): void {
    if (!this.pending) return;
    const buf = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
    this.chunks = [buf];
    const end = buf.indexOf(headerEnd);
    if (end < 0) return;
    const head = buf.toString("latin1", 0, end).split("\r\n");
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head[0] ?? "")?.[1] ?? NaN);
    let length = -1;
    let chunked = false;
    for (const line of head.slice(1)) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === "content-length") length = Number(value);
      else if (name === "transfer-encoding") chunked = value.toLowerCase() === "chunked";
    }
    const start = end + headerEnd.length;
    let body: Buffer | undefined;
    let consumed = 0;
    if (Number.isNaN(status)) return this.abort(new Error(`not an HTTP/1.1 response: ${head[0]}`));
    if (chunked) {
      const parts: Buffer[] = [];
      let at = start;
      for (;;) {
        const eol = buf.indexOf("\r\n", at);
        if (eol < 0) return;
        const n = Number.parseInt(buf.toString("latin1", at, eol), 16);
        if (Number.isNaN(n)) return this.abort(new Error("bad chunk size"));
        if (buf.length < eol + 2 + n + 2) return;
        if (n === 0) {
          consumed = eol + 4;
          break;
        }
        parts.push(buf.subarray(eol + 2, eol + 2 + n));
        at = eol + 2 + n + 2;
      }
      body = Buffer.concat(parts);
    } else if (length >= 0) {
      if (buf.length < start + length) return;
      body = buf.subarray(start, start + length);
      consumed = start + length;
    } else {
      return this.abort(new Error("response without content-length or chunked encoding"));
    }
    const rest = buf.subarray(consumed);
    this.chunks = rest.length ? [rest] : [];
    this.size = rest.length;
    const p = this.pending;
    this.pending = undefined;
    p.resolve({ status, body });
  }

  private abort(e: Error): void {
    this.socket.destroy(e);
  }
}
