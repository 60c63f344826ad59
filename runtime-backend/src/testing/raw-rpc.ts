import http from "node:http";
import http2 from "node:http2";
import { gzipSync } from "node:zlib";
import type { DescMethod } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import type { Wire } from "./bad-inputs.js";

/** How the server answered a raw request. */
export interface RawAnswer {
  /** The Connect code in snake_case ("ok" for success). */
  readonly code: string;
  /** The HTTP status. */
  readonly status: number;
  readonly message: string;
}

/** A Connect code as the protocol writes it: InvalidArgument → "invalid_argument". */
export function codeName(code: Code): string {
  return Code[code].replace(/[A-Z]/g, (c, i: number) => (i ? "_" : "") + c.toLowerCase());
}

function envelope(flags: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + data.length);
  out[0] = flags;
  new DataView(out.buffer).setUint32(1, data.length);
  out.set(data, 5);
  return out;
}

function* envelopes(bytes: Uint8Array): Generator<{ flags: number; data: Uint8Array }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 5 <= bytes.length; ) {
    const length = view.getUint32(at + 1);
    yield { flags: bytes[at] as number, data: bytes.subarray(at + 5, at + 5 + length) };
    at += 5 + length;
  }
}

/** Options of {@link sendRaw}. */
export interface RawOptions {
  /** The `Authorization` header; none when undefined. */
  readonly authorization?: string | undefined;
  /** Send this body as it is (a corrupt compressed body), with the wire's compression header. */
  readonly precompressed?: boolean;
  readonly timeoutMs?: number;
}

function connectAnswer(status: number, body: Buffer, streaming: boolean): RawAnswer {
  if (streaming && status === 200) {
    // The last envelope of a Connect stream is its end: JSON with an error or nothing.
    let end: { error?: { code?: string; message?: string } } = {};
    for (const e of envelopes(body)) if (e.flags & 2) end = JSON.parse(Buffer.from(e.data).toString()) as typeof end;
    return { code: end.error?.code ?? "ok", status, message: end.error?.message ?? "" };
  }
  if (status === 200) return { code: "ok", status, message: "" };
  try {
    const j = JSON.parse(body.toString()) as { code?: string; message?: string };
    return { code: j.code ?? `http_${status}`, status, message: j.message ?? "" };
  } catch {
    return { code: `http_${status}`, status, message: body.toString().slice(0, 200) };
  }
}

/**
 * Sends one request body to a method over a chosen wire, byte for byte as given (no client
 * library in between that would refuse to send it), and reads the code the server answers.
 */
export function sendRaw(baseUrl: string, method: DescMethod, wire: Wire, body: Uint8Array, o: RawOptions = {}): Promise<RawAnswer> {
  const path = `/${method.parent.typeName}/${method.name}`;
  const streaming = method.methodKind !== "unary";
  const auth: Record<string, string> = o.authorization ? { authorization: o.authorization } : {};
  const gzip = wire === "connect-proto-gzip";
  const signal = AbortSignal.timeout(o.timeoutMs ?? 30_000);
  if (wire === "grpc") {
    return new Promise((resolve, reject) => {
      // Node's default of 10 MB would make the client reset its own stream while a big body is queued.
      const session = http2.connect(baseUrl, { maxSessionMemory: 1024 });
      session.on("error", reject);
      const req = session.request(
        { ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers", ...auth },
        { signal },
      );
      let status = 0;
      let grpc: { status?: string; message?: string } = {};
      const read = (h: http2.IncomingHttpHeaders) => {
        if (h["grpc-status"] !== undefined) grpc = { status: String(h["grpc-status"]), message: decodeURIComponent(String(h["grpc-message"] ?? "")) };
      };
      req.on("response", (h) => {
        status = Number(h[":status"]);
        read(h);
      });
      req.on("trailers", read);
      req.on("data", () => undefined);
      const answer = (): RawAnswer => {
        const n = Number(grpc.status ?? NaN);
        return { code: Number.isNaN(n) ? `http_${status}` : n === 0 ? "ok" : codeName(n as Code), status, message: grpc.message ?? "" };
      };
      req.on("end", () => {
        session.close();
        resolve(answer());
      });
      req.on("error", (e) => {
        session.close();
        // A server that answered before reading the whole body resets the rest of the stream:
        // the answer it gave stands.
        if (grpc.status !== undefined) resolve(answer());
        else reject(e);
      });
      req.end(envelope(0, body));
    });
  }
  const json = wire === "connect-json";
  const type = streaming ? (json ? "application/connect+json" : "application/connect+proto") : json ? "application/json" : "application/proto";
  let payload = body;
  const headers: Record<string, string> = { "content-type": type, "connect-protocol-version": "1", ...auth };
  if (streaming) {
    const data = gzip && !o.precompressed ? gzipSync(body) : body;
    payload = envelope(gzip ? 1 : 0, data);
    if (gzip) headers["connect-content-encoding"] = "gzip";
  } else if (gzip) {
    payload = o.precompressed ? body : gzipSync(body);
    headers["content-encoding"] = "gzip";
  }
  headers["content-length"] = String(payload.length);
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, { method: "POST", headers, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve(connectAnswer(res.statusCode ?? 0, Buffer.concat(chunks), streaming)));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(Buffer.from(payload));
  });
}
