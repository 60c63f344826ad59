import { type OutStream, Spinner } from "../run/spinner.js";
import { terminalText } from "../run/terminal-text.js";
import type { EvalListener } from "./run-eval.js";
import type { ReportRow } from "./report.js";
import { seconds } from "./summary.js";

/** The progress view of `baton eval`, and how to stop its spinner. */
export interface EvalProgress extends EvalListener {
  end(): void;
}

function label(task: string, attempt: number, repeat: number): string {
  return repeat > 1 ? `${task} #${attempt}` : task;
}

/**
 * Shows how far an eval is: runs done out of all, passed so far, and the runs under way. On a
 * terminal the counts and current runs stay on a spinner line under the finished runs; in a
 * pipe or CI each run prints a line when it starts and one when it ends.
 */
export function evalProgress(out: OutStream, total: number, repeat: number, tty: boolean): EvalProgress {
  const spinner = tty ? new Spinner(out) : undefined;
  // Task names, reasons and answers come from suites, pages and models: printed clean.
  const log = (line: string) => (spinner ? spinner.log(line) : out.write(`${terminalText(line)}\n`));
  const running = new Set<string>();
  let done = 0;
  let passed = 0;
  const counts = () => `[${done}/${total} done, ${passed} passed]`;
  const status = () => {
    if (spinner && running.size) spinner.status(`${counts()} running ${[...running].join(", ")}`);
  };
  return {
    started(task, attempt) {
      const name = label(task, attempt, repeat);
      running.add(name);
      if (spinner) status();
      else log(`… ${counts()} running ${name}`);
    },
    finished(row: ReportRow) {
      const name = label(row.task, row.attempt, repeat);
      running.delete(name);
      done++;
      if (row.verdict === "pass") passed++;
      const facts = `${seconds(row.wall_ms)} · ${row.steps} step(s)`;
      const why = row.verdict === "pass" ? "" : ` · ${row.verdict === "error" ? "error" : row.failed_check}: ${(row.reason ?? "").split("\n")[0]}`;
      log(`${row.verdict === "pass" ? "✓" : "✗"} [${done}/${total}] ${name} · ${facts}${why}`);
      status();
    },
    end: () => spinner?.stop(),
  };
}
