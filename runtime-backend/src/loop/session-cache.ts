import type { CallRow } from "../store/records.js";
import type { SessionRow } from "../store/sessions.js";

/** A session as this process last committed it, with its current step's calls. */
export interface CachedState {
  readonly session: SessionRow;
  readonly calls: CallRow[];
}

/** Limits of a {@link SessionCache}. */
export interface SessionCacheOptions {
  /** Most sessions kept (50,000). */
  readonly maxEntries?: number;
  /**
   * Longest an entry is kept (10 minutes). A session whose client went away — it waits for
   * tool results that never come — would otherwise hold its context in memory until 50,000
   * newer sessions pushed it out; its next step, if any, reads the store instead.
   */
  readonly maxAgeMs?: number;
  /** The clock (`Date.now`), for tests. */
  readonly now?: () => number;
}

/**
 * The state each session's last step committed in this process, so the next step (the
 * client's tool results) starts without a read. It is only a hint: every write that uses it
 * is guarded by the session's version (history length) and lease in the store, so a session
 * another replica moved on fails that write (Aborted, retried) instead of interleaving, and
 * the stop flag is re-checked by the same statement. Entries are single-use — taking one
 * removes it, and only a successful commit puts one back — so any error, conflict or unusual
 * path falls back to reading the store.
 */
export class SessionCache {
  private readonly map = new Map<string, { state: CachedState; at: number }>();
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(o: SessionCacheOptions = {}) {
    this.maxEntries = o.maxEntries ?? 50_000;
    this.maxAgeMs = o.maxAgeMs ?? 10 * 60_000;
    this.now = o.now ?? Date.now;
  }

  /** Remembers what a step just committed. */
  set(id: string, state: CachedState): void {
    const now = this.now();
    // Oldest first: Map iterates in insertion order, and every set re-inserts at the end.
    for (const [key, e] of this.map) {
      if (this.map.size < this.maxEntries && now - e.at <= this.maxAgeMs) break;
      this.map.delete(key);
    }
    this.map.delete(id);
    this.map.set(id, { state, at: now });
  }

  /** Removes and returns the entry, if any and not too old. */
  take(id: string): CachedState | undefined {
    const e = this.map.get(id);
    if (!e) return undefined;
    this.map.delete(id);
    return this.now() - e.at <= this.maxAgeMs ? e.state : undefined;
  }

  /** Forgets a session (stop, failures). */
  delete(id: string): void {
    this.map.delete(id);
  }

  /** Entries kept. */
  get size(): number {
    return this.map.size;
  }
}
