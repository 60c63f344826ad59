import { nextTurn } from "../base/next-turn.js";
/**
 * Lets waiting callers continue a few at a time, one batch per turn of the event loop, so that
 * I/O (commits finishing in the store's worker, responses going out, new requests) is served
 * between batches instead of after all of them.
 *
 * Why: a thousand sessions whose model answers land in the same millisecond (their timers or
 * HTTP responses come due together) would otherwise each run their post-model work (parsing,
 * context, building the turn's rows) back to back, holding the event loop while finished
 * commits wait to be answered.
 */
export class FairShare {
  private readonly queue: (() => void)[] = [];
  private scheduled = false;

  /** @param perTick callers released per event-loop turn. */
  constructor(private readonly perTick: number) {}

  /** Resolves when this caller's batch comes up (callers are released in arrival order). */
  pass(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.queue.push(resolve);
      if (!this.scheduled) {
        this.scheduled = true;
        nextTurn(this.drain);
      }
    });
  }

  private readonly drain = (): void => {
    for (const resolve of this.queue.splice(0, this.perTick)) resolve();
    // Scheduled from within the check phase, the next batch waits for the next loop turn,
    // after the poll phase has delivered whatever I/O is ready.
    if (this.queue.length > 0) nextTurn(this.drain);
    else this.scheduled = false;
  };
}
