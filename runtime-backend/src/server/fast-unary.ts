import type http from "node:http";
import type http2 from "node:http2";
import { type DescMethod, type DescMethodUnary, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  createContextValues,
  createServiceImplSpec,
  type HandlerContext,
  type Interceptor,
} from "@connectrpc/connect";
import { type Compression, compressionNegotiate, invokeUnaryImplementation, mergeNonProtocolHeaders } from "@connectrpc/connect/protocol";
import { codeToHttpStatus, errorToJsonBytes, trailerMux } from "@connectrpc/connect/protocol-connect";
import { refuseEarly } from "./edge.js";
import { maxRequestBytes } from "./validate.js";

type MethodImplSpec = Parameters<typeof invokeUnaryImplementation>[0];

interface Route {
  readonly method: DescMethodUnary;
  readonly spec: MethodImplSpec;
  readonly interceptors: Interceptor[];
  /** "http://host/pkg.Service/Method" without the host: completed per request. */
  readonly path: string;
  /** The method's request byte limit (its proto's, else the server's). */
  readonly limit: number;
}

type NodeRequest = http.IncomingMessage | http2.Http2ServerRequest;
type NodeResponse = http.ServerResponse | http2.Http2ServerResponse;

/** What the adapter is configured with too, so both paths answer alike. */
export interface FastUnaryOptions {
  /** Byte limit of a method whose proto sets none. */
  readonly readMaxBytes: number;
  /** Response compressions offered to clients that send `accept-encoding`. */
  readonly acceptCompression: readonly Compression[];
  /** Smallest response body worth compressing (Connect's default: 1,024 bytes). */
  readonly compressMinBytes: number;
}

/**
 * Serves the commonest request of the Connect protocol directly: a unary call, POSTed as
 * binary protobuf, not compressed, without a timeout header. Anything else (JSON, a compressed
 * request, GET, timeouts, streaming, gRPC, unknown paths) is left to `connectNodeAdapter`.
 *
 * Connect's generic path turns each Node request into a universal request (web `Headers`, a
 * body as an async iterable, linked abort controllers, a deadline signal) and back: measured
 * at ~0.19 ms of the server's main thread per call, over a quarter of an agent step's cost there.
 * This path keeps what a client can observe identical (status, headers, body, error JSON,
 * size limit) and runs the same implementation through Connect's own
 * `invokeUnaryImplementation`, so the service's interceptors see the same request; the
 * implementations and interceptors are taken from the same `routes` function the adapter
 * gets, so they cannot differ. `fast-unary.test.ts` sends the same requests both ways.
 *
 * @returns a handler that answers and returns true when the request is one it serves.
 */
/** Every method the routes register, with its implementation and interceptors. */
function recordRoutes(routes: (router: ConnectRouter) => void): { method: DescMethod; spec: unknown; interceptors: Interceptor[] }[] {
  const out: { method: DescMethod; spec: unknown; interceptors: Interceptor[] }[] = [];
  const recorder: ConnectRouter = {
    handlers: [],
    service(service, implementation, options) {
      const spec = createServiceImplSpec(service, implementation);
      for (const m of service.methods) out.push({ method: m, spec: spec.methods[m.localName], interceptors: options?.interceptors ?? [] });
      return this;
    },
    rpc(method, impl, options) {
      out.push({ method, spec: { kind: method.methodKind, method, impl }, interceptors: options?.interceptors ?? [] });
      return this;
    },
  };
  routes(recorder);
  return out;
}

/** The methods the routes serve. */
export function servedMethods(routes: (router: ConnectRouter) => void): DescMethod[] {
  return recordRoutes(routes).map((r) => r.method);
}

export function fastUnary(routes: (router: ConnectRouter) => void, o: FastUnaryOptions): (req: NodeRequest, res: NodeResponse) => boolean {
  const byPath = new Map<string, Route>();
  for (const { method, spec, interceptors } of recordRoutes(routes)) {
    if (method.methodKind !== "unary") continue;
    const path = `/${method.parent.typeName}/${method.name}`;
    byPath.set(path, { method: method as DescMethodUnary, spec: spec as MethodImplSpec, interceptors, path, limit: maxRequestBytes(method, o.readMaxBytes) });
  }

  return (req, res) => {
    if (req.method !== "POST") return false;
    const route = byPath.get(req.url ?? "");
    if (!route) return false;
    const h = req.headers;
    if (h["content-type"] !== "application/proto") return false;
    if (h["content-encoding"] !== undefined && h["content-encoding"] !== "identity") return false;
    if (h["connect-timeout-ms"] !== undefined) return false;
    const version = h["connect-protocol-version"];
    if (version !== undefined && version !== "1") return false;
    answer(route, req, res, o).catch(() => {
      // Only compressing or writing the answer can fail here (errors before that become the
      // answer): end the exchange rather than leave it open or take the process down.
      if (!res.headersSent && !res.destroyed) {
        res.statusCode = 500;
        res.end();
      } else res.destroy();
    });
    return true;
  };
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(", ") : v;
}

