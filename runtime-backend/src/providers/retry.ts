import { ProviderError, type ProviderErrorKind } from "./types.js";

/** Retry policy for model calls. */
export interface RetryOptions {
  /** Attempts in total, including the first. */
  readonly maxAttempts: number;
  /** First backoff; doubles each retry. */
  readonly baseDelayMs: number;
  /** Cap on one wait, including a server's Retry-After. */
  readonly maxDelayMs: number;
  /** Deadline of one attempt. */
  readonly timeoutMs: number;
}

/** Defaults: 4 attempts, 500 ms doubling to at most 20 s, 120 s per attempt. */
export const defaultRetry: RetryOptions = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 20_000, timeoutMs: 120_000 };

/** What a failed attempt looked like, as far as retrying is concerned. */
export interface AttemptFailure {
  readonly kind: ProviderErrorKind;
  readonly status: number;
  readonly message: string;
  /** The server's Retry-After, in ms, when it sent one. */
  readonly retryAfterMs?: number | undefined;
}

/** True for failures worth another attempt: 408, 429, 5xx, timeouts and network errors. */
export function isRetryable(f: AttemptFailure): boolean {
  return f.kind === "rate_limited" || f.kind === "server" || f.kind === "timeout" || f.kind === "network";
}

/** Classifies an HTTP status. */
export function kindForStatus(status: number): ProviderErrorKind {
  if (status === 408) return "timeout";
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "auth";
  if (status >= 500) return "server";
  return "bad_request";
}

/** Parses Retry-After (seconds or an HTTP date) or retry-after-ms into milliseconds. */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const v = headers.get("retry-after");
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.max(0, Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Full-jitter exponential backoff, or the server's Retry-After when it gave one. */
export function backoffMs(attempt: number, o: RetryOptions, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, o.maxDelayMs);
  const ceiling = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** (attempt - 1));
  // Half fixed, half random: spreads a thundering herd without ever retrying instantly.
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Waits `ms`, or rejects with an "aborted" ProviderError saying `why` when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal, why = "stopped while waiting to retry"): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ProviderError("aborted", why));
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new ProviderError("aborted", why));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `attempt` until it succeeds, a failure is not retryable, attempts run out, or `signal`
 * aborts. Each attempt gets its own signal that also fires at the per-attempt timeout.
 * `classify` turns whatever an SDK threw into an AttemptFailure.
 */
export async function withRetries<T>(
  signal: AbortSignal,
  o: RetryOptions,
  attempt: (signal: AbortSignal, attemptNo: number) => Promise<T>,
  classify: (e: unknown, timedOut: boolean) => AttemptFailure,
): Promise<{ value: T; retries: number; notes: string[] }> {
  const notes: string[] = [];
  for (let n = 1; ; n++) {
    if (signal.aborted) throw new ProviderError("aborted", "stopped before the model call", 0, n - 1);
    const timeout = AbortSignal.timeout(o.timeoutMs);
    const combined = AbortSignal.any([signal, timeout]);
    try {
      const value = await attempt(combined, n);
      return { value, retries: n - 1, notes };
    } catch (e) {
      if (signal.aborted) throw new ProviderError("aborted", "stopped during the model call", 0, n);
      const f = classify(e, timeout.aborted);
      notes.push(`attempt ${n}: ${f.kind}${f.status ? ` ${f.status}` : ""}: ${f.message.slice(0, 200)}`);
      if (!isRetryable(f) || n >= o.maxAttempts) {
        throw new ProviderError(f.kind, `${f.message} (after ${n} attempt${n > 1 ? "s" : ""})`, f.status, n);
      }
      await sleep(backoffMs(n, o, f.retryAfterMs), signal);
    }
  }
}
