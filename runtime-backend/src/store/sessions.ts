import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Budget, type Session, SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { BudgetSchema, SessionSchema, UsageSchema, VerdictSchema } from "@baton/gen/baton/v1/descriptors";
import { type ContextState, readContext } from "../context/state.js";
import { contextRowJson, microLinesSql } from "./context-lines.js";
import type { DeclaredTool, ToolRisk } from "@baton/sdk/contract";
import type { Queryable, Row } from "./db.js";

/** A tool the client declared for a session (kept as JSON in the session row; checked by the loop's `readClientTools`). */
export interface SessionClientTool extends DeclaredTool {
  readonly risk: ToolRisk;
}

/** Token and cost totals. */
export interface UsageTotals {
  input: number;
  output: number;
  cached: number;
  cost: number;
}

/** A session's ceiling on what it may spend; 0 in a field: no ceiling on it. */
export interface BudgetLimits {
  /** Input plus output tokens. */
  readonly tokens: number;
  readonly costUsd: number;
  /** Wall time from the session's creation. */
  readonly seconds: number;
}

/** No ceiling at all. */
export const noBudget: BudgetLimits = { tokens: 0, costUsd: 0, seconds: 0 };

/** A budget for the wire. */
export function budgetMessage(b: BudgetLimits): Budget {
  return create(BudgetSchema, { tokens: BigInt(b.tokens), costUsd: b.costUsd, seconds: b.seconds });
}

