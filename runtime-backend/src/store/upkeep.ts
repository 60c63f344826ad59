import type { Logger } from "../log/logger.js";
import { checkpointDue, defaultMaxWalBytes } from "./checkpoint.js";
import type { Db } from "./db.js";
import { purgeExpired } from "./expired.js";
import { vacuumDue } from "./vacuum.js";

/** A running upkeep timer. */
export interface UpkeepTimer {
  /** Stops the timer and waits for a pass in progress (call before closing the store). */
  stop(): Promise<void>;
}

/** Options of {@link startUpkeep}. */
export interface UpkeepOptions {
  /** Time between passes (10 s). */
  readonly intervalMs?: number;
  /** WAL written since the last checkpoint that triggers one (64 MB). */
  readonly maxWalBytes?: number;
  /** Time between purges of expired device links, sign-in links and console sessions (10 minutes). */
  readonly purgeEveryMs?: number;
  /** How long past its expiry a row is kept (1 hour; `expired.ts`). */
  readonly purgeGraceMs?: number;
  readonly logger?: Logger;
}

/**
 * The store's upkeep, on a timer. Every `purgeEveryMs`, on either engine, delete the device
 * links, sign-in links and console sessions that expired (`expired.ts`): anyone may start a
 * device link, and nothing else would ever remove it. And on the embedded engine, what
 * Postgres's background processes do and it has none of: every `intervalMs`, vacuum the
 * tables that are due (`vacuum.ts`), then checkpoint if enough WAL was written since the last
 * one (`checkpoint.ts`). Each step is one statement, so turns get in between. A failed pass is
 * logged and retried at the next interval.
 */
export function startUpkeep(db: Db, o: UpkeepOptions = {}): UpkeepTimer {
  const purgeEveryMs = o.purgeEveryMs ?? 10 * 60_000;
  // The first pass purges: a restart after a long stop finds the most to delete.
  let purgedAt = Number.NEGATIVE_INFINITY;
  const pass = async () => {
    if (Date.now() - purgedAt >= purgeEveryMs) {
      const p = await purgeExpired(db, o.purgeGraceMs ?? 3_600_000);
      purgedAt = Date.now();
      if (p.deviceLinks + p.signInLinks + p.consoleSessions > 0) o.logger?.info(p, "expired links and sessions purged");
    }
    if (db.kind !== "embedded") return;
    const v = await vacuumDue(db);
    if (v.tables.length) o.logger?.info({ tables: v.tables, ms: Math.round(v.ms) }, "embedded store vacuumed");
    const c = await checkpointDue(db, o.maxWalBytes ?? defaultMaxWalBytes);
    if (c.checkpointed) o.logger?.info({ walMB: +(c.walBytes / 2 ** 20).toFixed(1), ms: Math.round(c.ms) }, "embedded store checkpointed");
  };
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = pass()
      .catch((e: unknown) => o.logger?.warn({ err: e }, "store upkeep failed; retrying at the next interval"))
      .finally(() => (running = undefined));
  }, Math.min(o.intervalMs ?? 10_000, purgeEveryMs));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
