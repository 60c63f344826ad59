/**
 * The built-in suite through the real extension in CI: the extension built with rollup (into a
 * folder of this test's own, so the extension's e2e tests keep their `dist/`), loaded unpacked
 * in headless Chromium, every task run from Chrome's side panel against the backend `baton
 * eval` starts, and judged by the same checks as via headless.
 * permit/apply's relative upload path resolves in the suite's `files/` (the extension's upload
 * folder, which the harness sets), as via headless. Tasks marked `"vias": ["headless"]` are left out.
 * The trust tasks (bank/*) set their policy, secrets, budget and answers up in the panel; a
 * second run, in one browser, takes each of those away and sees each trust task fail.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildExtension } from "@baton/extension/testing";
import { type EvalDeps, evalCommand, evalExitCodes } from "./eval-command.js";
import { readReport } from "./report.js";
import { builtinSuiteDir, loadSuite, tasksOnVia } from "./suite.js";

const dir = mkdtempSync(join(tmpdir(), "baton-eval-extension-"));
const extension = join(dir, "extension", "dist");
/** Test artefacts a person looks at (git-ignored). */
const artefacts = fileURLToPath(new URL("../../.tmp-eval-artefacts/", import.meta.url));
mkdirSync(artefacts, { recursive: true });

beforeAll(() => buildExtension(extension), 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function deps(): EvalDeps & { output(): string } {
  let out = "";
  return {
    out: { write: (t: string) => (out += t) },
    err: { write: (t: string) => (out += t) },
    env: {},
    onInterrupt: () => () => undefined,
    output: () => out,
  };
}

describe("the built-in suite via extension", () => {
  it("passes every task through the extension's side panel at concurrency 2", { timeout: 600_000 }, async () => {
    // Every task runs via extension (bank/blocked-frame's partner frame is held by the extension's network rules).
    const { run, skipped } = tasksOnVia(loadSuite(builtinSuiteDir).tasks, "extension");
    expect(skipped).toEqual([]);
    const out = join(dir, "suite.jsonl");
    const d = deps();
    const started = performance.now();
    const code = await evalCommand(["--via", "extension", "--extension", extension, "--concurrency", "2", "--data-dir", join(dir, "store"), "--out", out], d);
    const seconds = (performance.now() - started) / 1000;
    writeFileSync(join(artefacts, "extension-suite-output.txt"), d.output());
    const rows = readReport(out);
    writeFileSync(join(artefacts, "extension-suite-failures.json"), JSON.stringify(rows.filter((r) => r.verdict !== "pass").map(({ screenshot: _, ...r }) => r), null, 1));
    const failing = rows.filter((r) => r.verdict !== "pass").map((r) => `${r.task}: ${r.failed_check}: ${r.reason}`);
    expect(failing).toEqual([]);
    expect(code).toBe(evalExitCodes.ok);
    expect(rows.map((r) => r.task).sort()).toEqual(run.map((t) => t.name).sort());
    expect(d.output()).not.toContain("not run via extension");
    for (const r of rows) {
      expect(r.via, r.task).toBe("extension");
      // Every run finished with done, but the one its budget ended before that.
      expect(r.tool_calls.at(-1), r.task).toBe(r.status === "budget_exhausted" ? "take_snapshot" : "done");
      expect(r.tool_ms, r.task).toBeGreaterThan(0);
      if (r.verdict === "pass") expect(r.screenshot, r.task).toMatch(/^data:image\/jpeg;base64,/);
    }
    // The panel's approval cards were answered as the tasks say: approved, and once denied.
    expect(rows.find((r) => r.task === "shop/checkout")?.approvals).toBe(1);
    expect(rows.find((r) => r.task === "shop/checkout-declined")).toMatchObject({ approvals: 1, verdict: "pass" });
    expect(d.output()).toContain(`${rows.length} task(s), ${rows.length} run(s): ${rows.length} passed`);
    // The upload reached the page as the suite's file (the site checks its name, type and size).
    expect(rows.find((r) => r.task === "permit/apply")?.tool_calls).toContain("upload_file");
    // The remembered answer held across the backend's restart: one card for two removals.
    expect(rows.find((r) => r.task === "bank/remember-approval")).toMatchObject({ approvals: 1, verdict: "pass" });
    expect(rows.find((r) => r.task === "bank/budget")).toMatchObject({ status: "budget_exhausted", verdict: "pass" });
    console.log(`built-in suite: ${rows.length} tasks via extension at concurrency 2 in ${seconds.toFixed(1)} s (including the backend's start)`);
  });

  it("fails each trust task when the panel is not given that part of its trust", { timeout: 300_000 }, async () => {
    const out = join(dir, "without-trust.jsonl");
    const d = { ...deps(), extensionWithoutTrust: ["policy", "totp", "budget", "site_answers", "mask"] as const };
    const code = await evalCommand(["--via", "extension", "--extension", extension, "--filter", "bank/*", "--data-dir", join(dir, "store-without"), "--out", out], d);
    writeFileSync(join(artefacts, "extension-without-trust-output.txt"), d.output());
    expect(code).toBe(evalExitCodes.failed);
    const failed = Object.fromEntries(readReport(out).map((r) => [r.task, `${r.verdict} ${r.failed_check}`]));
    expect(failed).toEqual({
      // No one-time code in Settings: the literal placeholder is typed and refused.
      "bank/signin-otp": "fail state",
      // Answered once, not always on the site: no rule to restart on, and the second removal asked again.
      "bank/remember-approval": "fail restart",
      // No read-only site in Settings: the switch to paper statements went through.
      "bank/read-only": "fail state",
      // No blocked site in Settings: the partner frame loaded and told the page.
      "bank/blocked-frame": "fail state",
      // The report's screenshot not painted: the phrase shows.
      "bank/masked-screenshot": "fail masked",
      // No budget per task: the transfers ran to the end.
      "bank/budget": "fail status",
    });
  });
});
