import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { type GetUsageResponse, type Quota } from "@baton/gen/baton/v1/console_pb";
import { GetUsageResponseSchema, QuotaSchema, UsageRowSchema } from "@baton/gen/baton/v1/descriptors";
import { utcDayStart } from "../loop/quota.js";
import { getAccount } from "../store/accounts.js";
import { usageByDay } from "../store/usage.js";
import { requireAdmin } from "./accounts.js";
import type { ConsoleDeps } from "./deps.js";

/** The user's usage per day and model over `days` days (today included), and today's against the quota. */
export async function usageOf(deps: ConsoleDeps, userId: string, days: number): Promise<GetUsageResponse> {
  const today = utcDayStart(Date.now());
  const since = new Date(today.getTime() - (days - 1) * 86_400_000);
  const rows = await usageByDay(deps.db, userId, since);
  const todayKey = today.toISOString().slice(0, 10);
  const todays = rows.filter((r) => r.day === todayKey);
  return create(GetUsageResponseSchema, {
    rows: rows.map((r) => create(UsageRowSchema, { day: r.day, model: r.model, steps: r.steps, inputTokens: r.inputTokens, outputTokens: r.outputTokens, costUsd: r.cost })),
    quota: quotaMessage(deps, userId),
    stepsToday: todays.reduce((a, r) => a + r.steps, 0),
    costTodayUsd: todays.reduce((a, r) => a + r.cost, 0),
    resetsAt: timestampFromDate(new Date(today.getTime() + 86_400_000)),
  });
}

/** A user's quota as the console shows it. */
export function quotaMessage(deps: ConsoleDeps, userId: string): Quota {
  return create(QuotaSchema, deps.quotas.quotaOf(userId));
}

/** An admin sets a user's daily quota. */
export async function setUserQuota(deps: ConsoleDeps, adminId: string, userId: string, quota: Quota | undefined): Promise<Quota> {
  await requireAdmin(deps.db, adminId);
  if (!(await getAccount(deps.db, userId))) throw new ConnectError(`user ${userId.slice(0, 64)} not found`, Code.NotFound);
  const q = await deps.quotas.set(userId, { dailyCostUsd: quota?.dailyCostUsd ?? 0, dailySteps: quota?.dailySteps ?? 0 });
  return create(QuotaSchema, q);
}
