/**
 * `npm run bench:snapshot-diffs`: page tokens per task of the built-in eval suite with its
 * script models, in one run (`baton eval`, headless, concurrency 1, snapshot diffs on as in
 * `baton run`). For every whole-page take_snapshot it counts the tokens (o200k_base) of:
 *
 *   whole  — the whole page, as every snapshot was before diffs;
 *   loop   — what the loop's model was given (a diff only where the prompt still holds the base);
 *   kept   — what a client that keeps every result gets (`baton mcp --snapshot-diffs`): a diff
 *            against the previous snapshot of the same document whenever it is smaller.
 *
 * It prints the sums per multi-step task (two snapshots or more) and the pass rate of the run.
 *   BENCH_FILTER=shop/* — only these tasks (baton eval's --filter).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import type { RunContext } from "@baton/sdk/client";
import { diffHeader, type EngineHandlers, pageDiff, renderLine, type SnapshotLine } from "@baton/sdk/engine";
import { evalCommand } from "../src/eval/eval-command.js";
import type { HandlerWrapper } from "../src/eval/headless-via.js";
import { readReport } from "../src/eval/report.js";

interface Tally {
  snapshots: number;
  whole: number;
  loop: number;
  kept: number;
}

const tokens = (s: string): number => encode(s).length;
const render = (lines: readonly SnapshotLine[]): string => lines.map(renderLine).join("\n");

// Runs are one at a time, in suite order: the n-th wrapped engine is the n-th row of the report.
const tallies: Tally[] = [];
const count: HandlerWrapper = (handlers: EngineHandlers<RunContext>, engine) => {
  const t: Tally = { snapshots: 0, whole: 0, loop: 0, kept: 0 };
  tallies.push(t);
  let before: { lines: readonly SnapshotLine[]; document: string } | undefined;
  return {
    ...handlers,
    takeSnapshot: async (p, ctx) => {
      const r = await handlers.takeSnapshot(p, ctx);
      const snap = engine.lastSnapshot;
      if (p.ref || p.offset || !snap) return r;
      const whole = tokens(render(snap.lines));
      const document = engine.page.mainFrame()?.loaderId ?? "";
      const diff = before && before.document === document ? pageDiff(before.lines, snap.lines, diffHeader(1)) : undefined;
      t.snapshots++;
      t.whole += whole;
      t.loop += tokens(r.text ?? "");
      t.kept += diff ? Math.min(whole, tokens(diff.text)) : whole;
      before = { lines: snap.lines, document };
      return r;
    },
  };
};

const dir = mkdtempSync(join(tmpdir(), "baton-bench-diffs-"));
try {
  const out = join(dir, "report.jsonl");
  const argv = ["--concurrency", "1", "--out", out, "--data-dir", join(dir, "store"), ...(process.env.BENCH_FILTER ? ["--filter", process.env.BENCH_FILTER] : [])];
  const quiet = { write: () => true };
  await evalCommand(argv, { out: quiet, err: process.stderr, env: process.env, onInterrupt: () => () => undefined, wrapHandlers: count });
  const rows = readReport(out);
  const multi = rows.map((row, i) => ({ row, t: tallies[i]! })).filter((x) => x.t && x.t.snapshots >= 2);
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  console.log(`${"task".padEnd(28)}${pad("snaps", 6)}${pad("whole", 8)}${pad("loop", 8)}${pad("kept", 8)}  pass`);
  for (const { row, t } of multi) console.log(`${row.task.padEnd(28)}${pad(t.snapshots, 6)}${pad(t.whole, 8)}${pad(t.loop, 8)}${pad(t.kept, 8)}  ${row.verdict}`);
  const mean = (k: keyof Tally) => multi.reduce((n, x) => n + x.t[k], 0) / Math.max(1, multi.length);
  const less = (k: keyof Tally) => `${(100 * (1 - mean(k) / Math.max(1, mean("whole")))).toFixed(1)}% fewer`;
  const passed = rows.filter((r) => r.verdict === "pass").length;
  console.log(
    `\n${multi.length} multi-step task(s) of ${rows.length}; page tokens per task: whole ${mean("whole").toFixed(0)}, loop ${mean("loop").toFixed(0)} (${less("loop")}), kept ${mean("kept").toFixed(0)} (${less("kept")}); pass ${passed}/${rows.length} (${((100 * passed) / rows.length).toFixed(1)}%)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
