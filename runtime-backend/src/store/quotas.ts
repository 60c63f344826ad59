import type { Queryable } from "./db.js";

/** A user's daily limits; 0 is no limit. */
export interface QuotaRow {
  readonly dailyCostUsd: number;
  readonly dailySteps: number;
}

/** Every quota that limits something, by user. */
export async function allQuotas(q: Queryable): Promise<Map<string, QuotaRow>> {
  const rows = await q.query("select user_id, daily_cost_usd, daily_steps from quotas where daily_cost_usd > 0 or daily_steps > 0");
  return new Map(rows.map((r) => [String(r.user_id), { dailyCostUsd: Number(r.daily_cost_usd), dailySteps: Number(r.daily_steps) }]));
}

/** Sets a user's quota (zeros remove the limits). */
export async function setQuota(q: Queryable, userId: string, quota: QuotaRow): Promise<void> {
  await q.query(
    `insert into quotas (user_id, daily_cost_usd, daily_steps) values ($1, $2, $3)
     on conflict (user_id) do update set daily_cost_usd = excluded.daily_cost_usd, daily_steps = excluded.daily_steps, updated_at = now()`,
    [userId, quota.dailyCostUsd, quota.dailySteps],
  );
}
