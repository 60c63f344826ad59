import { Code, ConnectError } from "@connectrpc/connect";

/** Backoff settings for transport retries. */
export interface RetryOptions {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** First delay; doubles each time, with full jitter. */
  readonly baseMs: number;
  /** Largest delay. */
  readonly maxMs: number;
}

/** Defaults: 6 attempts, 200 ms doubling to at most 5 s. */
export const defaultRetry: RetryOptions = { attempts: 6, baseMs: 200, maxMs: 5_000 };

/**
 * How a dropped connection reads in Node (undici fetch, http/http2) and browsers: "fetch
 * failed", "terminated" (the body stream ended mid-response), resets and refused connections.
 */
const dropped =
  /fetch failed|failed to fetch|network|terminated|other side closed|ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|premature close|UND_ERR|stream.*(closed|reset|cancel)/i;

/**
 * Whether an RPC failure is worth retrying with the same request: the network or the server
 * was unavailable, or a step was still running. The backend is idempotent by toolcall id, so a
 * retried result is never applied twice.
 */
export function isRetryable(e: unknown): boolean {
  const err = ConnectError.from(e);
  return (
    err.code === Code.Unavailable ||
    err.code === Code.DeadlineExceeded ||
    err.code === Code.Aborted ||
    err.code === Code.ResourceExhausted ||
    ((err.code === Code.Unknown || err.code === Code.Internal) && dropped.test(err.message))
  );
}

/** The delay before retry `attempt` (1-based), with full jitter. */
export function backoffMs(attempt: number, o: RetryOptions = defaultRetry): number {
  return Math.random() * Math.min(o.maxMs, o.baseMs * 2 ** (attempt - 1));
}

/** Sleeps `ms`, or rejects when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
