import { nextTurn } from "../base/next-turn.js";

/**
 * Group commit: callers submit items one by one; whatever arrives while a run is in flight is
 * handed to the next run together. The embedded engine executes one statement at a time on
 * this thread and pays mostly per statement, not per row, so N sessions' turns written (or
 * read) as one multi-row statement cost little more than one. Nobody waits for a timer: an
 * idle grouper runs the first item on the next turn of the event loop, and under load the
 * batch is simply everything that queued behind the previous run.
 */
export class Grouper<I, O> {
  private queue: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private inFlight = 0;
  private scheduled = false;

  /**
   * @param run executes a group; returns one outcome per item, in order. It must keep items
   *   independent (one item's failed guard must not fail the others).
   * @param concurrency runs allowed at once: 1 for the single-connection embedded engine,
   *   more for a Postgres pool.
   * @param max largest group, to bound statement size.
   * @param keyOf items with the same key never share a group (one statement updates a row once):
   *   a second one waits for the next run.
   */
  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly concurrency = 1,
    private readonly max = 256,
    private readonly keyOf?: (item: I) => string,
  ) {}

  /** Queues an item; resolves with its outcome once its group has run (and committed). */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.scheduled && this.inFlight < this.concurrency) {
        this.scheduled = true;
        // A later turn, not a microtask: requests parsed in the same I/O turn join the group.
        nextTurn(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.inFlight < this.concurrency && this.queue.length > 0) {
      const group = this.take();
      this.inFlight++;
      void this.execute(group);
    }
  }

  /** The next group: up to `max` items in arrival order, none sharing a key. */
  private take(): typeof this.queue {
    if (!this.keyOf) return this.queue.splice(0, this.max);
    const seen = new Set<string>();
    const group: typeof this.queue = [];
    const rest: typeof this.queue = [];
    for (const q of this.queue) {
      const k = this.keyOf(q.item);
      if (group.length < this.max && !seen.has(k)) {
        seen.add(k);
        group.push(q);
      } else rest.push(q);
    }
    this.queue = rest;
    return group;
  }

  /**
   * Runs a group and answers its callers. The next group is started before the callers hear:
   * their continuations (a response each to encode and send) would otherwise run first, and the
   * engine would sit idle through them while the next group waits.
   */
  private async execute(group: typeof this.queue): Promise<void> {
    let out: O[];
    try {
      out = await this.run(group.map((g) => g.item));
    } catch (e) {
      await this.attribute(group, e);
      this.release();
      return;
    }
    this.release();
    group.forEach((g, i) => g.resolve(out[i] as O));
  }

  /** Frees the group's slot and starts the next group. */
  private release(): void {
    this.inFlight--;
    this.pump();
  }

  /**
   * A statement-level error (not a lost version race, which run() reports per item) is
   * attributed by re-running each item alone: the failed group left nothing behind.
   */
  private async attribute(group: typeof this.queue, e: unknown): Promise<void> {
    if (group.length === 1) {
      group[0]?.reject(e);
      return;
    }
    for (const g of group) {
      try {
        const [o] = await this.run([g.item]);
        g.resolve(o as O);
      } catch (err) {
        g.reject(err);
      }
    }
  }
}
