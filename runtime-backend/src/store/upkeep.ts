import type { Logger } from "../log/logger.js";
import { checkpointDue, defaultMaxWalBytes } from "./checkpoint.js";
import type { Db } from "./db.js";
import { vacuumDue } from "./vacuum.js";

/** A running upkeep timer. */
export interface UpkeepTimer {
  /** Stops the timer and waits for a pass in progress (call before closing the store). */
  stop(): Promise<void>;
}

/** Options of {@link startEmbeddedUpkeep}. */
export interface UpkeepOptions {
  /** Time between passes (10 s). */
  readonly intervalMs?: number;
  /** WAL written since the last checkpoint that triggers one (64 MB). */
  readonly maxWalBytes?: number;
  readonly logger?: Logger;
}

/**
 * What Postgres's background processes do, done for the embedded engine, which has none: every
 * `intervalMs`, vacuum the tables that are due (`vacuum.ts`), then checkpoint if enough WAL
 * was written since the last one (`checkpoint.ts`). Each step is one statement on the single
 * connection, so turns get in between. Does nothing on Postgres. A failed pass is logged and
 * retried at the next interval.
 */
export function startEmbeddedUpkeep(db: Db, o: UpkeepOptions = {}): UpkeepTimer {
  if (db.kind !== "embedded") return { stop: async () => undefined };
  const pass = async () => {
    const v = await vacuumDue(db);
    if (v.tables.length) o.logger?.info({ tables: v.tables, ms: Math.round(v.ms) }, "embedded store vacuumed");
    const c = await checkpointDue(db, o.maxWalBytes ?? defaultMaxWalBytes);
    if (c.checkpointed) o.logger?.info({ walMB: +(c.walBytes / 2 ** 20).toFixed(1), ms: Math.round(c.ms) }, "embedded store checkpointed");
  };
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = pass()
      .catch((e: unknown) => o.logger?.warn({ err: e }, "embedded store upkeep failed; retrying at the next interval"))
      .finally(() => (running = undefined));
  }, o.intervalMs ?? 10_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
