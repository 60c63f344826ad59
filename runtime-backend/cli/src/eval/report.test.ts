import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { recordingDeps as deps } from "@baton/backend/testing/command-deps";
import { compareReports, comparisonTable } from "./compare.js";
import { evalCommand, evalExitCodes } from "./eval-command.js";
import { htmlReport } from "./html-report.js";
import { readReport, type ReportRow, rowLine } from "./report.js";
import { summaryTable, totalsOf } from "./summary.js";

const dir = mkdtempSync(join(tmpdir(), "baton-eval-report-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function row(task: string, verdict: ReportRow["verdict"], wall: number, over: Partial<ReportRow> = {}): ReportRow {
  return {
    task,
    attempt: 1,
    via: "headless",
    model: "script:x.json",
    verdict,
    ...(verdict === "pass" ? {} : { failed_check: "state", reason: "cart.lines[0].qty: expected 3, got 1" }),
    checks: [],
    status: "completed",
    answer: "done",
    steps: 4,
    wall_ms: wall,
    model_ms: 10,
    tool_ms: wall - 100,
    tokens_in: 1000,
    tokens_out: 50,
    cost_usd: 0.001,
    tool_calls: ["take_snapshot", "click", "done"],
    errors: [],
    approvals: 0,
    session_id: "ses_1",
    started_at: "2026-05-01T10:00:00.000Z",
    ...over,
  };
}

describe("reports", () => {
  const before = [row("shop/a", "pass", 1000), row("shop/b", "pass", 3000), row("shop/b", "pass", 1000, { attempt: 2 }), row("mail/c", "fail", 2000)];
  const after = [row("shop/a", "pass", 1500), row("shop/b", "fail", 3000), row("shop/b", "pass", 1000, { attempt: 2 }), row("mail/c", "pass", 2000), row("new/d", "pass", 10)];

  it("totals pass rate, mean and median latency, steps and tokens", () => {
    const t = totalsOf(before);
    expect(t).toMatchObject({ runs: 4, passed: 3, passRate: 0.75, meanWallMs: 1750, medianWallMs: 1500, meanSteps: 4, tokensIn: 4000, tokensOut: 200 });
    const table = summaryTable(before);
    expect(table).toMatch(/shop\/b\s+2\/2\s+2\.00 s\s+4\.0\s+1,000\/50/);
    expect(table).toMatch(/mail\/c\s+0\/1 .* state: cart\.lines\[0\]\.qty: expected 3, got 1/);
    expect(table).toContain("3 task(s), 4 run(s): 3 passed (75.0%) · wall mean 1.75 s, median 1.50 s · steps mean 4.0 · tokens 4,000 in / 200 out");
  });

  it("compares per task: a lower pass rate is a regression, a higher one an improvement", () => {
    const c = compareReports(before, after);
    expect(c.regressions).toEqual(["shop/b"]);
    expect(c.improvements).toEqual(["mail/c"]);
    // Totals over the tasks both ran (new/d is left out).
    expect(c.a.runs).toBe(4);
    expect(c.b.runs).toBe(4);
    const table = comparisonTable(c, { a: "a.jsonl", b: "b.jsonl" });
    expect(table).toMatch(/shop\/a\s+1\/1 → 1\/1\s+1\.00 s → 1\.50 s \(\+50%\)/);
    expect(table).toMatch(/shop\/b\s+2\/2 → 1\/2 .*✗ REGRESSION/);
    expect(table).toMatch(/new\/d\s+— → 1\/1\s+\(only in b\)/);
    expect(table).toContain("pass rate 75.0% → 75.0% (+0.0 pp) over 3 task(s) in both");
    expect(table).toContain("✗ 1 regression(s): shop/b");
  });

  it("baton eval compare exits non-zero on a regression only with --fail-on-regression", async () => {
    const a = join(dir, "a.jsonl");
    const b = join(dir, "b.jsonl");
    writeFileSync(a, before.map(rowLine).join(""));
    writeFileSync(b, after.map(rowLine).join(""));
    expect(readReport(b)).toHaveLength(5);
    const strict = deps();
    expect(await evalCommand(["compare", a, b, "--fail-on-regression"], strict)).toBe(evalExitCodes.failed);
    expect(strict.output()).toContain("✗ REGRESSION");
    expect(await evalCommand(["compare", a, b], deps())).toBe(evalExitCodes.ok);
    const same = deps();
    expect(await evalCommand(["compare", a, a, "--fail-on-regression"], same)).toBe(evalExitCodes.ok);
    expect(same.output()).toContain("✓ no regressions");
  });

  it("refuses unreadable reports and bad usage with what is wrong", async () => {
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, '{"task":"x","verdict":"pass"}\n{"hello":1}\n');
    const d = deps();
    expect(await evalCommand(["compare", bad, bad], d)).toBe(evalExitCodes.usage);
    expect(d.errors()).toContain(`${bad}:2: not a report row`);
    const missing = deps();
    expect(await evalCommand(["compare", join(dir, "none.jsonl"), bad], missing)).toBe(evalExitCodes.usage);
    expect(missing.errors()).toContain("cannot read the report");
    const one = deps();
    expect(await evalCommand(["compare", bad], one)).toBe(evalExitCodes.usage);
    expect(one.errors()).toContain("give two reports");
    const flag = deps();
    expect(await evalCommand(["--frobnicate"], flag)).toBe(evalExitCodes.usage);
    expect(flag.errors()).toContain("unknown option --frobnicate");
    const via = deps();
    expect(await evalCommand(["--via", "extension", "--extension", dir], via)).toBe(evalExitCodes.usage);
    expect(via.errors()).toContain(`--extension ${dir} is not an unpacked extension (no manifest.json)`);
    const lone = deps();
    expect(await evalCommand(["--extension", dir], lone)).toBe(evalExitCodes.usage);
    expect(lone.errors()).toContain("--extension goes with --via extension");
    const unknown = deps();
    expect(await evalCommand(["--via", "firefox"], unknown)).toBe(evalExitCodes.usage);
    expect(unknown.errors()).toContain('--via must be one of headless, extension, not "firefox"');
    const none = deps();
    expect(await evalCommand(["--filter", "nothing/*"], none)).toBe(evalExitCodes.usage);
    expect(none.errors()).toContain("matches none of the suite's");
  });

  it("lists the built-in suite's tasks with --list", async () => {
    const d = deps();
    expect(await evalCommand(["--list", "--filter", "shop/*"], d)).toBe(evalExitCodes.ok);
    expect(d.output()).toMatch(/^shop\/search-add-color\s+Add a blue enamel mug to my cart\.$/m);
    expect(d.output().trim().split("\n")).toHaveLength(7);
  });

  it("names the key to set when --model needs one, before starting anything", async () => {
    const d = deps();
    expect(await evalCommand(["--model", "openai:gpt-5-mini"], d)).toBe(evalExitCodes.usage);
    expect(d.errors()).toContain("set OPENAI_API_KEY");
  });

  it("writes a self-contained HTML page: escaped text, our screenshots only", () => {
    const shot = "data:image/jpeg;base64,/9j/4AAQSkZJRg==";
    const html = htmlReport([row("shop/<a>", "fail", 1000, { screenshot: shot, reason: "<script>alert(1)</script>" }), row("shop/b", "pass", 10, { screenshot: "javascript:alert(1)" })], {
      title: "Eval",
      goals: new Map([["shop/b", "Buy & pay"]]),
    });
    expect(html).toContain(`<img src="${shot}"`);
    expect(html).not.toContain("javascript:alert");
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("shop/&lt;a&gt;");
    expect(html).toContain("Buy &amp; pay");
    expect(html).toContain("1/2 (50.0%)");
    expect(html).not.toMatch(/<(link|script)\b/);
  });
});
