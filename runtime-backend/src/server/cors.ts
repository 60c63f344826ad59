import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { cors } from "@connectrpc/connect";

/** Which browser origins may call the API. */
export interface CorsOptions {
  /** Extra exact origins, such as "https://console.example.com". */
  readonly origins?: readonly string[];
  /** Extension ids allowed as chrome-extension://<id>; any extension when undefined. */
  readonly extensionIds?: readonly string[];
  /** Allow http://localhost and http://127.0.0.1 on any port (development). */
  readonly allowLocalhost?: boolean;
}

/** True when `origin` may call the API under `o`. */
export function originAllowed(origin: string, o: CorsOptions): boolean {
  const ext = /^chrome-extension:\/\/([a-p]{32}|[a-z0-9]+)$/.exec(origin);
  if (ext) return o.extensionIds === undefined || o.extensionIds.includes(ext[1] ?? "");
  if (o.origins?.includes(origin)) return true;
  return o.allowLocalhost !== false && /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(origin);
}

/**
 * Applies CORS for Connect to a response. Returns true when the request was a preflight and
 * has been answered (the caller must not route it).
 */
export function applyCors(
  req: IncomingMessage | Http2ServerRequest,
  res: ServerResponse | Http2ServerResponse,
  o: CorsOptions,
): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== "string" || !originAllowed(origin, o)) return false;
  res.setHeader("Access-Control-Allow-Origin", origin);
  res.setHeader("Vary", "Origin");
  res.setHeader("Access-Control-Expose-Headers", [...cors.exposedHeaders].join(", "));
  if (req.method === "OPTIONS") {
    res.setHeader("Access-Control-Allow-Methods", [...cors.allowedMethods].join(", "));
    res.setHeader("Access-Control-Allow-Headers", [...cors.allowedHeaders, "Authorization"].join(", "));
    res.setHeader("Access-Control-Max-Age", "7200");
    res.statusCode = 204;
    res.end();
    return true;
  }
  return false;
}
