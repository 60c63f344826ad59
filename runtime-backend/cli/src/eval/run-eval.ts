import { randomUUID } from "node:crypto";
import type { BatonClient } from "@baton/sdk/client";
import { redactText, recordSpan, spanAttr, sessionTraceId } from "@baton/backend/log";
import type { ReportRow } from "./report.js";
import { runAttempt } from "./run-attempt.js";
import type { EvalTask } from "./task.js";
import type { EvalBackend, Lane, Via } from "./via.js";

/** What the harness tells while it runs. */
export interface EvalListener {
  /** A run starts on a lane. */
  started(task: string, attempt: number): void;
  /** A run ended with this row. */
  finished(row: ReportRow): void;
}

/** Options of {@link runEval}. */
export interface EvalOptions {
  readonly tasks: readonly EvalTask[];
  readonly suiteDir: string;
  readonly via: Via;
  readonly client: BatonClient;
  /** Where `client` connects (for a via whose agent runs in the browser). */
  readonly backend: EvalBackend;
  /** The model of each task's runs (its script, or the --model for all). */
  readonly modelOf: (task: EvalTask) => string;
  /** Runs of each task (default 1). */
  readonly repeat?: number;
  /** Runs at once, each in its own browser (default 1). */
  readonly concurrency?: number;
  readonly listener?: EvalListener;
  /** Stops starting runs and stops those under way (Ctrl-C). */
  readonly signal?: AbortSignal;
  /** Restarts the backend on its store, for tasks with `restart_backend` (run while no other run is under way). */
  readonly restartBackend?: () => Promise<void>;
}

/**
 * Lets runs share the backend, and a run that restarts it have it alone: such a run waits for
 * those under way to end, and no other starts until it has ended.
 */
function backendGate() {
  let running = 0;
  let alone = 0;
  let wake: (() => void)[] = [];
  const changed = () => {
    for (const w of wake.splice(0)) w();
  };
  const wait = () => new Promise<void>((r) => wake.push(r));
  return {
    async enter(exclusive: boolean): Promise<void> {
      if (exclusive) alone++;
      while (exclusive ? running > 0 : alone > 0) await wait();
      running++;
    },
    leave(exclusive: boolean): void {
      running--;
      if (exclusive) alone--;
      changed();
    },
  };
}

/**
 * Runs every task `repeat` times on `concurrency` lanes (browsers opened by the via, one run at
 * a time each), in suite order, and resolves with the rows in the order the runs ended. Lanes
 * are opened as the first runs need them and closed at the end, whatever happens; when no lane
 * can be opened (no browser), it rejects with the reason.
 */
export async function runEval(o: EvalOptions): Promise<ReportRow[]> {
  const repeat = o.repeat ?? 1;
  const jobs = Array.from({ length: repeat }, (_, r) => o.tasks.map((task) => ({ task, attempt: r + 1 }))).flat();
  const lanes: Lane[] = [];
  const rows: ReportRow[] = [];
  let next = 0;
  const gate = backendGate();
  const worker = async () => {
    if (next >= jobs.length || o.signal?.aborted) return;
    const lane = await o.via.openLane();
    lanes.push(lane);
    while (next < jobs.length && !o.signal?.aborted) {
      const job = jobs[next++] as (typeof jobs)[number];
      o.listener?.started(job.task.name, job.attempt);
      const alone = job.task.trust.restartBackend;
      await gate.enter(alone);
      const start = Date.now();
      const row = await runAttempt({
        task: job.task,
        attempt: job.attempt,
        suiteDir: o.suiteDir,
        model: o.modelOf(job.task),
        via: o.via.name,
        client: o.client,
        backend: o.backend,
        lane,
        ...(o.signal ? { stop: o.signal } : {}),
        ...(o.restartBackend ? { restartBackend: o.restartBackend } : {}),
      }).finally(() => gate.leave(alone));
      traceRow(row, start);
      rows.push(row);
      o.listener?.finished(row);
    }
  };
  try {
    const n = Math.max(1, Math.min(o.concurrency ?? 1, jobs.length));
    const settled = await Promise.allSettled(Array.from({ length: n }, worker));
    // A lane that could not open leaves its share to the others; with none open, nothing ran.
    const failed = settled.find((s) => s.status === "rejected");
    if (failed && lanes.length === 0) throw failed.reason;
  } finally {
    await Promise.all(lanes.map((l) => l.close().catch(() => undefined)));
  }
  return rows;
}

/**
 * An `eval_task {task}` span in the trace of the run's session (beside the backend's spans of
 * that session), from the run's start to its row: the task, the attempt, the verdict and the
 * check that failed (never the reason's text, which may quote the page).
 */
function traceRow(row: ReportRow, start: number): void {
  recordSpan({
    traceId: sessionTraceId(row.session_id || `eval_${randomUUID()}`),
    name: `eval_task ${row.task}`,
    start,
    attributes: {
      "baton.eval.task": row.task,
      "baton.eval.attempt": row.attempt,
      "baton.eval.via": row.via,
      "baton.eval.verdict": row.verdict,
      ...(row.failed_check ? { "baton.eval.failed_check": row.failed_check } : {}),
      ...(row.session_id ? { [spanAttr.conversation]: row.session_id } : {}),
      "baton.eval.model": row.model,
    },
    redact: redactText,
    outcome: row.verdict,
    errorType: row.verdict === "pass" ? undefined : (row.failed_check ?? row.verdict),
  });
}
