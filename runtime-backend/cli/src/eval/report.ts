import { readFileSync } from "node:fs";
import type { CheckResult } from "./checks.js";

/** A run's verdict: the task was done (every check held), not done, or could not be run. */
export type Verdict = "pass" | "fail" | "error";

/** How the agent's run ended ("timeout": the task's time limit stopped it; "budget_exhausted": the session's budget did). */
export type RunStatus = "completed" | "failed" | "stopped" | "budget_exhausted" | "timeout" | "error";

/** One line of a report: one run of one task. Keys are snake_case, as in suite files. */
export interface ReportRow {
  readonly task: string;
  /** 1-based, for --repeat. */
  readonly attempt: number;
  readonly via: string;
  /** The remote browser (`--cdp-url`) the run was in; absent when the lane launched its own. */
  readonly browser?: string;
  /** "provider:model" ("script:…" for scripted runs). */
  readonly model: string;
  readonly verdict: Verdict;
  /** The first check that failed ("status" when the agent did not finish, "harness" when the run could not be made). */
  readonly failed_check?: string;
  /** Why it did not pass. */
  readonly reason?: string;
  readonly checks: readonly CheckResult[];
  readonly status: RunStatus;
  readonly answer: string;
  readonly steps: number;
  /** From the task's start to the agent's end (setup and checks excluded). */
  readonly wall_ms: number;
  /** Time in model calls (the backend's traces). */
  readonly model_ms: number;
  /** Time in browser tools. */
  readonly tool_ms: number;
  readonly tokens_in: number;
  readonly tokens_out: number;
  readonly cost_usd: number;
  /** Every tool the agent called, in order. */
  readonly tool_calls: readonly string[];
  /** Tool errors and model errors seen during the run. */
  readonly errors: readonly string[];
  readonly approvals: number;
  readonly session_id: string;
  readonly started_at: string;
  /** The final page as a JPEG data URL (last, so the rest of a line reads first). */
  readonly screenshot?: string;
}

/** One row as a JSONL line (with its newline). */
export function rowLine(row: ReportRow): string {
  return `${JSON.stringify(row)}\n`;
}

/** A report that cannot be read, with where and why. */
export class ReportError extends Error {
  override readonly name = "ReportError";
}

/** Reads a JSONL report; throws {@link ReportError} naming the file and line of a bad row. */
export function readReport(path: string): ReportRow[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ReportError(`cannot read the report ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const rows: ReportRow[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw new ReportError(`${path}:${i + 1}: not a JSON line`);
    }
    const r = row as Partial<ReportRow>;
    if (typeof r !== "object" || r === null || typeof r.task !== "string" || !["pass", "fail", "error"].includes(r.verdict as string)) {
      throw new ReportError(`${path}:${i + 1}: not a report row (it needs "task" and "verdict")`);
    }
    rows.push(row as ReportRow);
  });
  if (rows.length === 0) throw new ReportError(`${path}: the report has no rows`);
  return rows;
}
