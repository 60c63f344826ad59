import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createBatonClient } from "@baton/sdk/client";
import { connectCdpEndpoint, nodeTransport } from "@baton/sdk/node";
import { attachedGuardNotice } from "@baton/sdk/policy";
import type { Env } from "@baton/backend/providers";
import { flag, onlyKnownFlags, parseArgs, type Parsed, UsageError, wholeNumber } from "../command/args.js";
import { policyFlagNames, policyFromArgs, policyUsage } from "../command/policy-args.js";
import { chooseModel } from "../run/model-choice.js";
import { terminalStream } from "../run/terminal-text.js";
import { uploadDirsOf } from "../run/upload-dirs.js";
import type { RunDeps } from "../run/run-command.js";
import { BackendUnavailable, type RunBackend, startLocalBackend } from "../run/run-backend.js";
import { defaultRunStore, withRunStore } from "../run/store-dir.js";
import { compareReports, comparisonTable } from "./compare.js";
import { evalProgress } from "./eval-progress.js";
import { runEval } from "./run-eval.js";
import type { TrustPart } from "./extension-via.js";
import type { HandlerWrapper } from "./headless-via.js";
import { htmlReport } from "./html-report.js";
import { readReport, ReportError, type ReportRow, rowLine } from "./report.js";
import { restartableBackend } from "./restartable-backend.js";
import { builtinSuiteDir, filterTasks, loadSuite, type Suite, tasksOnVia } from "./suite.js";
import { seconds, summaryTable } from "./summary.js";
import { type EvalTask, TaskError } from "./task.js";
import { viaFor, viaNames } from "./vias.js";
import { type Via, type ViaName, ViaUnavailable } from "./via.js";

/** Exit codes of `baton eval`. */
export const evalExitCodes = {
  /** Every run passed (compare: no regression, or not asked to fail on one). */
  ok: 0,
  /** Some run did not pass (compare: a regression, with --fail-on-regression). */
  failed: 1,
  /** Bad flags, a bad suite or report, no model configured, or a --via not available. */
  usage: 2,
  /** The backend or the browser could not be started. */
  unavailable: 3,
  /** Stopped with Ctrl-C. */
  interrupted: 130,
} as const;

/** What `baton eval` needs from the outside world; injected so it is testable. */
export interface EvalDeps extends Pick<RunDeps, "out" | "err" | "env" | "onInterrupt"> {
  /** Rewrites the engine's handlers of every headless run (tests break the engine with it). */
  readonly wrapHandlers?: HandlerWrapper;
  /** Trust the extension's lanes leave unset (tests see the trust tasks fail without it). */
  readonly extensionWithoutTrust?: readonly TrustPart[];
}

export const evalUsage = `baton eval [suite.jsonl | folder] [options]     run a suite (default: the built-in suite)
baton eval compare a.jsonl b.jsonl [--fail-on-regression]

  --model P:M           run every task with this model (default: each task's script)
  --via NAME            headless (default): Chromium driven from this process;
                        extension: through the Baton extension's side panel in Chromium
  --extension DIR       the unpacked extension for --via extension (default the
                        repository's runtime-extension/dist: npm run build -w runtime-extension)
  --repeat N            runs of each task (default 1)
  --concurrency N       runs at once, each in its own browser (default 1, or one per --cdp-url)
  --cdp-url URL         run in a remote browser (ws://… or http://host:9222) instead of launching
                        them (repeatable: lanes take the URLs in turn; each run gets a fresh
                        browser context there); not with --via extension or --headed
  --filter GLOBS        only tasks whose name matches one of these (comma-separated; * and ?)
  --out FILE            the JSONL report, one row per run (default eval-reports/eval-<time>.jsonl)
  --html FILE           also write a self-contained HTML report with each final page
  --upload-dir DIR      upload_file may also take files from DIR (repeatable); a task always may
                        from its suite's files/ folder, and any other file is refused
  --data-dir DIR        the embedded store (default ~/.cache/baton/run-store, as baton run)
  --headed              show the browsers (needs a display)
${policyUsage}  --list                list the suite's tasks and exit

Exit codes: 0 every run passed, 1 a run did not pass (compare: a regression with
--fail-on-regression), 2 bad usage, suite or report, or no model, 3 browser or backend
unavailable, 130 interrupted (Ctrl-C).
`;

