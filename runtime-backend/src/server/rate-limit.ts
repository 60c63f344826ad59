import { isIPv6 } from "node:net";
import { Code, ConnectError, createContextKey } from "@connectrpc/connect";

/** How many anonymous calls a client may make: a burst, refilled at a steady rate. */
export interface RateLimit {
  /** Calls a client may make at once (the bucket's size). */
  readonly burst: number;
  /** Calls per minute it gets back. */
  readonly perMinute: number;
}

/** The default: 300 at once, 300 a minute (a device polling its link each second uses 60). */
export const defaultPublicRateLimit: RateLimit = { burst: 300, perMinute: 300 };

/** The address of the client a request came from (its socket's peer), for {@link ClientRateLimiter}. */
export const clientAddress = createContextKey<string>("", { description: "the client's address" });

/**
 * Whom a bucket belongs to: an IPv4 address (also when it arrives IPv4-mapped), or an IPv6
 * address's /64 (one host usually holds a whole /64, and would otherwise get 2^64 buckets).
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(":")}::/64`;
}

/** Buckets kept before idle (full) ones are dropped. */
const maxBuckets = 50_000;

/**
 * A token bucket per client address for the methods anyone may call without signing in
 * (StartDeviceLink stores what it is sent): a client past its burst is refused until its
 * bucket refills, while every other client keeps its own. Kept in memory, per process.
 */
export class ClientRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = limit.perMinute / 60_000;
  }

  /** Takes one call from the client's bucket: 0 when it may go ahead, else the milliseconds until it may. */
  take(address: string): number {
    const key = clientKey(address);
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.limit.burst, at: now };
    b.tokens = Math.min(this.limit.burst, b.tokens + (now - b.at) * this.perMs);
    b.at = now;
    if (!this.buckets.has(key)) {
      if (this.buckets.size >= maxBuckets) this.dropIdle(now);
      this.buckets.set(key, b);
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return this.perMs > 0 ? Math.ceil((1 - b.tokens) / this.perMs) : Number.POSITIVE_INFINITY;
  }

  /**
   * Why a call from `address` is refused (ResourceExhausted, with a `retry-after` in seconds),
   * or undefined when it may go ahead.
   */
  refusal(address: string): ConnectError | undefined {
    const waitMs = this.take(address);
    if (waitMs === 0) return undefined;
    const seconds = Number.isFinite(waitMs) ? Math.max(1, Math.ceil(waitMs / 1000)) : 60;
    return new ConnectError(
      `too many calls without signing in from this address (at most ${this.limit.burst} at once, ${this.limit.perMinute} a minute): retry in ${seconds} s`,
      Code.ResourceExhausted,
      { "retry-after": String(seconds) },
    );
  }

  private dropIdle(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.perMs >= this.limit.burst) this.buckets.delete(key);
    }
    // All busy (a flood from many addresses): start over rather than grow without bound.
    if (this.buckets.size >= maxBuckets) this.buckets.clear();
  }
}
