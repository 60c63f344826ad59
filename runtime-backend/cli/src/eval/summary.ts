import type { ReportRow } from "./report.js";

/** Figures over a set of runs. */
export interface Totals {
  readonly runs: number;
  readonly passed: number;
  /** passed / runs, 0..1. */
  readonly passRate: number;
  readonly meanWallMs: number;
  readonly medianWallMs: number;
  readonly meanSteps: number;
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly costUsd: number;
  readonly modelMs: number;
  readonly toolMs: number;
}

/** One task's runs. */
export interface TaskTotals extends Totals {
  readonly task: string;
  /** Why its last failing run did not pass ("check: detail"). */
  readonly why?: string;
}

function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Pass rate, latency (mean and median wall time), steps, tokens and cost over `rows`. */
export function totalsOf(rows: readonly ReportRow[]): Totals {
  const n = rows.length;
  const passed = rows.filter((r) => r.verdict === "pass").length;
  const walls = rows.map((r) => r.wall_ms);
  return {
    runs: n,
    passed,
    passRate: n ? passed / n : 0,
    meanWallMs: n ? sum(walls) / n : 0,
    medianWallMs: median(walls),
    meanSteps: n ? sum(rows.map((r) => r.steps)) / n : 0,
    tokensIn: sum(rows.map((r) => r.tokens_in)),
    tokensOut: sum(rows.map((r) => r.tokens_out)),
    costUsd: sum(rows.map((r) => r.cost_usd)),
    modelMs: sum(rows.map((r) => r.model_ms)),
    toolMs: sum(rows.map((r) => r.tool_ms)),
  };
}

/** Rows by task name, then attempt (a report lists them in the order the runs ended). */
export function sortedRows(rows: readonly ReportRow[]): ReportRow[] {
  return [...rows].sort((a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : a.attempt - b.attempt));
}

/** Rows grouped by task, tasks in name order. */
export function byTask(rows: readonly ReportRow[]): Map<string, ReportRow[]> {
  const m = new Map<string, ReportRow[]>();
  for (const r of sortedRows(rows)) m.set(r.task, [...(m.get(r.task) ?? []), r]);
  return m;
}

/** Per-task totals, tasks in name order. */
export function taskTotals(rows: readonly ReportRow[]): TaskTotals[] {
  return [...byTask(rows)].map(([task, rs]) => {
    const failing = rs.filter((r) => r.verdict !== "pass").at(-1);
    return { task, ...totalsOf(rs), ...(failing ? { why: `${failing.failed_check ?? "?"}: ${failing.reason ?? ""}` } : {}) };
  });
}

/** "2.31 s" or "850 ms". */
export function seconds(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** "12,345". */
export function count(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** "96.9%". */
export function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

function clip(s: string, n: number): string {
  const one = s.replace(/\s+/g, " ");
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

/**
 * The summary table printed at the end of `baton eval`: one line per task (passes, mean wall
 * time, mean steps, tokens, why it failed) and a totals line.
 */
export function summaryTable(rows: readonly ReportRow[]): string {
  const tasks = taskTotals(rows);
  const w = Math.max(4, ...tasks.map((t) => t.task.length));
  const head = `${"task".padEnd(w)}  ${"pass".padStart(5)}  ${"wall".padStart(8)}  ${"steps".padStart(5)}  ${"tokens in/out".padStart(15)}  why not`;
  const lines = tasks.map((t) => {
    const tokens = `${count(t.tokensIn / t.runs)}/${count(t.tokensOut / t.runs)}`;
    return `${t.task.padEnd(w)}  ${`${t.passed}/${t.runs}`.padStart(5)}  ${seconds(t.meanWallMs).padStart(8)}  ${t.meanSteps.toFixed(1).padStart(5)}  ${tokens.padStart(15)}  ${t.why ? clip(t.why, 90) : ""}`.trimEnd();
  });
  const all = totalsOf(rows);
  const total =
    `${tasks.length} task(s), ${all.runs} run(s): ${all.passed} passed (${percent(all.passRate)}) · ` +
    `wall mean ${seconds(all.meanWallMs)}, median ${seconds(all.medianWallMs)} · steps mean ${all.meanSteps.toFixed(1)} · ` +
    `tokens ${count(all.tokensIn)} in / ${count(all.tokensOut)} out · $${all.costUsd.toFixed(4)} · model ${seconds(all.modelMs)}, tools ${seconds(all.toolMs)}`;
  return [head, "-".repeat(head.length), ...lines, "-".repeat(head.length), total].join("\n");
}
