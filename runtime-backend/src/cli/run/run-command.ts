import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { createBatonClient, describeCall, type RefLookup, runTask, type Secret, type TaskOutcome } from "@baton/sdk/client";
import { engineHandlers, type Engine } from "@baton/sdk/engine";
import { ChromiumNotFoundError, ensureChromium, type FoundChromium, nodeTransport } from "@baton/sdk/node";
import { checkExpectations, engineProbe, parseScriptFile, type ScriptFile, ScriptFileError } from "@baton/sdk/script";
import type { Env } from "../../providers/registry.js";
import { flag, parseArgs, type Parsed } from "../args.js";
import { savedLogin } from "../credentials.js";
import { chooseModel } from "./model-choice.js";
import { createProgress, type Progress, type ProgressMode } from "./progress.js";
import { type Ask, approvalPrompt, askUserHandler } from "./prompts.js";
import { BackendUnavailable, remoteBackend, type RunBackend, startLocalBackend } from "./run-backend.js";
import { openRunBrowser, type RunBrowser } from "./run-browser.js";
import type { OutStream } from "./spinner.js";
import { SecretArgError, secretsFromArgs } from "./secret-args.js";
import { serveStatic, type StaticServer } from "./static-server.js";
import { defaultRunStore, withRunStore } from "./store-dir.js";

/** Exit codes of `baton run`. */
export const exitCodes = {
  done: 0,
  /** Failed, stopped by the backend, step limit, or a broken expectation. */
  failed: 1,
  /** Bad flags, a bad script file, or no model configured. */
  usage: 2,
  /** The backend or the browser could not be reached or started. */
  unavailable: 3,
  /** Stopped with Ctrl-C. */
  interrupted: 130,
} as const;

/** What `baton run` needs from the outside world; injected so it is testable. */
export interface RunDeps {
  readonly out: OutStream;
  readonly err: OutStream;
  readonly env: Env;
  /** Reads a line from the person at the terminal (undefined: nobody there). */
  readonly ask: Ask;
  /** Calls `handler` on Ctrl-C; returns an unsubscribe. */
  onInterrupt(handler: () => void): () => void;
}

export const runUsage = `baton run "<task>" [options]

  --start-url URL       open this page first (a path like /login.html with --serve)
  --serve DIR           serve DIR on a loopback port for the run; --start-url may be a path in it
  --script FILE         replay a script file instead of a model, then check its "expect"
  --model P:M           provider:model (default: BATON_MODEL, else by the keys that are set)
  --backend URL         use a running backend (with --token, BATON_API_TOKEN, or the token of \`baton login\`)
  --data-dir DIR        the embedded store for this run (default ~/.cache/baton/run-store)
  --max-steps N         step limit (default 50)
  --headed              show the browser window (needs a display)
  --cdp-url URL         drive a running Chromium (ws://… or http://host:9222) instead of launching one
  --secret NAME=@FILE   a secret the model types as <secret>NAME</secret> without seeing it
                        (NAME=env:VAR reads it from the environment; repeatable)
  --secret-origin NAME=ORIGIN  where NAME may be typed (default: the --start-url's origin;
                        NAME=* for anywhere; repeatable)
  --yes                 approve irreversible actions without asking
  --json                print progress as JSON lines

Exit codes: 0 done, 1 failed/stopped/expectation broken, 2 bad usage or no model, 3 backend or
browser unavailable, 130 interrupted (Ctrl-C).
`;

const KNOWN = new Set(["start-url", "serve", "script", "model", "backend", "token", "data-dir", "max-steps", "headed", "cdp-url", "yes", "json", "help", "secret", "secret-origin"]);

/** A problem with the command line or its files: exit 2 with the message. */
class UsageError extends Error {}

interface RunPlan {
  readonly task: string;
  readonly script?: ScriptFile;
  readonly model?: string;
  /** The directory the run's own backend may read script models from. */
  readonly scriptDir?: string;
  readonly maxSteps?: number;
}

