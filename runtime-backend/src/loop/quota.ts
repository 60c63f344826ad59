import { money } from "../base/money.js";
import type { Queryable } from "../store/db.js";
import { allQuotas, type QuotaRow, setQuota } from "../store/quotas.js";
import type { SessionRow } from "../store/sessions.js";
import { sessionsUsageSince } from "../store/usage.js";

/** Steps and cost of one user on one day. */
export interface DayUsage {
  readonly steps: number;
  readonly cost: number;
}

/** The start of the UTC day of `t`. */
export function utcDayStart(t: number): Date {
  const d = new Date(t);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/** A user's usage today as this process counts it: a snapshot from the store plus the steps seen since. */
interface Meter {
  readonly day: number;
  readonly loadedAt: number;
  steps: number;
  cost: number;
  /** Each session's all-time step and cost when last counted. */
  readonly seen: Map<string, { step: number; cost: number }>;
}

/** Options of {@link QuotaGuard}. */
export interface QuotaGuardOptions {
  /** How often the quotas table is read again (another replica may have changed it). */
  readonly refreshMs?: number;
  /** How often a user's usage is read again from the store (steps taken on other replicas). */
  readonly reloadMs?: number;
  /** The clock (tests). */
  readonly now?: () => number;
}

/**
 * Daily quotas (cost or steps per UTC day), checked before every model call. A user without a
 * quota costs a map lookup. For a user with one, the store is read once (every session's
 * totals and today's share, of one moment) and every later step of theirs that this process
 * drives is counted from the sessions' own totals, so the check is exact for steps taken here
 * and catches up with other replicas' steps within `reloadMs`.
 */
export class QuotaGuard {
  private quotas = new Map<string, QuotaRow>();
  private loadedAt = 0;
  private refreshing: Promise<void> | undefined;
  private readonly meters = new Map<string, Meter>();
  private readonly loading = new Map<string, Promise<Meter>>();
  private readonly refreshMs: number;
  private readonly reloadMs: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Queryable,
    o: QuotaGuardOptions = {},
  ) {
    this.refreshMs = o.refreshMs ?? 10_000;
    this.reloadMs = o.reloadMs ?? 30_000;
    this.now = o.now ?? Date.now;
  }

  /** Reads the quotas table; the backend awaits it once at start. */
  async load(): Promise<void> {
    this.quotas = await allQuotas(this.db);
    this.loadedAt = this.now();
  }

  private refreshSoon(): void {
    if (this.refreshing || this.now() - this.loadedAt < this.refreshMs) return;
    this.refreshing = this.load()
      .catch(() => undefined)
      .finally(() => {
        this.refreshing = undefined;
      });
  }

  /**
   * Why the session's user may not call the model now, or undefined when they may. Called
   * before each model call with the session as it stands; synchronous for a user without a quota.
   */
  check(s: SessionRow): string | undefined | Promise<string | undefined> {
    this.refreshSoon();
    const quota = this.quotas.get(s.userId);
    if (!quota) return undefined;
    return this.checkMetered(s, quota);
  }

  private async checkMetered(s: SessionRow, quota: QuotaRow): Promise<string | undefined> {
    const m = await this.meter(s.userId);
    const prev = m.seen.get(s.id);
    if (prev) {
      m.steps += Math.max(0, s.step - prev.step);
      m.cost += Math.max(0, s.usage.cost - prev.cost);
    }
    m.seen.set(s.id, { step: s.step, cost: s.usage.cost });
    const resets = new Date(m.day + 86_400_000).toISOString().slice(0, 16).replace("T", " ");
    const tail = `The quota resets at ${resets} UTC; an admin can change it in the console.`;
    if (quota.dailySteps > 0 && m.steps >= quota.dailySteps) {
      return `Daily quota reached: ${m.steps} of ${quota.dailySteps} model calls used today. ${tail}`;
    }
    if (quota.dailyCostUsd > 0 && m.cost >= quota.dailyCostUsd) {
      return `Daily quota reached: ${money(m.cost)} of ${money(quota.dailyCostUsd)} spent today. ${tail}`;
    }
    return undefined;
  }

  private async meter(userId: string): Promise<Meter> {
    const now = this.now();
    const day = utcDayStart(now).getTime();
    const m = this.meters.get(userId);
    if (m && m.day === day && now - m.loadedAt < this.reloadMs) return m;
    let p = this.loading.get(userId);
    if (!p) {
      p = this.readMeter(userId, day).finally(() => this.loading.delete(userId));
      this.loading.set(userId, p);
    }
    return p;
  }

  private async readMeter(userId: string, day: number): Promise<Meter> {
    const rows = await sessionsUsageSince(this.db, userId, new Date(day));
    const old = this.meters.get(userId);
    const m: Meter = { day, loadedAt: this.now(), steps: 0, cost: 0, seen: old?.day === day ? old.seen : new Map() };
    for (const r of rows) {
      m.steps += r.stepsToday;
      m.cost += r.costToday;
      m.seen.set(r.sessionId, { step: r.step, cost: r.cost });
    }
    this.meters.set(userId, m);
    return m;
  }

  /** A user's quota (zeros when none). */
  quotaOf(userId: string): QuotaRow {
    return this.quotas.get(userId) ?? { dailyCostUsd: 0, dailySteps: 0 };
  }

  /** A user's usage today (UTC), read from the store. */
  async today(userId: string): Promise<DayUsage> {
    const rows = await sessionsUsageSince(this.db, userId, utcDayStart(this.now()));
    return { steps: rows.reduce((a, r) => a + r.stepsToday, 0), cost: rows.reduce((a, r) => a + r.costToday, 0) };
  }

  /** Sets a user's quota; this process applies it at once, other replicas within `refreshMs`. */
  async set(userId: string, quota: QuotaRow): Promise<QuotaRow> {
    await setQuota(this.db, userId, quota);
    if (quota.dailyCostUsd > 0 || quota.dailySteps > 0) this.quotas.set(userId, quota);
    else this.quotas.delete(userId);
    return this.quotaOf(userId);
  }
}
