import { Code, ConnectError } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";
import type { Compression } from "@connectrpc/connect/protocol";

/**
 * A compression whose failure to decompress a request is the client's fault. Connect's own
 * gzip and brotli call a body that zlib reports as corrupt `invalid_argument`, but a truncated
 * one (zlib's "unexpected end of file") and any other zlib failure `internal`; a body the client
 * sent is never the server's fault, so every failure but "too large" becomes `invalid_argument`.
 */
function clientFault(c: Compression): Compression {
  return {
    name: c.name,
    compress: (bytes) => c.compress(bytes),
    async decompress(bytes, readMaxBytes) {
      try {
        return await c.decompress(bytes, readMaxBytes);
      } catch (e) {
        const err = ConnectError.from(e);
        if (err.code === Code.ResourceExhausted) throw err;
        const why = err.cause instanceof Error ? err.cause.message : err.rawMessage;
        throw new ConnectError(`the request body is not valid ${c.name} (${why})`, Code.InvalidArgument, undefined, undefined, e);
      }
    },
  };
}

/**
 * The compressions the server accepts for requests and offers for responses, used by Connect's
 * adapter and by the edge's own check of a body alike.
 */
export const serverCompressions: readonly Compression[] = [clientFault(compressionGzip), clientFault(compressionBrotli)];