function plan(p: Parsed, env: Env): RunPlan {
  for (const k of p.flags.keys()) if (!KNOWN.has(k)) throw new UsageError(`unknown option --${k}`);
  for (const k of ["headed", "yes", "json"]) if (typeof p.flags.get(k) === "string") throw new UsageError(`--${k} takes no value (put the task before the options, or quote it)`);
  const task = p.positional.join(" ").trim();
  if (!task) throw new UsageError("give the task, such as: baton run \"Find the opening hours\"");
  const stepsFlag = flag(p, "max-steps");
  const maxSteps = stepsFlag === undefined ? undefined : Number(stepsFlag);
  if (maxSteps !== undefined && (!Number.isInteger(maxSteps) || maxSteps < 1 || maxSteps > 10_000)) {
    throw new UsageError(`--max-steps must be a whole number from 1 to 10000, not "${stepsFlag}"`);
  }
  const scriptPath = flag(p, "script");
  if (scriptPath) {
    let json: string;
    try {
      json = readFileSync(scriptPath, "utf8");
    } catch (e) {
      throw new UsageError(`cannot read the script ${scriptPath}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const script = parseScriptFile(json, scriptPath);
    // The run's own backend reads script models from the script's directory only.
    return { task, script, model: `script:${resolve(scriptPath)}`, scriptDir: dirname(resolve(scriptPath)), ...(maxSteps ? { maxSteps } : {}) };
  }
  if (flag(p, "backend")) return { task, ...(flag(p, "model") ? { model: flag(p, "model") } : {}), ...(maxSteps ? { maxSteps } : {}) };
  const choice = chooseModel(flag(p, "model"), env);
  if (!choice.ok) throw new UsageError(choice.message);
  return { task, model: choice.model, ...(maxSteps ? { maxSteps } : {}) };
}

/** Names refs from the engine's latest snapshot, falling back to every ref it has handed out. */
function refLookup(engine: Engine): RefLookup {
  return (ref) => {
    const el = engine.lastSnapshot?.elements.find((e) => e.ref === ref) ?? engine.refs.get(ref);
    return el ? { role: el.role, name: el.name } : undefined;
  };
}

function startUrlOf(p: Parsed, site: StaticServer | undefined): string | undefined {
  const given = flag(p, "start-url");
  if (!site) {
    if (given && !/^[a-z][a-z0-9+.-]*:/i.test(given)) throw new UsageError(`--start-url ${given} is not a URL (a path needs --serve DIR)`);
    return given;
  }
  if (!given) return `${site.url}/`;
  return /^[a-z][a-z0-9+.-]*:/i.test(given) ? given : new URL(given, `${site.url}/`).href;
}

/**
 * `baton run "<task>"`: runs one task end to end from the command line — a backend (in this
 * process, or --backend), a browser (launched, or --cdp-url), runTask with live progress,
 * approvals and ask_user at the terminal, Ctrl-C as a clean stop, and for --script the file's
 * expectations checked on the final page. Resolves to the exit code ({@link exitCodes}).
 */
export async function runCommand(argv: readonly string[], deps: RunDeps): Promise<number> {
  const p = parseArgs(argv);
  const fail = (message: string, code: number): number => {
    deps.err.write(`baton run: ${message.trimEnd()}\n`);
    return code;
  };
  if (p.flags.has("help")) {
    deps.out.write(runUsage);
    return exitCodes.done;
  }
  let run: RunPlan;
  try {
    run = plan(p, deps.env);
  } catch (e) {
    if (e instanceof UsageError || e instanceof ScriptFileError) return fail(e.message, exitCodes.usage);
    throw e;
  }
  const mode: ProgressMode = p.flags.has("json") ? "json" : deps.out.isTTY ? "tty" : "plain";
  const cleanup: (() => Promise<void>)[] = [];
  let progress: Progress | undefined;
  // The browser first: a machine without one stops here, in one line, before a backend starts.
  let chromium: FoundChromium | undefined;
  try {
    // The process's own environment, as for every browser launch (deps.env is the model's).
    if (!flag(p, "cdp-url")) chromium = ensureChromium({ log: (line) => deps.err.write(`baton run: ${line}\n`) });
  } catch (e) {
    if (e instanceof ChromiumNotFoundError) return fail(e.message, exitCodes.unavailable);
    throw e;
  }
  try {
    let site: StaticServer | undefined;
    const serveDir = flag(p, "serve");
    if (serveDir) {
      if (!existsSync(serveDir) || !statSync(serveDir).isDirectory()) return fail(`--serve ${serveDir} is not a directory`, exitCodes.usage);
      site = await serveStatic(serveDir);
      cleanup.push(() => site?.close() ?? Promise.resolve());
    }
    let startUrl: string | undefined;
    let secrets: Secret[];
    try {
      startUrl = startUrlOf(p, site);
      secrets = secretsFromArgs(p, deps.env, startUrl);
    } catch (e) {
      if (e instanceof UsageError || e instanceof SecretArgError) return fail(e.message, exitCodes.usage);
      throw e;
    }
    let backend: RunBackend;
    const backendUrl = flag(p, "backend");
    try {
      if (backendUrl) backend = await remoteBackend(backendUrl, flag(p, "token", deps.env.BATON_API_TOKEN) ?? savedLogin(backendUrl, deps.env)?.token);
      else {
        const start = (dataDir: string) =>
          startLocalBackend({
            model: run.model ?? "",
            env: run.scriptDir ? { ...deps.env, BATON_SCRIPT_DIR: run.scriptDir } : deps.env,
            dataDir,
            ...(run.maxSteps ? { maxSteps: run.maxSteps } : {}),
          });
        backend = await withRunStore(resolve(flag(p, "data-dir") ?? defaultRunStore(deps.env)), start, cleanup);
      }
    } catch (e) {
      if (e instanceof BackendUnavailable) return fail(e.message, exitCodes.unavailable);
      throw e;
    }
    cleanup.push(() => backend.close());
    let browser: RunBrowser;
    try {
      browser = await openRunBrowser({
        ...(flag(p, "cdp-url") ? { cdpUrl: flag(p, "cdp-url") as string } : {}),
        ...(chromium ? { executablePath: chromium.path } : {}),
        headed: p.flags.has("headed"),
      });
    } catch (e) {
      return fail(`could not open a browser: ${e instanceof Error ? e.message : String(e)}`, exitCodes.unavailable);
    }
    cleanup.push(() => browser.close());
    const { engine } = browser;
    const lookup = refLookup(engine);
    const out = progress = createProgress(mode, deps.out, lookup);
    out.note(`Backend: ${backend.where}${run.model ? ` · model ${run.model.startsWith("script:") ? `script ${flag(p, "script")}` : run.model}` : ""}`);
    if (site) out.note(`Serving ${resolve(serveDir as string)} at ${site.url}`);

    const stop = new AbortController();
    let interrupted = false;
    const off = deps.onInterrupt(() => {
      if (interrupted) return;
      interrupted = true;
      out.note("Stopping… (the backend is told to stop; the current action finishes first)");
      stop.abort();
    });
    cleanup.push(async () => off());

    let outcome: TaskOutcome;
    try {
      // connect-node, not the default fetch transport: with fetch, a backend that dies mid-stream
      // also leaves an unhandled rejection behind, which would crash this process.
      const transport = nodeTransport({ baseUrl: backend.baseUrl, token: backend.token });
      outcome = await runTask(createBatonClient({ transport }), {
        task: run.task,
        ...(startUrl ? { startUrl } : {}),
        ...(run.model ? { model: run.model } : {}),
        ...(run.maxSteps ? { maxSteps: run.maxSteps } : {}),
        handlers: { ...engineHandlers(engine), askUser: askUserHandler(deps.ask, () => out.pause()) },
        onEvent: (e) => out.event(e),
        onApproval: approvalPrompt(p.flags.has("yes"), deps.ask, (r) => describeCall(r.call, lookup), () => out.pause()),
        signal: stop.signal,
        ...(secrets.length ? { secrets, page: engineProbe(engine) } : {}),
      });
    } catch (e) {
      const err = ConnectError.from(e);
      // A backend that died mid-stream surfaces as Unknown "terminated" (undici), not Unavailable.
      const unreachable =
        err.code === Code.Unavailable ||
        err.code === Code.DeadlineExceeded ||
        (err.code === Code.Unknown && /terminated|other side closed|fetch failed|ECONN|socket/i.test(err.rawMessage));
      return fail(unreachable ? `the backend at ${backend.baseUrl} became unreachable: ${err.rawMessage}` : `the backend refused the run: ${err.rawMessage}`, unreachable ? exitCodes.unavailable : exitCodes.failed);
    }
    return await finish(outcome, run, engine, out, interrupted, deps);
  } catch (e) {
    // Anything unexpected (a store that cannot open, a browser that dies): one clear line.
    progress?.end();
    return fail(e instanceof Error ? e.message : String(e), exitCodes.failed);
  } finally {
    progress?.end();
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  }
}

async function finish(outcome: TaskOutcome, run: RunPlan, engine: Engine, out: Progress, interrupted: boolean, deps: RunDeps): Promise<number> {
  const steps = outcome.session.step;
  if (outcome.status === "stopped") {
    out.note(`■ Stopped after ${steps} step(s): ${outcome.reason}`, { status: "stopped" });
    deps.err.write(`baton run: stopped: ${outcome.reason}\n`);
    return interrupted ? exitCodes.interrupted : exitCodes.failed;
  }
  if (outcome.status === "failed") {
    out.note(`✗ Failed after ${steps} step(s): ${outcome.reason}`, { status: "failed" });
    deps.err.write(`baton run: failed: ${outcome.reason}\n`);
    return exitCodes.failed;
  }
  // With expectations to check, "done" is the agent's claim, not yet the verdict.
  const mark = run.script?.expect ? "Finished" : "✓ Done";
  out.note(`${mark} in ${steps} step(s)${outcome.answer ? `: ${outcome.answer}` : ""}`, { status: "completed" });
  if (run.script?.expect) {
    const broken = await checkExpectations(run.script.expect, engineProbe(engine), outcome.answer);
    if (broken.length > 0) {
      out.note(`✗ ${broken.length} expectation(s) of the script did not hold`, { broken });
      deps.err.write(`baton run: ${broken.length} expectation(s) of the script did not hold:\n${broken.map((b) => `  - ${b}\n`).join("")}`);
      return exitCodes.failed;
    }
    out.note("✓ All expectations of the script hold", { expectations: "ok" });
  }
  return exitCodes.done;
}