/** A session as the loop sees it. */
export interface SessionRow {
  readonly id: string;
  readonly userId: string;
  readonly status: SessionStatus;
  readonly task: string;
  readonly goal: string;
  readonly model: string;
  readonly step: number;
  readonly maxSteps: number;
  readonly playbook: string;
  readonly playbookInstructions: string;
  /** Tools the client declared for this session. */
  readonly clientTools: readonly SessionClientTool[];
  readonly usage: UsageTotals;
  readonly budget: BudgetLimits;
  readonly answer: string;
  readonly reason: string;
  readonly stopRequested: boolean;
  readonly context: ContextState;
  /** Seq of the first stored line of `context.micro` (see context-lines.ts). */
  readonly contextFrom: number;
  readonly historyLen: number;
  readonly leaseUntil: Date | null;
  /** The agent instance holding the lease. */
  readonly leaseOwner: string;
  /** The input key of the last user message applied ("msg:<key>#<hash>"), "" when it had none. */
  readonly inputKey: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

function toDate(v: unknown): Date {
  return v instanceof Date ? v : new Date(String(v));
}

/** The micro summaries a session row was read with (`context_micro`, from {@link microLinesSql}). */
function microOf(r: Row): string[] {
  if (!("context_micro" in r)) throw new Error("internal: a session row was read without its context lines (context_micro)");
  const m = typeof r.context_micro === "string" ? (JSON.parse(r.context_micro) as unknown) : r.context_micro;
  return Array.isArray(m) ? m.map(String) : [];
}

/** A sessions row's token and cost totals. */
function usageFromRow(r: Row): UsageTotals {
  return { input: Number(r.input_tokens), output: Number(r.output_tokens), cached: Number(r.cached_tokens), cost: Number(r.cost_usd) };
}

/** The columns {@link summaryFromRow} reads: a session's summary, never its context or history. */
export const summaryColumns =
  "id, status, task, goal, model, step, max_steps, playbook, input_tokens, output_tokens, cached_tokens, cost_usd, answer, reason, created_at, updated_at, verdict, verdict_reason, budget_tokens, budget_cost_usd, budget_seconds";

/** A client's verdict on a finished session (ReportVerdict). */
export interface SessionVerdict {
  readonly passed: boolean;
  readonly reason: string;
}

/** A session's summary: what {@link sessionMessage} puts on the wire. */
export type SessionSummary = Pick<
  SessionRow,
  "id" | "status" | "task" | "goal" | "model" | "step" | "maxSteps" | "playbook" | "usage" | "budget" | "answer" | "reason" | "createdAt" | "updatedAt"
> & {
  /** Set once the client reported one; rows the loop builds itself have none. */
  readonly verdict?: SessionVerdict | undefined;
};

/** How the verdict column encodes a verdict: 0 none, 1 passed, 2 did not pass. */
const verdictCode = { none: 0, passed: 1, failed: 2 } as const;

/**
 * The outcome a person would call a session, as SQL over a sessions row: its status, except that
 * a session whose client's verdict did not pass has failed (the agent's "done" was a claim).
 */
export const outcomeSql = `(case when verdict = ${verdictCode.failed} then ${SessionStatus.FAILED} else status end)`;

/** The summary's columns a commit may change. */
function changedSummary(r: Row): Pick<SessionSummary, "status" | "step" | "goal" | "usage" | "answer" | "reason" | "updatedAt"> {
  return {
    status: Number(r.status) as SessionStatus,
    step: Number(r.step),
    goal: String(r.goal),
    usage: usageFromRow(r),
    answer: String(r.answer),
    reason: String(r.reason),
    updatedAt: toDate(r.updated_at),
    ...(Number(r.verdict ?? 0) === verdictCode.none ? {} : { verdict: { passed: Number(r.verdict) === verdictCode.passed, reason: String(r.verdict_reason ?? "") } }),
  };
}

/** Decodes a sessions row's {@link summaryColumns}: the one decoder of them (the loop's rows and the console's lists). */
export function summaryFromRow(r: Row): SessionSummary {
  return {
    id: String(r.id),
    task: String(r.task),
    model: String(r.model),
    maxSteps: Number(r.max_steps),
    playbook: String(r.playbook),
    budget: { tokens: Number(r.budget_tokens ?? 0), costUsd: Number(r.budget_cost_usd ?? 0), seconds: Number(r.budget_seconds ?? 0) },
    createdAt: toDate(r.created_at),
    ...changedSummary(r),
  };
}

/** The columns a commit may change beyond the summary's: the guards' state and the position. */
function changedState(r: Row): Pick<SessionRow, "stopRequested" | "historyLen" | "contextFrom" | "leaseUntil" | "leaseOwner" | "inputKey"> {
  return {
    stopRequested: Boolean(r.stop_requested),
    historyLen: Number(r.history_len),
    contextFrom: Number(r.context_from ?? 0),
    leaseUntil: r.lease_until == null ? null : toDate(r.lease_until),
    leaseOwner: String(r.lease_owner ?? ""),
    inputKey: String(r.input_key ?? ""),
  };
}

/** Every column a commit may change, and the id: what `commitSql` returns, read by {@link sessionAfter}. */
export const changedColumns: readonly string[] = [
  ...["id", "status", "step", "goal", "input_tokens", "output_tokens", "cached_tokens", "cost_usd", "answer", "reason", "updated_at"],
  ...["stop_requested", "history_len", "context_from", "lease_until", "lease_owner", "input_key"],
];

/** Reads a sessions row (with its `context_micro`). */
export function sessionFromRow(r: Row): SessionRow {
  const context = readContext(typeof r.context === "string" ? JSON.parse(r.context) : r.context);
  context.micro = microOf(r);
  return {
    ...summaryFromRow(r),
    ...changedState(r),
    userId: String(r.user_id),
    playbookInstructions: String(r.playbook_instructions),
    clientTools: JSON.parse(String(r.client_tools ?? "[]")) as SessionClientTool[],
    context,
  };
}

/**
 * The session a commit left: `from` with the {@link changedColumns} the statement returned, and
 * `context`, the one the commit wrote or kept (the committer holds it, so it is not read back).
 */
export function sessionAfter(from: SessionRow, context: ContextState, r: Row): SessionRow {
  return { ...from, ...changedSummary(r), ...changedState(r), context };
}

/** What a new session starts with. */
export interface NewSession {
  readonly id: string;
  readonly userId: string;
  readonly idempotencyKey?: string | undefined;
  readonly task: string;
  readonly model: string;
  readonly maxSteps: number;
  readonly playbook: string;
  readonly playbookInstructions: string;
  readonly clientTools?: readonly SessionClientTool[];
  readonly context: ContextState;
  /** Its ceiling (none when absent). */
  readonly budget?: BudgetLimits;
}

/**
 * Inserts a session, or returns the existing one when the same user already created one with
 * the same idempotency key (a retried CreateSession).
 */
export async function insertSession(q: Queryable, s: NewSession): Promise<SessionRow> {
  const rows = await q.query(
    `with ins as (
       insert into sessions (id, user_id, idempotency_key, status, task, goal, model, max_steps, playbook, playbook_instructions, context, client_tools, budget_tokens, budget_cost_usd, budget_seconds)
       values ($1, $2, $3, $4, $5, '', $6, $7, $8, $9, $10, $11, $13, $14, $15)
       on conflict (user_id, idempotency_key) where idempotency_key is not null do nothing
       returning *
     ), lines as (
       insert into context_lines (session_id, seq, line)
       select ins.id, (m.ord - 1)::int, m.line from ins, json_array_elements_text($12::json) with ordinality as m(line, ord)
     )
     select ins.*, $12::json as context_micro from ins`,
    [
      s.id,
      s.userId,
      s.idempotencyKey || null,
      SessionStatus.IDLE,
      s.task,
      s.model,
      s.maxSteps,
      s.playbook,
      s.playbookInstructions,
      contextRowJson(s.context),
      JSON.stringify(s.clientTools ?? []),
      JSON.stringify(s.context.micro),
      s.budget?.tokens ?? 0,
      s.budget?.costUsd ?? 0,
      s.budget?.seconds ?? 0,
    ],
  );
  if (rows[0]) return sessionFromRow(rows[0]);
  const existing = await q.query(`select s.*, ${microLinesSql("s")} as context_micro from sessions s where user_id = $1 and idempotency_key = $2`, [
    s.userId,
    s.idempotencyKey,
  ]);
  if (!existing[0]) throw new Error("session insert conflicted but no session has that key");
  return sessionFromRow(existing[0]);
}

/** Reads a session. */
export async function getSessionRow(q: Queryable, id: string): Promise<SessionRow | undefined> {
  const rows = await q.query(`select s.*, ${microLinesSql("s")} as context_micro from sessions s where s.id = $1`, [id]);
  return rows[0] ? sessionFromRow(rows[0]) : undefined;
}

/** Sets the stop flag; any replica sees it before its next model call or tool dispatch. */
/** Records the client's verdict on a session (a later one replaces it). */
export async function setVerdict(q: Queryable, id: string, v: SessionVerdict): Promise<void> {
  await q.query("update sessions set verdict = $2, verdict_reason = $3 where id = $1", [id, v.passed ? verdictCode.passed : verdictCode.failed, v.passed ? "" : v.reason]);
}

/** Sets a session's stop flag and the reason it gives. */
export async function requestStop(q: Queryable, id: string, reason: string): Promise<void> {
  await q.query("update sessions set stop_requested = true, reason = $2, updated_at = now() where id = $1", [id, reason]);
}

/**
 * Clears every lease. Only for the embedded store at startup: one process owns its data
 * directory, so any lease found then belongs to a process that died.
 */
export async function clearLeases(q: Queryable): Promise<number> {
  const rows = await q.query("update sessions set lease_until = null where lease_until is not null returning id");
  return rows.length;
}

/** The wire form of a session. */
export function sessionMessage(s: SessionSummary): Session {
  return create(SessionSchema, {
    id: s.id,
    status: s.status,
    task: s.task,
    goal: s.goal,
    model: s.model,
    step: s.step,
    maxSteps: s.maxSteps,
    usage: create(UsageSchema, {
      inputTokens: BigInt(s.usage.input),
      outputTokens: BigInt(s.usage.output),
      cachedTokens: BigInt(s.usage.cached),
      costUsd: s.usage.cost,
    }),
    playbook: s.playbook,
    createdAt: timestampFromDate(s.createdAt),
    updatedAt: timestampFromDate(s.updatedAt),
    answer: s.answer,
    reason: s.reason,
    budget: budgetMessage(s.budget),
    ...(s.verdict ? { verdict: create(VerdictSchema, s.verdict) } : {}),
  });
}
