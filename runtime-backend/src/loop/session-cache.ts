import type { CallRow } from "../store/records.js";
import type { SessionRow } from "../store/sessions.js";

/** A session as this process last committed it, with its current step's calls. */
export interface CachedState {
  readonly session: SessionRow;
  readonly calls: CallRow[];
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
  private readonly map = new Map<string, CachedState>();

  constructor(private readonly maxEntries = 50_000) {}

  /** Remembers what a step just committed. */
  set(id: string, state: CachedState): void {
    if (this.map.size >= this.maxEntries) {
      // Oldest first: Map iterates in insertion order.
      const first = this.map.keys().next();
      if (!first.done) this.map.delete(first.value);
    }
    this.map.delete(id);
    this.map.set(id, state);
  }

  /** Removes and returns the entry, if any. */
  take(id: string): CachedState | undefined {
    const s = this.map.get(id);
    if (s) this.map.delete(id);
    return s;
  }

  /** Forgets a session (stop, failures). */
  delete(id: string): void {
    this.map.delete(id);
  }
}
