import type { Queryable } from "./db.js";
import { type BudgetLimits, noBudget } from "./sessions.js";

/** A user's default budget for new sessions (no ceiling when none is set). */
export async function defaultBudget(q: Queryable, userId: string): Promise<BudgetLimits> {
  const [r] = await q.query("select tokens, cost_usd, seconds from default_budgets where user_id = $1", [userId]);
  return r ? { tokens: Number(r.tokens), costUsd: Number(r.cost_usd), seconds: Number(r.seconds) } : noBudget;
}

/** Sets a user's default budget (all zeros: none). */
export async function setDefaultBudget(q: Queryable, userId: string, b: BudgetLimits): Promise<void> {
  await q.query(
    `insert into default_budgets (user_id, tokens, cost_usd, seconds) values ($1, $2, $3, $4)
     on conflict (user_id) do update set tokens = excluded.tokens, cost_usd = excluded.cost_usd, seconds = excluded.seconds, updated_at = now()`,
    [userId, b.tokens, b.costUsd, b.seconds],
  );
}