const KNOWN = new Set(["model", "via", "extension", "repeat", "concurrency", "cdp-url", "filter", "out", "html", "data-dir", "headed", "list", "help", "upload-dir", ...policyFlagNames]);

function count(p: Parsed, name: string, fallback: number, max: number): number {
  return wholeNumber(`--${name}`, flag(p, name), 1, max) ?? fallback;
}

/** The model of each task: --model for all, else each task's script. */
function modelsOf(p: Parsed, tasks: readonly EvalTask[], env: Env): (task: EvalTask) => string {
  const explicit = flag(p, "model");
  if (explicit) {
    const choice = chooseModel(explicit, env);
    if (!choice.ok) throw new UsageError(choice.message);
    return () => choice.model;
  }
  const unscripted = tasks.filter((t) => !t.script).map((t) => t.name);
  if (unscripted.length) {
    throw new UsageError(`${unscripted.length} task(s) have no script (${unscripted.slice(0, 5).join(", ")}${unscripted.length > 5 ? ", …" : ""}): run them with a model, --model provider:model`);
  }
  // The harness's own backend reads script models from the suite's folder (BATON_SCRIPT_DIR),
  // so a task names its script relative to it.
  return (t) => `script:${t.script}`;
}

/** The remote browsers of `--cdp-url` (repeatable); none: the lanes launch their own. */
function cdpUrlsOf(p: Parsed, viaName: string): string[] {
  const urls = (p.all.get("cdp-url") ?? []).map((v) => {
    if (v === true || !/^(wss?|https?):\/\/./i.test(v)) throw new UsageError(`--cdp-url needs a ws:// or http:// URL of a browser's DevTools endpoint, such as http://127.0.0.1:9222${v === true ? "" : `, not ${JSON.stringify(v)}`}`);
    return v;
  });
  if (urls.length && viaName === "extension") throw new UsageError("--cdp-url goes with --via headless: the extension must be loaded into a browser the harness launches");
  if (urls.length && p.flags.has("headed")) throw new UsageError("--headed and --cdp-url do not go together: a remote browser shows itself or not as it was started");
  return urls;
}

function defaultOut(): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);
  return join("eval-reports", `eval-${stamp}.jsonl`);
}

function compareCommand(p: Parsed, deps: EvalDeps): number {
  const [, a, b] = p.positional;
  for (const k of p.flags.keys()) if (k !== "fail-on-regression") throw new UsageError(`unknown option --${k} for compare`);
  if (!a || !b || p.positional.length > 3) throw new UsageError("give two reports: baton eval compare before.jsonl after.jsonl [--fail-on-regression]");
  const c = compareReports(readReport(a), readReport(b));
  deps.out.write(`${comparisonTable(c, { a, b })}\n`);
  return c.regressions.length && p.flags.has("fail-on-regression") ? evalExitCodes.failed : evalExitCodes.ok;
}

/**
 * `baton eval`: runs a suite of outcome-checked tasks (the built-in one by default) through a
 * --via runner against a backend started in this process, writes one JSONL row per run (and
 * an HTML page with --html), shows progress, and prints a summary table. `baton eval compare`
 * prints per-task deltas between two reports. Resolves to the exit code ({@link evalExitCodes}).
 */
