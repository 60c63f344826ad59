import { hexOf } from "../base/hex.js";

/**
 * The trace id of a session: 32 hex digits that every process derives from the session id
 * alone (cyrb128, a 128-bit string hash). A session spans many requests, may resume on another
 * replica and is driven by a client in another process; deriving the id means nothing has to
 * be stored or carried between them for all of their spans to land in one trace.
 */
export function sessionTraceId(sessionId: string): string {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < sessionId.length; i++) {
    const k = sessionId.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  const hex = [h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, "0")).join("");
  // An all-zero trace id is invalid in OpenTelemetry.
  return /^0+$/.test(hex) ? `${hex.slice(0, 31)}1` : hex;
}

/** The trace id the next root span takes, while {@link inTrace} starts one. */
let forced: string | undefined;

function randomHex(bytes: number): string {
  for (;;) {
    const hex = hexOf(crypto.getRandomValues(new Uint8Array(bytes)));
    if (!/^0+$/.test(hex)) return hex;
  }
}

/**
 * Calls `start` (which starts one root span, synchronously) so that the span's trace id is
 * `traceId`. The OpenTelemetry API has no way to choose a root span's trace id; the SDK asks
 * its id generator, which is {@link traceIds} (see the CLI's telemetry set-up).
 */
export function inTrace<T>(traceId: string, start: () => T): T {
  forced = traceId;
  try {
    return start();
  } finally {
    forced = undefined;
  }
}

/**
 * The OpenTelemetry SDK's id generator (its `IdGenerator` shape): random ids, except the trace
 * id of a root span started inside {@link inTrace}.
 */
export const traceIds = {
  generateTraceId: (): string => forced ?? randomHex(16),
  generateSpanId: (): string => randomHex(8),
};
