/**
 * Holds the run's next tool call while the run is paused (the user cancelled Chrome's
 * debugging bar), until the user resumes it or stops the run.
 */
export class PauseGate {
  #paused: { readonly reason: string; readonly resume: () => void; readonly resumed: Promise<void> } | undefined;
  readonly #listeners = new Set<(reason: string | undefined) => void>();

  /** Why the run is paused, or undefined. */
  get reason(): string | undefined {
    return this.#paused?.reason;
  }

  /** Pauses (a second pause keeps the first reason). */
  pause(reason: string): void {
    if (this.#paused) return;
    let resume = () => {};
    const resumed = new Promise<void>((r) => (resume = r));
    this.#paused = { reason, resume, resumed };
    this.#emit();
  }

  /** Lets the run go on. */
  resume(): void {
    const p = this.#paused;
    this.#paused = undefined;
    p?.resume();
    if (p) this.#emit();
  }

  /** Resolves at once when not paused, else when resumed; rejects when `signal` aborts. */
  async wait(signal: AbortSignal): Promise<void> {
    const p = this.#paused;
    if (!p) return;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      void p.resumed.then(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      });
    });
  }

  /** Subscribes to pause and resume; returns the unsubscribe function. */
  onChange(listener: (reason: string | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(): void {
    for (const l of this.#listeners) l(this.reason);
  }
}
