import type { StepEvent } from "./deps.js";

/** What a watcher of a session hears: a step's progress, or that the session changed in the store. */
export type SessionSignal = StepEvent | { readonly kind: "changed" };

/**
 * Progress of the steps this process runs, by session, for whoever watches them (the console's
 * WatchSession). Publishing to a session nobody watches is one map lookup.
 */
export class SessionEvents {
  private readonly subs = new Map<string, Set<(e: SessionSignal) => void>>();

  /** Calls `fn` with every signal of the session until the returned function is called. */
  subscribe(sessionId: string, fn: (e: SessionSignal) => void): () => void {
    let set = this.subs.get(sessionId);
    if (!set) {
      set = new Set();
      this.subs.set(sessionId, set);
    }
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0 && this.subs.get(sessionId) === set) this.subs.delete(sessionId);
    };
  }

  /** Tells the session's watchers, if any. */
  publish(sessionId: string, e: SessionSignal): void {
    const set = this.subs.get(sessionId);
    if (set) for (const fn of set) fn(e);
  }
}
