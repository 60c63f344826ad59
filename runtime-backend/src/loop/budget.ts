import { Code, ConnectError } from "@connectrpc/connect";
import type { Budget, Session } from "@baton/gen/baton/v1/agent_pb";
import { money } from "../base/money.js";
import type { BudgetLimits, SessionRow } from "../store/sessions.js";

/** What a session has spent, measured as its budget is. */
export interface Spent {
  readonly tokens: number;
  readonly costUsd: number;
  readonly seconds: number;
}

/** The share of a ceiling left at which the model is told how much remains. */
export const lowShare = 0.2;

/** What the session has spent by `now` (ms): tokens in and out, cost, wall time since it was created. */
export function spentOf(s: Pick<SessionRow, "usage" | "createdAt">, now: number): Spent {
  return { tokens: s.usage.input + s.usage.output, costUsd: s.usage.cost, seconds: Math.max(0, (now - s.createdAt.getTime()) / 1000) };
}

/** Seconds as people read them ("2 min 5 s"). */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${Math.floor(m / 60)} h`;
}

const count = (n: number) => Math.round(n).toLocaleString("en-US");

/** One measure of a budget: its ceiling, what was spent, and how each reads. */
interface Measure {
  readonly limit: number;
  readonly spent: number;
  readonly used: string;
  readonly left: string;
}

function measures(b: BudgetLimits, spent: Spent): Measure[] {
  const all: Measure[] = [];
  if (b.tokens > 0) {
    all.push({ limit: b.tokens, spent: spent.tokens, used: `${count(spent.tokens)} of ${count(b.tokens)} tokens used`, left: `${count(Math.max(0, b.tokens - spent.tokens))} of ${count(b.tokens)} tokens` });
  }
  if (b.costUsd > 0) {
    all.push({ limit: b.costUsd, spent: spent.costUsd, used: `${money(spent.costUsd)} of ${money(b.costUsd)} spent`, left: `${money(Math.max(0, b.costUsd - spent.costUsd))} of ${money(b.costUsd)}` });
  }
  if (b.seconds > 0) {
    all.push({ limit: b.seconds, spent: spent.seconds, used: `${duration(spent.seconds)} of ${duration(b.seconds)} used`, left: `${duration(Math.max(0, b.seconds - spent.seconds))} of ${duration(b.seconds)}` });
  }
  return all;
}

/**
 * Which ceilings the session reached ("2,200 of 1,300 tokens used."), or undefined while every
 * ceiling of its budget is above what it spent. It is the session's reason beside its
 * BUDGET_EXHAUSTED status, which every surface shows as "Budget reached", so it does not say so
 * again. Asked before each model call: every result the client sent is
 * recorded by then, so a session never ends in the middle of an action.
 */
export function budgetReached(s: Pick<SessionRow, "budget" | "usage" | "createdAt">, now: number): string | undefined {
  const over = measures(s.budget, spentOf(s, now)).filter((m) => m.spent >= m.limit);
  return over.length ? `${over.map((m) => m.used).join(", ")}.` : undefined;
}

/** What the session spent against each ceiling of its budget ("2,200 of 5,000 tokens used, 12 s of 10 min used"); "" without a budget. */
export function spendLine(b: BudgetLimits, spent: Spent): string {
  return measures(b, spent)
    .map((m) => m.used)
    .join(", ");
}

/** A session from the wire, measured as its budget is: its ceiling and what it spent by `now` (ms). */
export function wireSpend(s: Session, now: number): { budget: BudgetLimits; spent: Spent } {
  const u = s.usage;
  const createdAt = new Date(Number(s.createdAt?.seconds ?? 0n) * 1000);
  return { budget: budgetOf(s.budget), spent: spentOf({ usage: { input: Number(u?.inputTokens ?? 0n), output: Number(u?.outputTokens ?? 0n), cached: 0, cost: u?.costUsd ?? 0 }, createdAt }, now) };
}

/**
 * The line that tells the model what is left, once a fifth or less of any ceiling remains
 * (every ceiling is named then); "" before that.
 */
export function budgetNote(s: Pick<SessionRow, "budget" | "usage" | "createdAt">, now: number): string {
  const all = measures(s.budget, spentOf(s, now));
  if (!all.some((m) => m.limit - m.spent <= m.limit * lowShare)) return "";
  return `Budget: ${all.map((m) => m.left).join(", ")} left for this task. The session ends when one runs out: finish now, or call done with what is done and what remains.`;
}

/** A budget from the wire (the proto's limits are checked already); a cost that is not an amount is InvalidArgument. */
export function budgetOf(b: Budget | undefined): BudgetLimits {
  const cost = b?.costUsd ?? 0;
  if (!Number.isFinite(cost) || cost < 0) throw new ConnectError(`budget.cost_usd ${cost} is not an amount of US dollars`, Code.InvalidArgument);
  return { tokens: Number(b?.tokens ?? 0n), costUsd: cost, seconds: b?.seconds ?? 0 };
}
