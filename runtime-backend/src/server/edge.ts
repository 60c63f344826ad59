import { type DescMethod, fromBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, type ContextValues } from "@connectrpc/connect";
import type { Compression, UniversalHandler, UniversalServerRequest } from "@connectrpc/connect/protocol";
import { isAnonymous, refuseAccess } from "./access.js";
import { clientAddress, type ClientRateLimiter } from "./rate-limit.js";
import { maxRequestBytes } from "./validate.js";

/** What the edge checks requests with: the server's limits and the compressions it accepts. */
export interface EdgeOptions {
  /** Byte limit of a method without a `(baton.v1.method)` limit. */
  readonly readMaxBytes: number;
  readonly acceptCompression: readonly Compression[];
  /** Limits the calls each client address makes to the methods anyone may call (`access.ts`, `isAnonymous`). */
  readonly anonymousLimit?: ClientRateLimiter | undefined;
}

/**
 * What is refused before a request's body is read: credentials missing or malformed for the
 * method's declared access (`access.ts`: a bearer token, or the console's cookie from the
 * console's own origin; work before authentication is what a flood of anonymous requests
 * buys), and a declared body larger than the method accepts. Unknown tokens and cookies are the
 * handler's to refuse.
 */
function refuseEarly(header: (name: string) => string | null | undefined, limit: number, method: DescMethod): ConnectError | undefined {
  const denied = refuseAccess(header, method);
  if (denied) return denied;
  const length = Number(header("content-length") ?? NaN);
  if (length > limit) {
    return new ConnectError(`request of ${length} bytes: ${method.name} accepts at most ${limit}`, Code.ResourceExhausted);
  }
  return undefined;
}

/**
 * Decompresses a message or envelope with the named encoding. The accepted compressions
 * (`compression.ts`) already call a corrupt body the client's fault.
 */
async function decompress(bytes: Uint8Array, encoding: string | null, o: EdgeOptions, limit: number): Promise<Uint8Array | undefined> {
  if (!encoding || encoding === "identity") return bytes;
  const c = o.acceptCompression.find((x) => x.name === encoding);
  // An encoding the server does not accept: Connect answers that itself (Unimplemented).
  if (!c) return undefined;
  return c.decompress(bytes, limit);
}

/** Parses a request message; invalid protobuf binary is the client's fault (Connect says Internal). */
function parse(method: DescMethod, bytes: Uint8Array): void {
  try {
    fromBinary(method.input, bytes);
  } catch (e) {
    throw new ConnectError(`the request is not a valid ${method.input.name} (${e instanceof Error ? e.message : String(e)})`, Code.InvalidArgument);
  }
}

/** How much of a refused body is read and dropped so that the client can read the refusal. */
const discardCap = 256 * 1024 * 1024;

/**
 * Reads the rest of a refused body in the background and drops it, up to {@link discardCap}
 * (then gives up and closes it). Left unread, an HTTP/2 stream's data piles up in the session
 * until Node resets the stream (ENHANCE_YOUR_CALM) before the client has read the answer;
 * closed at once, the exchange is reset the same way. Memory stays flat either way.
 */
function discard(it: AsyncIterator<Uint8Array>): void {
  void (async () => {
    let n = 0;
    for (let r = await it.next(); !r.done; r = await it.next()) {
      n += r.value.byteLength;
      if (n > discardCap) {
        await it.return?.();
        return;
      }
    }
  })().catch(() => undefined);
}