export async function evalCommand(argv: readonly string[], given: EvalDeps): Promise<number> {
  // Summaries and errors quote pages and models: printed clean (the progress view cleans its own).
  const deps: EvalDeps = { ...given, out: terminalStream(given.out), err: terminalStream(given.err) };
  const p = parseArgs(argv);
  const fail = (message: string, code: number): number => {
    deps.err.write(`baton eval: ${message.trimEnd()}\n`);
    return code;
  };
  if (p.flags.has("help")) {
    deps.out.write(evalUsage);
    return evalExitCodes.ok;
  }
  let suite: Suite;
  let tasks: EvalTask[];
  let via: Via;
  let modelOf: (t: EvalTask) => string;
  let repeat: number;
  let concurrency: number;
  let cdpUrls: string[];
  try {
    if (p.positional[0] === "compare") return compareCommand(p, deps);
    onlyKnownFlags(p, KNOWN);
    for (const k of ["headed", "list"]) if (typeof p.flags.get(k) === "string") throw new UsageError(`--${k} takes no value`);
    if (p.positional.length > 1) throw new UsageError(`give one suite (a .jsonl file or a folder), not ${p.positional.length}`);
    if (!p.positional[0] && !existsSync(builtinSuiteDir)) {
      throw new UsageError(`the built-in suite is missing (${builtinSuiteDir}): the package is incomplete; reinstall @baton/backend, or give a suite (a .jsonl file or a folder)`);
    }
    suite = loadSuite(p.positional[0] ?? builtinSuiteDir);
    tasks = filterTasks(suite.tasks, flag(p, "filter"));
    if (tasks.length === 0) throw new UsageError(`--filter ${flag(p, "filter")} matches none of the suite's ${suite.tasks.length} task(s)`);
    if (p.flags.has("list")) {
      const w = Math.max(...tasks.map((t) => t.name.length));
      deps.out.write(tasks.map((t) => `${t.name.padEnd(w)}  ${t.goal}\n`).join(""));
      return evalExitCodes.ok;
    }
    repeat = count(p, "repeat", 1, 1000);
    const viaName = flag(p, "via", "headless") as string;
    if (viaNames.includes(viaName as ViaName)) {
      const on = tasksOnVia(tasks, viaName as ViaName);
      if (on.skipped.length) deps.out.write(`${on.skipped.length} task(s) not run via ${viaName} (their "vias" leave it out): ${on.skipped.join(", ")}\n`);
      if (!on.run.length) throw new UsageError(`none of the ${tasks.length} task(s) runs via ${viaName}`);
      tasks = on.run;
    }
    cdpUrls = cdpUrlsOf(p, viaName);
    concurrency = count(p, "concurrency", Math.max(1, Math.min(cdpUrls.length, 16)), 16);
    const extensionDir = flag(p, "extension");
    if (extensionDir !== undefined && viaName !== "extension") throw new UsageError("--extension goes with --via extension");
    const policy = policyFromArgs(p);
    if (viaName === "extension" && policyFlagNames.some((k) => p.flags.has(k))) {
      throw new UsageError(`--${policyFlagNames.find((k) => p.flags.has(k))} goes with --via headless: the extension does not take a site policy from the command line`);
    }
    via = await viaFor(viaName, {
      headed: p.flags.has("headed"),
      policy,
      uploadDirs: uploadDirsOf(p),
      ...(deps.wrapHandlers ? { wrapHandlers: deps.wrapHandlers } : {}),
      ...(deps.extensionWithoutTrust ? { withoutTrust: deps.extensionWithoutTrust } : {}),
      ...(extensionDir ? { dir: resolve(extensionDir) } : {}),
      ...(cdpUrls.length ? { cdpUrls } : {}),
    });
    modelOf = modelsOf(p, tasks, { ...deps.env, BATON_SCRIPT_DIR: suite.dir });
  } catch (e) {
    if (e instanceof UsageError || e instanceof TaskError || e instanceof ReportError || e instanceof ViaUnavailable) return fail(e.message, evalExitCodes.usage);
    throw e;
  }

  const out = resolve(flag(p, "out") ?? defaultOut());
  const cleanup: (() => Promise<void>)[] = [];
  const progress = evalProgress(given.out, tasks.length * repeat, repeat, !!given.out.isTTY);
  try {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, "");
    if (cdpUrls.length) {
      // Every endpoint answers before anything starts: a dead one would otherwise leave its
      // share to the others without a word.
      for (const url of cdpUrls) {
        try {
          await (await connectCdpEndpoint(url)).close();
        } catch (e) {
          return fail(e instanceof Error ? e.message : String(e), evalExitCodes.unavailable);
        }
      }
      deps.err.write(`baton eval: ${attachedGuardNotice(cdpUrls.length === 1 ? `the browser at ${cdpUrls[0]}` : `the browsers at ${cdpUrls.join(", ")}`, true)}\n`);
    }
    let backend: RunBackend;
    let restartBackend: (() => Promise<void>) | undefined;
    try {
      // Script models are on for the suite's folder only: the harness is this backend's operator.
      let store = "";
      const start = (dataDir: string, allowedHosts?: string[]) => {
        store = dataDir;
        return startLocalBackend({ model: "", env: { ...deps.env, BATON_SCRIPT_DIR: suite.dir }, dataDir, ...(allowedHosts ? { allowedHosts } : {}) });
      };
      const opened = (allowedHosts?: string[]) => withRunStore(resolve(flag(p, "data-dir") ?? defaultRunStore(deps.env)), (dir) => start(dir, allowedHosts), cleanup);
      // A task that restarts the backend gets one behind a relay, restarted on the store it opened.
      if (tasks.some((t) => t.trust.restartBackend)) {
        const relayed = await restartableBackend((relay) => (store ? start(store, [relay]) : opened([relay])));
        restartBackend = () => relayed.restart();
        backend = relayed;
      } else backend = await opened();
    } catch (e) {
      if (e instanceof BackendUnavailable) return fail(e.message, evalExitCodes.unavailable);
      throw e;
    }
    cleanup.push(() => backend.close());
    const stop = new AbortController();
    const off = deps.onInterrupt(() => {
      deps.out.write("\nStopping… (runs under way are stopped; the report keeps what finished)\n");
      stop.abort();
    });
    cleanup.push(async () => off());
    const models = [...new Set(tasks.map((t) => modelOf(t)))];
    deps.out.write(
      `Suite ${suite.files.length === 1 ? suite.files[0] : suite.dir}: ${tasks.length} task(s) × ${repeat} via ${via.name}, ` +
        `concurrency ${concurrency}, model ${models.length === 1 && !models[0]?.startsWith("script:") ? models[0] : "each task's script"}\n`,
    );
    const client = createBatonClient({ transport: nodeTransport({ baseUrl: backend.baseUrl, token: backend.token }) });
    const started = performance.now();
    let rows: ReportRow[];
    try {
      rows = await runEval({
        tasks,
        suiteDir: suite.dir,
        via,
        client,
        backend: { baseUrl: backend.baseUrl, token: backend.token },
        modelOf,
        repeat,
        concurrency,
        signal: stop.signal,
        ...(restartBackend ? { restartBackend } : {}),
        listener: {
          started: (task, attempt) => progress.started(task, attempt),
          finished: (row) => {
            appendFileSync(out, rowLine(row));
            progress.finished(row);
          },
        },
      });
    } catch (e) {
      progress.end();
      return fail(`could not open a browser: ${e instanceof Error ? e.message : String(e)}`, evalExitCodes.unavailable);
    }
    const wallMs = performance.now() - started;
    progress.end();
    if (rows.length) deps.out.write(`\n${summaryTable(rows)}\n`);
    deps.out.write(`Suite wall time ${seconds(wallMs)} at concurrency ${concurrency}. Report: ${out}\n`);
    const html = flag(p, "html");
    if (html && rows.length) {
      mkdirSync(dirname(resolve(html)), { recursive: true });
      writeFileSync(html, htmlReport(rows, { title: `Baton eval: ${tasks.length} task(s) via ${via.name}`, goals: new Map(tasks.map((t) => [t.name, t.goal])) }));
      deps.out.write(`HTML report: ${resolve(html)}\n`);
    }
    if (stop.signal.aborted) return evalExitCodes.interrupted;
    return rows.every((r) => r.verdict === "pass") ? evalExitCodes.ok : evalExitCodes.failed;
  } catch (e) {
    progress.end();
    return fail(e instanceof Error ? e.message : String(e), evalExitCodes.failed);
  } finally {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  }
}
