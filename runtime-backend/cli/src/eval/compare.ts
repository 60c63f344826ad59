import type { ReportRow } from "./report.js";
import { byTask, count, percent, seconds, type Totals, totalsOf } from "./summary.js";

/** One task in two reports. */
export interface TaskDelta {
  readonly task: string;
  readonly a?: Totals;
  readonly b?: Totals;
  /** Passes less often in b than in a. */
  readonly regression: boolean;
  /** Passes more often in b than in a. */
  readonly improvement: boolean;
}

/** Two reports side by side. */
export interface Comparison {
  readonly tasks: readonly TaskDelta[];
  /** Totals over the tasks both reports ran. */
  readonly a: Totals;
  readonly b: Totals;
  readonly regressions: readonly string[];
  readonly improvements: readonly string[];
}

/**
 * Compares report `b` (after a change) with report `a` (before), task by task. A task regresses
 * when its pass rate in b is lower than in a; totals are over the tasks both ran, so a filtered
 * run compares fairly with a whole one.
 */
export function compareReports(a: readonly ReportRow[], b: readonly ReportRow[]): Comparison {
  const ra = byTask(a);
  const rb = byTask(b);
  const names = [...new Set([...ra.keys(), ...rb.keys()])];
  const tasks = names.map((task): TaskDelta => {
    const ta = ra.has(task) ? totalsOf(ra.get(task) ?? []) : undefined;
    const tb = rb.has(task) ? totalsOf(rb.get(task) ?? []) : undefined;
    const both = ta && tb;
    return {
      task,
      ...(ta ? { a: ta } : {}),
      ...(tb ? { b: tb } : {}),
      regression: !!both && tb.passRate < ta.passRate,
      improvement: !!both && tb.passRate > ta.passRate,
    };
  });
  const shared = new Set(tasks.filter((t) => t.a && t.b).map((t) => t.task));
  return {
    tasks,
    a: totalsOf(a.filter((r) => shared.has(r.task))),
    b: totalsOf(b.filter((r) => shared.has(r.task))),
    regressions: tasks.filter((t) => t.regression).map((t) => t.task),
    improvements: tasks.filter((t) => t.improvement).map((t) => t.task),
  };
}

function change(a: number, b: number): string {
  if (a === 0) return b === 0 ? "±0%" : "new";
  const pct = ((b - a) / a) * 100;
  return `${pct >= 0 ? "+" : ""}${pct.toFixed(0)}%`;
}

function perRun(t: Totals, n: number): number {
  return t.runs ? n / t.runs : 0;
}

function pass(t: Totals | undefined): string {
  return t ? `${t.passed}/${t.runs}` : "—";
}

/** The table `baton eval compare` prints: per-task deltas, then totals and the verdict. */
export function comparisonTable(c: Comparison, names: { a: string; b: string }): string {
  const w = Math.max(4, ...c.tasks.map((t) => t.task.length));
  const head = `${"task".padEnd(w)}  ${"pass a → b".padEnd(12)}  ${"wall a → b".padEnd(24)}  ${"steps a → b".padEnd(12)}  tokens a → b`;
  const lines = c.tasks.map((t) => {
    const mark = t.regression ? "  ✗ REGRESSION" : t.improvement ? "  ✓ improved" : !t.a ? "  (only in b)" : !t.b ? "  (only in a)" : "";
    if (!t.a || !t.b) return `${t.task.padEnd(w)}  ${`${pass(t.a)} → ${pass(t.b)}`.padEnd(12)}${mark}`;
    const wall = `${seconds(t.a.meanWallMs)} → ${seconds(t.b.meanWallMs)} (${change(t.a.meanWallMs, t.b.meanWallMs)})`;
    const steps = `${t.a.meanSteps.toFixed(1)} → ${t.b.meanSteps.toFixed(1)}`;
    const tokens = `${count((t.a.tokensIn + t.a.tokensOut) / t.a.runs)} → ${count((t.b.tokensIn + t.b.tokensOut) / t.b.runs)}`;
    return `${t.task.padEnd(w)}  ${`${pass(t.a)} → ${pass(t.b)}`.padEnd(12)}  ${wall.padEnd(24)}  ${steps.padEnd(12)}  ${tokens}${mark}`;
  });
  const pp = ((c.b.passRate - c.a.passRate) * 100).toFixed(1);
  const totals = [
    `a: ${names.a}`,
    `b: ${names.b}`,
    `pass rate ${percent(c.a.passRate)} → ${percent(c.b.passRate)} (${Number(pp) >= 0 ? "+" : ""}${pp} pp) over ${c.tasks.filter((t) => t.a && t.b).length} task(s) in both`,
    `wall mean ${seconds(c.a.meanWallMs)} → ${seconds(c.b.meanWallMs)} (${change(c.a.meanWallMs, c.b.meanWallMs)}), median ${seconds(c.a.medianWallMs)} → ${seconds(c.b.medianWallMs)} (${change(c.a.medianWallMs, c.b.medianWallMs)})`,
    // Per run, so reports with different --repeat compare fairly.
    `per run: steps ${c.a.meanSteps.toFixed(1)} → ${c.b.meanSteps.toFixed(1)} · tokens ${count(perRun(c.a, c.a.tokensIn + c.a.tokensOut))} → ${count(perRun(c.b, c.b.tokensIn + c.b.tokensOut))} (${change(perRun(c.a, c.a.tokensIn + c.a.tokensOut), perRun(c.b, c.b.tokensIn + c.b.tokensOut))}) · cost $${perRun(c.a, c.a.costUsd).toFixed(4)} → $${perRun(c.b, c.b.costUsd).toFixed(4)}`,
    c.regressions.length ? `✗ ${c.regressions.length} regression(s): ${c.regressions.join(", ")}` : "✓ no regressions",
  ];
  if (c.improvements.length) totals.push(`✓ ${c.improvements.length} improved: ${c.improvements.join(", ")}`);
  return [head, "-".repeat(head.length), ...lines, "-".repeat(head.length), ...totals].join("\n");
}