/** Reads a body up to `limit` bytes; past it, refuses and drops the rest ({@link discard}). */
async function readLimited(body: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const it = body[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let r = await it.next(); !r.done; r = await it.next()) {
    size += r.value.byteLength;
    if (size > limit) {
      discard(it);
      throw new ConnectError(`message size is larger than configured readMaxBytes ${limit}`, Code.ResourceExhausted);
    }
    chunks.push(r.value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Reads a request body to the method's limit and checks it as Connect would read it, so that a
 * malformed message, a truncated envelope, a corrupt compressed body or a message flagged
 * compressed without an encoding is refused as InvalidArgument (Connect's own reader reports
 * these as Internal). Binary messages are parsed; JSON ones are left to Connect, which already
 * reports a bad one as InvalidArgument. Returns the bytes for Connect to read again.
 */
async function checkedBytes(req: UniversalServerRequest, method: DescMethod, o: EdgeOptions, limit: number): Promise<Uint8Array> {
  const bytes = await readLimited(req.body as AsyncIterable<Uint8Array>, limit);
  const type = (req.header.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
  if (type === "application/proto") {
    const plain = await decompress(bytes, req.header.get("content-encoding"), o, limit);
    if (plain) parse(method, plain);
    return bytes;
  }
  const enveloped = /^application\/(connect\+(proto|json)|grpc(-web)?(\+(proto|json))?)$/.exec(type);
  if (!enveloped) return bytes;
  const proto = !type.endsWith("+json");
  const encoding = req.header.get(type.startsWith("application/connect") ? "connect-content-encoding" : "grpc-encoding");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at < bytes.byteLength; ) {
    if (bytes.byteLength - at < 5) throw new ConnectError("the request ends inside a message header", Code.InvalidArgument);
    const flags = view.getUint8(at);
    const length = view.getUint32(at + 1);
    if (at + 5 + length > bytes.byteLength) throw new ConnectError(`the request promises a ${length}-byte message and ends before it`, Code.InvalidArgument);
    const data = bytes.subarray(at + 5, at + 5 + length);
    at += 5 + length;
    // Flags other than "compressed" (end-stream, trailers) do not belong in a request: Connect says so.
    if ((flags & ~1) !== 0) return bytes;
    // Connect's reader calls this `internal` (its own comment says InvalidArgument): the client named no encoding.
    if (flags & 1 && (!encoding || encoding === "identity")) {
      throw new ConnectError(
        `a message is flagged compressed, but the request names no encoding: send '${type.startsWith("application/connect") ? "connect-content-encoding" : "grpc-encoding"}: gzip' (or br), or clear the flag`,
        Code.InvalidArgument,
      );
    }
    const plain = flags & 1 ? await decompress(data, encoding, o, limit) : data;
    if (plain && proto) parse(method, plain);
  }
  return bytes;
}

async function* body(req: UniversalServerRequest, method: DescMethod, o: EdgeOptions, limit: number, early: ConnectError | undefined): AsyncIterable<Uint8Array> {
  // Connect turns an error thrown while it reads the body into its protocol's error answer.
  if (early) {
    discard((req.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]());
    throw early;
  }
  yield await checkedBytes(req, method, o, limit);
}

/** A call past its client's allowance of anonymous calls, refused before its body is read. */
function overLimit(o: EdgeOptions, method: DescMethod, values: ContextValues | undefined): ConnectError | undefined {
  if (!o.anonymousLimit || !isAnonymous(method)) return undefined;
  return o.anonymousLimit.refusal(values?.get(clientAddress) ?? "");
}

function guard(h: UniversalHandler, o: EdgeOptions): UniversalHandler {
  const limit = maxRequestBytes(h.method, o.readMaxBytes);
  const guarded = (req: UniversalServerRequest) => {
    if (typeof req.body !== "object" || req.body === null || !(Symbol.asyncIterator in req.body)) return h(req);
    const early = refuseEarly((n) => req.header.get(n), limit, h.method) ?? overLimit(o, h.method, req.contextValues);
    if (!early) return h({ ...req, body: body(req, h.method, o, limit, early) });
    // Connect refuses a declared length past its own limit before it reads the body, which would
    // answer an unauthenticated bomb as ResourceExhausted: it does not see the length of a
    // request the edge refuses, so the edge's reason is the answer.
    const header = new Headers(req.header);
    header.delete("content-length");
    return h({ ...req, header, body: body(req, h.method, o, limit, early) });
  };
  return Object.assign(guarded, {
    service: h.service,
    method: h.method,
    requestPath: h.requestPath,
    protocolNames: h.protocolNames,
    allowedMethods: h.allowedMethods,
    supportedContentType: h.supportedContentType,
  });
}

/**
 * The routes, with every handler Connect makes for them guarded at the edge: refused before the
 * body is read when {@link refuseEarly} says so, and refused as InvalidArgument when the body is
 * not a valid message.
 */
export function guardedRoutes(routes: (router: ConnectRouter) => void, o: EdgeOptions): (router: ConnectRouter) => void {
  return (router) => {
    routes(router);
    // connectNodeAdapter maps paths to handlers after this returns: replace them in place.
    router.handlers.forEach((h, i) => {
      router.handlers[i] = guard(h, o);
    });
  };
}
