import { join } from "node:path";
import type { ApprovalDecision, BatonClient, RunEvent, Secret } from "@baton/sdk/client";
import { sitePolicyFromObject } from "@baton/sdk/policy";
import { totpSecret } from "@baton/sdk/totp";
import { type ClientVerdict, reportVerdict } from "../run/report-verdict.js";
import type { StaticServer } from "../run/static-server.js";
import { type CheckResult, runChecks } from "./checks.js";
import type { ReportRow, RunStatus, Verdict } from "./report.js";
import { startSite } from "./site-server.js";
import type { EvalTask } from "./task.js";
import { placeOrigins, placeOriginsIn, type RunOrigins } from "./task-trust.js";
import type { Attempt, EvalBackend, Lane } from "./via.js";

/** One run of one task. */
export interface AttemptPlan {
  readonly task: EvalTask;
  /** 1-based, for --repeat. */
  readonly attempt: number;
  readonly suiteDir: string;
  /** The "provider:model" this run uses. */
  readonly model: string;
  readonly via: string;
  readonly client: BatonClient;
  readonly backend: EvalBackend;
  readonly lane: Lane;
  /** Stops the run early (Ctrl-C). */
  readonly stop?: AbortSignal;
  /** Restarts the harness's backend on its store (for a task's `restart_backend`); unset: it cannot be. */
  readonly restartBackend?: () => Promise<void>;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function runSetup(task: EvalTask, site: StaticServer, origins: RunOrigins): Promise<void> {
  for (const s of task.setup) {
    const res = await fetch(new URL(s.path, site.url), {
      method: s.method,
      ...(s.body !== undefined ? { body: JSON.stringify(placeOriginsIn(s.body, origins)), headers: { "content-type": "application/json" } } : {}),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`setup ${s.method} ${s.path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  }
}

function startUrlOf(task: EvalTask, site: StaticServer | undefined): string {
  if (task.startUrl && /^https?:\/\//i.test(task.startUrl)) return task.startUrl;
  return new URL(task.startUrl ?? "/", `${site?.url}/`).href;
}

/** What a task's trust keys ask of this run, its sites' origins in place of the placeholders. */
function trustJob(task: EvalTask, origins: RunOrigins) {
  const { policy, secrets, budget } = task.trust;
  const list: Secret[] = secrets.map((s) => {
    const secret = { name: s.name, value: s.value, origins: s.origins.map((o) => placeOrigins(o, origins)) };
    return s.totp ? totpSecret(secret) : secret;
  });
  return {
    ...(policy ? { policy: sitePolicyFromObject(placeOriginsIn(policy, origins), `task ${task.name}'s policy`) } : {}),
    ...(list.length ? { secrets: list } : {}),
    ...(budget ? { budget } : {}),
  };
}

/**
 * The harness's answer to a held call, as the task says. An "always" or "never" lasts the run's
 * time limit: the store may be the user's own (--data-dir), and a later run on that port is
 * another site to them.
 */
function approvalOf(task: EvalTask): ApprovalDecision {
  const site = task.trust.answer === "always" || task.trust.answer === "never";
  const scope = site ? { scope: "site" as const, expiresAt: Date.now() + task.timeoutMs } : {};
  return task.approve ? { approved: true, reason: "approved by the eval task", ...scope } : { approved: false, reason: "The user declined this action.", ...scope };
}

/**
 * For a task's `restart_backend`: once the answer to the first held call is in the store (a
 * rule for the run's site), restarts the backend, while the run carries on; its check says
 * whether the restart was made.
 */
async function restartOnceStored(p: AttemptPlan, site: string | undefined): Promise<CheckResult> {
  const fail = (detail: string): CheckResult => ({ check: "restart", ok: false, detail });
  if (!p.restartBackend) return fail("this harness's backend cannot be restarted");
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rules } = await p.client.listApprovalRules({});
    if (rules.some((r) => r.site === site)) break;
    if (Date.now() > deadline) return fail(`the answer for ${site} never reached the store`);
    await new Promise((r) => setTimeout(r, 20));
  }
  try {
    await p.restartBackend();
    return { check: "restart", ok: true, detail: "the backend restarted once the answer was stored" };
  } catch (e) {
    return fail(`the backend did not restart: ${message(e)}`);
  }
}

/** Forgets what the run's "always" / "never" answers stored for its sites: the eval's store may be the user's own. */
async function forgetRules(p: AttemptPlan, origins: RunOrigins): Promise<void> {
  const sites = new Set(Object.values(origins));
  const { rules } = await p.client.listApprovalRules({});
  for (const r of rules) if (sites.has(r.site)) await p.client.revokeApprovalRule({ id: r.id });
}

/** What the run's events tell: time in tools, tool errors and approvals. */
function eventTally() {
  const t = { toolMs: 0, errors: [] as string[], approvals: 0 };
  const onEvent = (e: RunEvent) => {
    if (e.type === "tool_end") {
      t.toolMs += e.ms;
      if (e.error) t.errors.push(`${e.tool.name}: ${e.error.message.split("\n")[0]}`);
    } else if (e.type === "approval") t.approvals++;
  };
  return { t, onEvent };
}

function verdictOf(status: RunStatus, expected: RunStatus, reason: string, checks: readonly CheckResult[]): { verdict: Verdict; failed_check?: string; reason?: string } {
  if (status !== expected && status === "completed") return { verdict: "fail", failed_check: "status", reason: `the agent finished; the task expects the status ${expected}` };
  if (status !== expected) return { verdict: "fail", failed_check: "status", reason: status === "timeout" || status === "budget_exhausted" ? reason : `the agent ${status === "failed" ? "failed" : "stopped"}: ${reason}` };
  const broken = checks.find((c) => !c.ok);
  return broken ? { verdict: "fail", failed_check: broken.check, reason: broken.detail } : { verdict: "pass" };
}

/** A run's verdict as the session keeps it: the task, and the check that did not hold. */
function sessionVerdict(taskName: string, v: { verdict: Verdict; failed_check?: string; reason?: string }): ClientVerdict {
  if (v.verdict === "pass") return { passed: true, reason: "" };
  const why = v.failed_check === "status" ? (v.reason ?? "") : `the ${v.failed_check ?? "task's"} check did not hold: ${v.reason ?? ""}`;
  return { passed: false, reason: `${taskName}: ${why}` };
}

/**
 * Runs one task once on a lane: a fresh copy of its site, the setup requests, the agent's run
 * (stopped at the task's time limit), then the checks on the final page, the site's state and
 * the answer, the backend's trace of the session, and a screenshot; the verdict is recorded on
 * the session (ReportVerdict). Never throws: a run that cannot be made is a row with the verdict
 * "error".
 */
export async function runAttempt(p: AttemptPlan): Promise<ReportRow> {
  const { task } = p;
  const startedAt = new Date().toISOString();
  const base = { task: task.name, attempt: p.attempt, via: p.via, ...(p.lane.browser ? { browser: p.lane.browser } : {}), model: p.model, started_at: startedAt };
  const blank = { checks: [], answer: "", steps: 0, wall_ms: 0, model_ms: 0, tool_ms: 0, tokens_in: 0, tokens_out: 0, cost_usd: 0, tool_calls: [], errors: [], approvals: 0, session_id: "" };
  let site: StaticServer | undefined;
  let other: StaticServer | undefined;
  let origins: RunOrigins = {};
  let attempt: Attempt | undefined;
  let restart: Promise<CheckResult> | undefined;
  const harnessError = (why: string, status: RunStatus = "error"): ReportRow => ({ ...base, verdict: "error", failed_check: "harness", reason: why, status, ...blank });
  try {
    try {
      if (task.site) site = await startSite(join(p.suiteDir, "sites", task.site));
      if (task.trust.otherSite) other = await startSite(join(p.suiteDir, "sites", task.trust.otherSite));
      origins = { ...(site ? { site: new URL(site.url).origin } : {}), ...(other ? { other_site: new URL(other.url).origin } : {}) };
      if (site) await runSetup(task, site, origins);
    } catch (e) {
      return harnessError(`the site could not be prepared: ${message(e)}`);
    }
    const { t, onEvent } = eventTally();
    const answer = () => {
      if (task.trust.restartBackend) restart ??= restartOnceStored(p, origins.site);
      return approvalOf(task);
    };
    const limit = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      limit.abort();
    }, task.timeoutMs);
    const started = performance.now();
    try {
      attempt = await p.lane.attempt({
        client: p.client,
        backend: p.backend,
        goal: task.goal,
        startUrl: startUrlOf(task, site),
        model: p.model,
        maxSteps: task.maxSteps,
        signal: p.stop ? AbortSignal.any([limit.signal, p.stop]) : limit.signal,
        onEvent,
        onApproval: answer,
        ...(task.userReply !== undefined ? { userReply: task.userReply } : {}),
        filesDir: join(p.suiteDir, "files"),
        ...trustJob(task, origins),
      });
    } catch (e) {
      return harnessError(`the run could not be made: ${message(e)}`);
    } finally {
      clearTimeout(timer);
    }
    const wallMs = Math.round(performance.now() - started);
    const { outcome } = attempt;
    const tally = attempt.tally ?? t;
    const status: RunStatus = timedOut ? "timeout" : outcome.status;
    const got = await p.client.getSession({ sessionId: outcome.sessionId }).catch(() => undefined);
    const traces = got?.traces ?? [];
    const toolCalls = traces.flatMap((tr) => tr.toolCalls);
    // The screenshot before the checks: the "masked" check reads the report's own image.
    const screenshot = await attempt.screenshot();
    const checks = await runChecks(task, { page: attempt.page, ...(site ? { siteUrl: site.url } : {}), answer: outcome.answer, toolCalls, approvals: tally.approvals, ...(screenshot ? { screenshot } : {}) });
    if (task.trust.restartBackend) checks.unshift(restart ? await restart : { check: "restart", ok: false, detail: "no call was held for approval, so the backend was never restarted" });
    const usage = (got?.session ?? outcome.session).usage;
    const reason = timedOut ? `the task's time limit (${task.timeoutMs} ms) ran out` : outcome.reason;
    const judged = verdictOf(status, task.trust.status, reason, checks);
    // The verdict goes to the backend too, so the console shows the run as the report does.
    const unrecorded = outcome.sessionId ? await reportVerdict(p.client, outcome.sessionId, sessionVerdict(task.name, judged)) : undefined;
    return {
      ...base,
      ...judged,
      checks,
      status,
      answer: outcome.answer,
      steps: (got?.session ?? outcome.session).step,
      wall_ms: wallMs,
      model_ms: traces.reduce((n, tr) => n + tr.latencyMs, 0),
      tool_ms: tally.toolMs,
      tokens_in: Number(usage?.inputTokens ?? 0),
      tokens_out: Number(usage?.outputTokens ?? 0),
      cost_usd: usage?.costUsd ?? 0,
      tool_calls: toolCalls,
      errors: [...tally.errors, ...traces.flatMap((tr) => tr.errors), ...(unrecorded ? [`report_verdict: ${unrecorded}`] : [])],
      approvals: tally.approvals,
      session_id: outcome.sessionId,
      ...(screenshot ? { screenshot } : {}),
    };
  } finally {
    await attempt?.end().catch(() => undefined);
    // A run that ended early still lets its restart finish before the next run starts.
    await restart?.catch(() => undefined);
    if (task.trust.answer === "always" || task.trust.answer === "never") await forgetRules(p, origins).catch(() => undefined);
    await site?.close().catch(() => undefined);
    await other?.close().catch(() => undefined);
  }
}
