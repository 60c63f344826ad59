import type { Queryable } from "./db.js";

/** A user's use of one model on one day (UTC). */
export interface UsageDayRow {
  readonly day: string;
  readonly model: string;
  readonly steps: number;
  readonly inputTokens: bigint;
  readonly outputTokens: bigint;
  readonly cost: number;
}

/** A user's usage per day and model since `since`, oldest day first; from the step traces. */
export async function usageByDay(q: Queryable, userId: string, since: Date): Promise<UsageDayRow[]> {
  const rows = await q.query(
    `select to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, t.model, count(*)::int as steps,
            coalesce(sum(t.input_tokens), 0)::text as input_tokens, coalesce(sum(t.output_tokens), 0)::text as output_tokens,
            coalesce(sum(t.cost_usd), 0) as cost_usd
       from traces t join sessions s on s.id = t.session_id
      where s.user_id = $1 and t.created_at >= $2
      group by 1, 2 order by 1, 2`,
    [userId, since],
  );
  return rows.map((r) => ({
    day: String(r.day),
    model: String(r.model),
    steps: Number(r.steps),
    inputTokens: BigInt(String(r.input_tokens)),
    outputTokens: BigInt(String(r.output_tokens)),
    cost: Number(r.cost_usd),
  }));
}

/** One session's totals (as its row says) and what of them it spent since the start of a day. */
export interface SessionDayUsage {
  readonly sessionId: string;
  /** The session's step counter and cost, all time. */
  readonly step: number;
  readonly cost: number;
  /** Steps and cost since the day began. */
  readonly stepsToday: number;
  readonly costToday: number;
}

/**
 * A user's sessions that took steps since `dayStart`, each with its all-time totals and the
 * day's share, read in one statement so both are of the same moment: the quota meter counts
 * later steps from those totals on.
 */
export async function sessionsUsageSince(q: Queryable, userId: string, dayStart: Date): Promise<SessionDayUsage[]> {
  const rows = await q.query(
    `select s.id, s.step, s.cost_usd, count(t.step)::int as steps_today, coalesce(sum(t.cost_usd), 0) as cost_today
       from sessions s join traces t on t.session_id = s.id and t.created_at >= $2
      where s.user_id = $1
      group by s.id, s.step, s.cost_usd`,
    [userId, dayStart],
  );
  return rows.map((r) => ({
    sessionId: String(r.id),
    step: Number(r.step),
    cost: Number(r.cost_usd),
    stepsToday: Number(r.steps_today),
    costToday: Number(r.cost_today),
  }));
}
