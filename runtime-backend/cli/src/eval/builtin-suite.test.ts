/**
 * The built-in suite in CI: every task passes through `baton eval --via headless` at
 * concurrency 2 (real Chromium, the backend in this process, each fixture site's own server);
 * and an engine broken on purpose (a handler map that clicks the wrong element) makes
 * `baton eval compare` report the regression and exit non-zero.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import type { RunContext } from "@baton/sdk/client";
import type { EngineHandlers } from "@baton/sdk/engine";
import { launchChromium, openPage, WebSocketTransport } from "@baton/sdk/node";
import { openDb, outcomeSql, summaryColumns, summaryFromRow } from "@baton/backend/store";
import { FakeLlmServer, responsesWire } from "@baton/backend/testing/fake-llm-server";
import { afterAll, describe, expect, it } from "vitest";
import { serveStatic } from "../run/static-server.js";
import { type EvalDeps, evalCommand, evalExitCodes } from "./eval-command.js";
import type { HandlerWrapper } from "./headless-via.js";
import { readReport } from "./report.js";
import { builtinSuiteDir, loadSuite } from "./suite.js";

const dir = mkdtempSync(join(tmpdir(), "baton-eval-suite-"));
const dataDir = join(dir, "store");
/** Test artefacts a person looks at (git-ignored). */
const artefacts = fileURLToPath(new URL("../../.tmp-eval-artefacts/", import.meta.url));
mkdirSync(artefacts, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function deps(wrapHandlers?: HandlerWrapper, env: Record<string, string> = {}): EvalDeps & { output(): string; errors(): string } {
  let out = "";
  let err = "";
  return {
    out: { write: (t: string) => (out += t) },
    err: { write: (t: string) => (err += t) },
    env,
    onInterrupt: () => () => undefined,
    ...(wrapHandlers ? { wrapHandlers } : {}),
    output: () => out,
    errors: () => err,
  };
}

/** A broken engine: every click lands on the element listed just before the one asked for. */
const misclick: HandlerWrapper = (handlers: EngineHandlers<RunContext>, engine) => ({
  ...handlers,
  click: (p, ctx) => {
    const els = engine.lastSnapshot?.elements ?? [];
    const i = els.findIndex((e) => e.ref === p.ref);
    const wrong = i > 0 ? els[i - 1]?.ref : undefined;
    return handlers.click(wrong ? { ...p, ref: wrong } : p, ctx);
  },
});

/** Opens the HTML report in Chromium and saves what a person sees. */
async function screenshotHtml(html: string, png: string): Promise<void> {
  const site = await serveStatic(dir);
  const browser = await launchChromium();
  try {
    const transport = await WebSocketTransport.connect(browser.wsEndpoint);
    const engine = await openPage(transport, { viewport: { width: 1400, height: 1000 } });
    await engine.page.send("Page.navigate", { url: `${site.url}/${html}` });
    await new Promise((r) => setTimeout(r, 1500));
    const shot = await engine.page.send<{ data: string }>("Page.captureScreenshot", { format: "png" });
    writeFileSync(png, Buffer.from(shot.data, "base64"));
    await transport.close();
  } finally {
    await browser.close();
    await site.close();
  }
}

describe("the built-in suite", () => {
  const suite = loadSuite(builtinSuiteDir);

  it("passes every task via headless at concurrency 2, with a report row, a summary and an HTML page", { timeout: 600_000 }, async () => {
    const out = join(dir, "suite.jsonl");
    const html = join(dir, "suite.html");
    const d = deps();
    const started = performance.now();
    const code = await evalCommand(["--concurrency", "2", "--data-dir", dataDir, "--out", out, "--html", html], d);
    const seconds = (performance.now() - started) / 1000;
    writeFileSync(join(artefacts, "suite-output.txt"), d.output() + d.errors());
    const rows = readReport(out);
    const failing = rows.filter((r) => r.verdict !== "pass").map((r) => `${r.task}: ${r.failed_check}: ${r.reason}`);
    expect(failing).toEqual([]);
    expect(code).toBe(evalExitCodes.ok);
    expect(rows.map((r) => r.task).sort()).toEqual(suite.tasks.map((t) => t.name).sort());
    for (const r of rows) {
      expect(r.screenshot, r.task).toMatch(/^data:image\/jpeg;base64,/);
      expect(r.steps, r.task).toBeGreaterThan(0);
      // A run its budget ended stops before the model's next call: it never reaches done.
      expect(r.tool_calls.at(-1), r.task).toBe(r.status === "budget_exhausted" ? "take_snapshot" : "done");
    }
    // The trust tasks passed for the reason they exist: the second removal was not asked (the
    // first answer was "always on this site"), the budget ended the run, the click was refused.
    const row = (task: string) => rows.find((r) => r.task === task);
    expect(row("bank/remember-approval")?.approvals).toBe(1);
    expect(row("bank/budget")?.status).toBe("budget_exhausted");
    expect(row("bank/read-only")?.errors.join("\n")).toMatch(/click: Refused, nothing was done: http:\/\/127\.0\.0\.1:\d+ is a read-only site/);
    expect(d.output()).toContain(`${rows.length} task(s), ${rows.length} run(s): ${rows.length} passed (100.0%)`);
    expect(d.output()).toMatch(/Suite wall time [\d.]+ s at concurrency 2/);
    // Progress: runs done out of all, passed so far, and what is running.
    expect(d.output()).toMatch(/… \[0\/\d+ done, 0 passed\] running \S+/);
    expect(d.output()).toMatch(new RegExp(`✓ \\[${rows.length}/${rows.length}\\] \\S+ · [\\d.]+ m?s · \\d+ step\\(s\\)`));
    const page = readFileSync(html, "utf8");
    for (const t of suite.tasks) expect(page).toContain(t.name);
    writeFileSync(join(artefacts, "suite.html"), page);
    await screenshotHtml("suite.html", join(artefacts, "suite-html.png"));
    console.log(`built-in suite: ${rows.length} tasks via headless at concurrency 2 in ${seconds.toFixed(1)} s (including the backend's start)`);
  });

  it("holds every run to --policy: on a read-only site the task's changes are refused and it does not pass", { timeout: 300_000 }, async () => {
    const policy = join(dir, "policy.yaml");
    writeFileSync(policy, "read_only: [127.0.0.1]\n");
    const out = join(dir, "read-only.jsonl");
    const d = deps();
    expect(await evalCommand(["--filter", "shop/coupon", "--data-dir", dataDir, "--out", out, "--policy", policy], d)).toBe(evalExitCodes.failed);
    expect(readReport(out).map((r) => r.verdict)).toEqual(["fail"]);
    const extension = deps();
    expect(await evalCommand(["--via", "extension", "--policy", policy], extension)).toBe(evalExitCodes.usage);
    expect(extension.errors()).toContain("--policy goes with --via headless");
  });

  it("reports a regression when the engine mis-clicks, and compare exits non-zero", { timeout: 300_000 }, async () => {
    const filter = ["--filter", "shop/quantity-stepper,shop/remove-line,shop/coupon", "--concurrency", "2", "--data-dir", dataDir];
    const before = join(dir, "before.jsonl");
    const after = join(dir, "after.jsonl");
    expect(await evalCommand([...filter, "--out", before, "--repeat", "2"], deps())).toBe(evalExitCodes.ok);
    const twice = readReport(before);
    expect(twice).toHaveLength(6);
    expect(twice.filter((r) => r.task === "shop/coupon").map((r) => r.attempt).sort()).toEqual([1, 2]);
    const broken = deps(misclick);
    expect(await evalCommand([...filter, "--out", after], broken)).toBe(evalExitCodes.failed);
    const rows = readReport(after);
    expect(rows.filter((r) => r.verdict === "fail").map((r) => r.task).sort()).toEqual(["shop/coupon", "shop/quantity-stepper", "shop/remove-line"]);
    // The outcome gives it away: the server's cart is not what the task asked for.
    expect(rows.find((r) => r.task === "shop/remove-line")?.reason).toMatch(/^GET \/api\/state: cart\.lines/);

    const compared = deps();
    expect(await evalCommand(["compare", before, after, "--fail-on-regression"], compared)).toBe(evalExitCodes.failed);
    writeFileSync(join(artefacts, "compare-output.txt"), compared.output());
    expect(compared.output()).toMatch(/shop\/quantity-stepper\s+2\/2 → 0\/1 .*✗ REGRESSION/);
    expect(compared.output()).toContain("✗ 3 regression(s)");
    expect(compared.output()).toContain("pass rate 100.0% → 0.0% (-100.0 pp)");
  });

  it("stops on Ctrl-C: runs under way end, no more start, the report keeps what finished, exit 130", { timeout: 300_000 }, async () => {
    const out = join(dir, "interrupted.jsonl");
    let pressed = false;
    let interrupt = () => undefined as void;
    const d = deps();
    const watching = {
      ...d,
      out: {
        write: (t: string) => {
          d.out.write(t);
          if (!pressed && t.includes("[1/4]")) {
            pressed = true;
            interrupt();
          }
        },
      },
      onInterrupt: (h: () => void) => ((interrupt = h), () => undefined),
    };
    const code = await evalCommand(["--filter", "settings/t*,settings/r*", "--data-dir", dataDir, "--out", out], watching);
    expect(code).toBe(evalExitCodes.interrupted);
    expect(d.output()).toContain("Stopping…");
    const rows = readReport(out);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThan(5);
  });

  it("runs a task with a real provider (the openai SDK against a local fake of the Responses API) and judges it the same way", { timeout: 300_000 }, async () => {
    const fake = await new FakeLlmServer(responsesWire, { input: 1200, output: 80, cached: 0 }).start();
    try {
      const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${fake.url}/v1` };
      const args = ["--model", "openai:gpt-5-mini", "--filter", "permit/fee-answer", "--data-dir", dataDir];
      fake.script({ kind: "calls", calls: [{ name: "extract", args: '{"format":"text"}' }] }, { kind: "calls", calls: [{ name: "done", args: '{"answer":"A market for 300 people pays €150."}' }] });
      const good = join(dir, "model-good.jsonl");
      expect(await evalCommand([...args, "--out", good], deps(undefined, env))).toBe(evalExitCodes.ok);
      const [row] = readReport(good);
      expect(row).toMatchObject({ task: "permit/fee-answer", model: "openai:gpt-5-mini", verdict: "pass", steps: 2, tokens_in: 2400, tokens_out: 160, tool_calls: ["extract", "done"] });
      expect(row?.cost_usd).toBeGreaterThan(0);
      // The model was given the task's goal and read the page through the engine.
      expect(JSON.stringify(fake.bodies[0])).toContain("market expecting about 300 people");
      expect(JSON.stringify(fake.bodies[1])).toContain("201 to 1,000 people");

      fake.script({ kind: "calls", calls: [{ name: "done", args: '{"answer":"It is free."}' }] });
      const bad = join(dir, "model-bad.jsonl");
      expect(await evalCommand([...args, "--out", bad], deps(undefined, env))).toBe(evalExitCodes.failed);
      const failed = readReport(bad)[0];
      expect(failed).toMatchObject({ verdict: "fail", failed_check: "answer", reason: 'the answer "It is free." does not match /€\\s?150\\b/i' });
      // The backend keeps each run's verdict beside the agent's claim: the console shows the
      // failing run as failed, with the check that did not hold.
      const db = await openDb({ dataDir, owner: "builtin-suite.test" });
      try {
        const summary = async (id = "") => (await db.query(`select ${summaryColumns} from sessions where id = $1`, [id])).map(summaryFromRow)[0];
        const passedRow = await summary(row?.session_id);
        expect(passedRow?.verdict).toEqual({ passed: true, reason: "" });
        const failedRow = await summary(failed?.session_id);
        expect(failedRow?.status).toBe(SessionStatus.COMPLETED);
        expect(failedRow?.verdict).toEqual({ passed: false, reason: 'permit/fee-answer: the answer check did not hold: the answer "It is free." does not match /€\\s?150\\b/i' });
        const [outcome] = await db.query(`select ${outcomeSql} as outcome from sessions where id = $1`, [failed?.session_id ?? ""]);
        expect(Number(outcome?.outcome)).toBe(SessionStatus.FAILED);
      } finally {
        await db.close();
      }
    } finally {
      await fake.stop();
    }
  });
});
