import { type DescMessage, type DescMethod, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  appendHeaders,
  Code,
  ConnectError,
  type ContextValues,
  createContextValues,
  type Interceptor,
  type Transport,
} from "@connectrpc/connect";
import {
  compressedFlag,
  createEnvelopeReadableStream,
  createMethodUrl,
  encodeEnvelope,
  runStreamingCall,
  runUnaryCall,
} from "@connectrpc/connect/protocol";
import { endStreamFlag, endStreamFromJson, errorFromJson, requestHeader, trailerDemux, validateResponse } from "@connectrpc/connect/protocol-connect";

/** Options of {@link binaryTransport}. */
export interface BinaryTransportOptions {
  /** The backend's base URL, such as "http://127.0.0.1:8787". */
  readonly baseUrl: string;
  /** Interceptors, outermost first. */
  readonly interceptors?: readonly Interceptor[];
  /** The fetch to use; the global one by default. */
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * A Connect-protocol transport over fetch that speaks only the binary codec: connect-web's
 * `createConnectTransport` with its JSON codec left out. Connect's generic transport links
 * protobuf-es's JSON codec even when `useBinaryFormat` is set, and that codec boots
 * descriptor.proto for the well-known types it special-cases — a third of a browser bundle
 * of the client. Everything protocol-specific (headers, envelopes, end-stream and error
 * decoding, interceptors, deadlines) is Connect's own, from `@connectrpc/connect/protocol*`.
 * Unary and server-streaming methods, as fetch can send no streaming request body.
 */
export function binaryTransport(options: BinaryTransportOptions): Transport {
  const fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const interceptors = options.interceptors ? [...options.interceptors] : undefined;
  const post = (url: string, header: Headers, signal: AbortSignal, body: Uint8Array): Promise<Response> =>
    fetch(url, { method: "POST", redirect: "error", headers: header, signal, body: body as BufferSource });
  const encode = (desc: DescMessage, message: unknown): Uint8Array => toBinary(desc, message as never);
  // What both kinds of call hand to Connect's runner: the interceptors, the signal, the
  // deadline, and the request as the interceptors first see it.
  const call = (method: DescMethod, signal: AbortSignal | undefined, timeout: number | undefined, header: HeadersInit | undefined, contextValues: ContextValues | undefined) => {
    const timeoutMs = deadline(timeout);
    const req = {
      service: method.parent,
      requestMethod: "POST",
      url: createMethodUrl(options.baseUrl, method),
      header: requestHeader(method.methodKind, true, timeoutMs, header, false),
      contextValues: contextValues ?? createContextValues(),
    };
    return { interceptors, signal, timeoutMs, req };
  };
  return {
    async unary(method, signal, timeout, header, message, contextValues) {
      const c = call(method, signal, timeout, header, contextValues);
      return runUnaryCall({
        ...c,
        req: { ...c.req, stream: false, method, message },
        next: async (req) => {
          const response = await post(req.url, req.header, req.signal, encode(method.input, req.message));
          const { isUnaryError, unaryError } = validateResponse(method.methodKind, true, response.status, response.headers);
          const [demuxedHeader, demuxedTrailer] = trailerDemux(response.headers);
          if (isUnaryError) {
            throw errorFromJson(await response.json(), appendHeaders(demuxedHeader, demuxedTrailer), unaryError);
          }
          return {
            stream: false,
            service: method.parent,
            method,
            header: demuxedHeader,
            message: fromBinary(method.output, new Uint8Array(await response.arrayBuffer())),
            trailer: demuxedTrailer,
          };
        },
      });
    },
    async stream(method, signal, timeout, header, input, contextValues) {
      const c = call(method, signal, timeout, header, contextValues);
      return runStreamingCall({
        ...c,
        req: { ...c.req, stream: true, method, message: input },
        next: async (req) => {
          if (method.methodKind !== "server_streaming") {
            throw new ConnectError("fetch cannot send a streaming request body", Code.Unimplemented);
          }
          const first = await req.message[Symbol.asyncIterator]().next();
          if (first.done) throw new ConnectError("missing request message", Code.Internal);
          const response = await post(req.url, req.header, req.signal, encodeEnvelope(0, encode(method.input, first.value)));
          validateResponse(method.methodKind, true, response.status, response.headers);
          if (response.body === null) throw new ConnectError("missing response body", Code.Internal);
          const trailer = new Headers();
          return { ...req, header: response.headers, trailer, message: readStream(method.output, response.body, trailer, response.headers, req.signal) };
        },
      });
    },
  };
}

/** A call's timeout as Connect's transports read it: none when not given or not positive. */
function deadline(timeoutMs: number | undefined): number | undefined {
  return timeoutMs !== undefined && timeoutMs > 0 ? timeoutMs : undefined;
}

/** Decodes a server stream's envelopes: messages, then the end-stream frame (its error thrown). */
async function* readStream<O extends DescMessage>(
  output: O,
  body: ReadableStream<Uint8Array>,
  trailer: Headers,
  header: Headers,
  signal: AbortSignal,
): AsyncGenerator<ReturnType<typeof fromBinary<O>>> {
  const reader = createEnvelopeReadableStream(body).getReader();
  let ended = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if ((value.flags & compressedFlag) === compressedFlag) {
      throw new ConnectError("protocol error: received unsupported compressed output", Code.Internal);
    }
    if ((value.flags & endStreamFlag) === endStreamFlag) {
      ended = true;
      const end = endStreamFromJson(value.data);
      if (end.error) {
        header.forEach((v, k) => end.error!.metadata.append(k, v));
        throw end.error;
      }
      end.metadata.forEach((v, k) => trailer.set(k, v));
      continue;
    }
    yield fromBinary(output, value.data);
  }
  // undici does not throw on `read` when the signal was aborted before `getReader`.
  signal.throwIfAborted();
  if (!ended) throw new ConnectError("protocol error: missing EndStreamResponse", Code.Internal);
}