/** Request headers as web Headers (HTTP/2 pseudo-headers left out, as Connect does). */
function webHeaders(h: http.IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [k, v] of Object.entries(h)) {
    if (k.startsWith(":") || v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) out.append(k, x);
    else out.append(k, v);
  }
  return out;
}

function readBody(req: NodeRequest, max: number): Promise<Uint8Array> {
  const length = req.headers["content-length"];
  const declared = length === undefined ? NaN : Number(length);
  if (declared > max) {
    return Promise.reject(new ConnectError(`message size ${declared} is larger than configured readMaxBytes ${max}`, Code.ResourceExhausted));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > max) {
        req.off("data", onData);
        req.resume();
        reject(new ConnectError(`message size is larger than configured readMaxBytes ${max}`, Code.ResourceExhausted));
        return;
      }
      chunks.push(c);
    };
    req.on("data", onData);
    req.once("end", () => {
      // An HTTP/2 stream reset mid-body ends the request with what arrived so far, and a
      // message cut at a field boundary still parses: check it all came (as Connect does).
      if (Number.isSafeInteger(declared) && declared >= 0 && size !== declared) {
        reject(new ConnectError(`protocol error: promised ${declared} bytes, received ${size}`, Code.InvalidArgument));
      } else {
        resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
      }
    });
    req.once("error", (e) => reject(new ConnectError(`reading the request failed: ${e.message}`, Code.Aborted)));
  });
}

async function answer(route: Route, req: NodeRequest, res: NodeResponse, o: FastUnaryOptions): Promise<void> {
  // Aborted when the client goes away before the answer is sent; a finished call leaves it
  // alone (an abort without a reason builds a DOMException with a stack: most of what the
  // generic path spends on signals).
  const abort = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) abort.abort(new ConnectError("the client closed the request", Code.Canceled));
  };
  res.once("close", onClose);
  const host = ("authority" in req ? req.authority : req.headers.host) ?? "localhost";
  const ctx: HandlerContext = {
    service: route.method.parent,
    method: route.method,
    protocolName: "connect",
    requestMethod: "POST",
    url: `http://${host}${route.path}`,
    signal: abort.signal,
    timeoutMs: () => undefined,
    requestHeader: webHeaders(req.headers),
    responseHeader: new Headers({ "content-type": "application/proto" }),
    responseTrailer: new Headers(),
    values: createContextValues(),
  };
  let status = 200;
  let body: Uint8Array;
  try {
    // The edge's checks, before the body is read (`edge.ts`, as on Connect's own path).
    const early = refuseEarly((n) => headerValue(req.headers[n]), route.limit, route.method);
    if (early) throw early;
    const bytes = await readBody(req, route.limit);
    let input;
    try {
      input = fromBinary(route.method.input, bytes);
    } catch (e) {
      throw new ConnectError(`the request is not a valid ${route.method.input.name} (${e instanceof Error ? e.message : String(e)})`, Code.InvalidArgument);
    }
    const output = await invokeUnaryImplementation(route.spec, ctx, input, route.interceptors);
    body = toBinary(route.method.output, output);
  } catch (e) {
    const error = e instanceof ConnectError ? e : new ConnectError("internal error", Code.Internal, undefined, undefined, e);
    if (!abort.signal.aborted) abort.abort(error);
    status = codeToHttpStatus(error.code);
    ctx.responseHeader.set("content-type", "application/json");
    if (!error.isWireError) mergeNonProtocolHeaders(ctx.responseHeader, error.metadata);
    body = errorToJsonBytes(error, {});
  }
  const accepted = req.headers["accept-encoding"];
  const compression = compressionNegotiate([...o.acceptCompression], null, accepted ?? null, "accept-encoding").response;
  if (compression && body.byteLength >= o.compressMinBytes) {
    body = await compression.compress(body);
    ctx.responseHeader.set("content-encoding", compression.name);
  }
  const header = trailerMux(ctx.responseHeader, ctx.responseTrailer);
  header.set("content-length", String(body.byteLength));
  const out: Record<string, string> = {};
  header.forEach((v, k) => {
    out[k] = v;
  });
  if (res.destroyed) return;
  (res as http.ServerResponse).writeHead(status, out);
  res.end(body);
}
