import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import type { ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { type BatonClient, createBatonClient, describeCall, maskText, placeholder, type RefLookup, type RunContext, runTask, type Secret, type TaskOutcome } from "@baton/sdk/client";
import { engineHandlers, type Engine } from "@baton/sdk/engine";
import { ChromiumNotFoundError, ensureChromium, type FoundChromium, nodeTransport } from "@baton/sdk/node";
import { attachedGuardNotice, guardUploads, type UrlPolicy } from "@baton/sdk/policy";
import { checkExpectations, engineProbe, type RecordingPage, ScriptFileError, ScriptRecorder, scriptGoal } from "@baton/sdk/script";
import type { Env } from "@baton/backend/providers";
import { flag, parseArgs, type Parsed, UsageError } from "../command/args.js";
import { savedLogin } from "../command/credentials.js";
import { policyFromArgs } from "../command/policy-args.js";
import { missingKeysHelp } from "./model-choice.js";
import { createProgress, type Progress, type ProgressMode } from "./progress.js";
import { type Ask, approvalPrompt, askUserHandler, uploadPrompt } from "./prompts.js";
import { nodeUploadRule, uploadDirsOf } from "./upload-dirs.js";
import { BackendUnavailable, remoteBackend, type RunBackend, startLocalBackend } from "./run-backend.js";
import { openRunBrowser, type RunBrowser } from "./run-browser.js";
import type { OutStream } from "./spinner.js";
import { SecretArgError, secretsFromArgs } from "./secret-args.js";
import { terminalStream } from "./terminal-text.js";
import { type HealedReplay, replayRun } from "./replay-run.js";
import { reportVerdict } from "./report-verdict.js";
import { plan, type RunPlan, runUsage } from "./run-plan.js";
import { endExpectations, savePlaybook, scriptOfPlaybook, scriptPlaybook, writeScript } from "./save-run.js";
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
export async function runCommand(argv: readonly string[], given: RunDeps): Promise<number> {
  // What goes to stderr carries reasons, answers and page text: printed clean.
  const deps: RunDeps = { ...given, err: terminalStream(given.err) };
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
    let policy: UrlPolicy;
    let uploadDirs: string[];
    try {
      policy = policyFromArgs(p);
      startUrl = startUrlOf(p, site);
      secrets = secretsFromArgs(p, deps.env, startUrl);
      uploadDirs = uploadDirsOf(p);
    } catch (e) {
      if (e instanceof UsageError || e instanceof SecretArgError) return fail(e.message, exitCodes.usage);
      throw e;
    }
    // The backend, started once: now for a model-driven run, at the first heal for a replay.
    const backendUrl = flag(p, "backend");
    let started: Promise<RunBackend> | undefined;
    const backend = (): Promise<RunBackend> =>
      (started ??= (async () => {
        let b: RunBackend;
        if (backendUrl) b = await remoteBackend(backendUrl, flag(p, "token", deps.env.BATON_API_TOKEN) ?? savedLogin(backendUrl, deps.env)?.token);
        else {
          const start = (dataDir: string) =>
            startLocalBackend({
              model: run.model ?? "",
              env: run.scriptDir ? { ...deps.env, BATON_SCRIPT_DIR: run.scriptDir } : deps.env,
              dataDir,
              ...(run.maxSteps ? { maxSteps: run.maxSteps } : {}),
            });
          b = await withRunStore(resolve(flag(p, "data-dir") ?? defaultRunStore(deps.env)), start, cleanup);
        }
        cleanup.push(() => b.close());
        return b;
      })());
    // connect-node, not the default fetch transport: with fetch, a backend that dies mid-stream
    // also leaves an unhandled rejection behind, which would crash this process.
    const client = async () => {
      const b = await backend();
      return createBatonClient({ transport: nodeTransport({ baseUrl: b.baseUrl, token: b.token }) });
    };
    let where = "";
    if (!run.heal || run.scriptPlaybook) {
      try {
        where = (await backend()).where;
      } catch (e) {
        if (e instanceof BackendUnavailable) return fail(e.message, exitCodes.unavailable);
        throw e;
      }
    }
    let script = run.script;
    if (run.scriptPlaybook) {
      try {
        const got = await (await client()).getPlaybook({ name: run.scriptPlaybook });
        script = scriptOfPlaybook(run.scriptPlaybook, got.playbook?.instructions ?? "");
      } catch (e) {
        return fail(`--script playbook:${run.scriptPlaybook}: ${e instanceof ConnectError ? e.rawMessage : e instanceof Error ? e.message : String(e)}`, exitCodes.usage);
      }
    }
    let browser: RunBrowser;
    try {
      browser = await openRunBrowser({
        ...(flag(p, "cdp-url") ? { cdpUrl: flag(p, "cdp-url") as string } : {}),
        ...(chromium ? { executablePath: chromium.path } : {}),
        headed: p.flags.has("headed"),
        policy,
      });
      const cdpUrl = flag(p, "cdp-url");
      if (cdpUrl) deps.err.write(`baton run: ${attachedGuardNotice(`the browser at ${cdpUrl}`, false)}\n`);
    } catch (e) {
      return fail(`could not open a browser: ${e instanceof Error ? e.message : String(e)}`, exitCodes.unavailable);
    }
    cleanup.push(() => browser.close());
    const { engine } = browser;
    const lookup = refLookup(engine);
    const probe = engineProbe(engine);
    const out = progress = createProgress(mode, deps.out, lookup);
    if (run.heal) {
      const source = run.scriptPlaybook ? `playbook ${run.scriptPlaybook}` : flag(p, "script");
      out.note(`Replaying ${source} without a model${run.model || backendUrl ? ` (a step that fails goes to ${run.model ?? "the backend's model"})` : " (no model is configured: a step that fails ends the run)"}`);
    } else {
      out.note(`Backend: ${where}${run.model ? ` · model ${run.model.startsWith("script:") ? `script ${flag(p, "script")}` : run.model}` : ""}`);
    }
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

    // With --save-script, every call that succeeds is written down as it runs (secrets as placeholders).
    const recorder = run.saveScript || run.savePlaybook ? new ScriptRecorder<RunContext>(recordingPage(engine), (t) => maskText(t, secrets)) : undefined;
    // Uploads from the --upload-dir folders go ahead; any other file is asked about, by its full path.
    const tools = engineHandlers<RunContext>(engine);
    const uploads = { rule: nodeUploadRule(uploadDirs, uploadDirs[0] ?? process.cwd()), outside: uploadPrompt(deps.ask, () => out.pause(), uploadDirs) };
    const base: ClientToolHandlers<RunContext> = { ...tools, uploadFile: guardUploads(tools.uploadFile, uploads), askUser: askUserHandler(deps.ask, () => out.pause()) };
    const handlers = recorder ? recorder.wrap(base) : base;
    const onApproval = approvalPrompt(p.flags.has("yes"), deps.ask, (r) => describeCall(r.call, lookup), () => out.pause());
    const unreachable = (e: unknown): number => {
      const err = ConnectError.from(e);
      // A backend that died mid-stream surfaces as Unknown "terminated" (undici), not Unavailable.
      const gone =
        err.code === Code.Unavailable ||
        err.code === Code.DeadlineExceeded ||
        (err.code === Code.Unknown && /terminated|other side closed|fetch failed|ECONN|socket/i.test(err.rawMessage));
      return fail(gone ? `the backend became unreachable: ${err.rawMessage}` : `the backend refused the run: ${err.rawMessage}`, gone ? exitCodes.unavailable : exitCodes.failed);
    };

    if (run.heal && script) {
      if (startUrl) await handlers.navigate({ url: startUrl } as never, { sessionId: "replay", toolcallId: "start", signal: stop.signal, step: 0 });
      let replayed: HealedReplay;
      try {
        replayed = await replayRun({
          script,
          goal: scriptGoal(script) ?? run.task,
          handlers,
          secrets,
          probe,
          progress: out,
          signal: stop.signal,
          backend: client,
          model: run.model,
          noModel: run.model || backendUrl ? undefined : missingKeysHelp,
          maxSteps: run.maxSteps,
          onApproval,
        });
      } catch (e) {
        if (e instanceof BackendUnavailable) return fail(e.message, exitCodes.unavailable);
        if (e instanceof ConnectError) return unreachable(e);
        throw e;
      }
      // Each heal is a session on the backend: the replay's outcome is its verdict, as a run's
      // expectations are the verdict of its session, so the console shows what this command exits with.
      if (replayed.status !== "stopped") {
        const verdict = { passed: replayed.status === "completed", reason: `the replay of the script failed: ${replayed.reason}${replayed.broken.length ? `: ${replayed.broken.join("; ")}` : ""}` };
        for (const id of replayed.healSessions) {
          const why = await reportVerdict(await client(), id, verdict);
          if (why) out.note(`(the backend did not record the verdict: ${why})`);
        }
      }
      const code = finishReplay(replayed, out, interrupted, deps);
      if (recorder && replayed.status === "completed") await saveRecording(recorder, run, replayed.answer, startUrl, site, engine, out, client);
      return code;
    }

    let outcome: TaskOutcome;
    try {
      outcome = await runTask(await client(), {
        task: run.task,
        ...(startUrl ? { startUrl } : {}),
        ...(run.model ? { model: run.model } : {}),
        ...(run.maxSteps ? { maxSteps: run.maxSteps } : {}),
        ...(run.budget ? { budget: run.budget } : {}),
        handlers,
        onEvent: (e) => out.event(e),
        onApproval,
        signal: stop.signal,
        // The page: its URL goes with every step (the site policy and remembered approvals ask it).
        page: probe,
        ...(secrets.length ? { secrets } : {}),
      });
    } catch (e) {
      return unreachable(e);
    }
    // What the script's expectations found is the run's verdict: the backend keeps it beside
    // the agent's status, so the console shows the outcome this command exits with.
    const report = async (passed: boolean, reason: string) => {
      const why = await reportVerdict(await client(), outcome.session.id, { passed, reason });
      if (why) out.note(`(the backend did not record the verdict: ${why})`);
    };
    const code = await finish(outcome, run, engine, out, interrupted, deps, report);
    if (recorder && code === exitCodes.done) await saveRecording(recorder, run, outcome.answer, startUrl, site, engine, out, client, outcome.session.goal);
    return code;
  } catch (e) {
    // Anything unexpected (a store that cannot open, a browser that dies): one clear line.
    progress?.end();
    return fail(e instanceof Error ? e.message : String(e), exitCodes.failed);
  } finally {
    progress?.end();
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  }
}

/** What a recorder reads of the page: the refs of the engine's latest snapshot, and the URL. */
function recordingPage(engine: Engine): RecordingPage {
  return {
    refs: () => (engine.lastSnapshot?.elements ?? []).map((e) => ({ ref: e.ref, role: e.role, name: e.name })),
    url: () => engineProbe(engine).url(),
  };
}

/** Writes the recorded run (--save-script) and stores it as a playbook (--save-playbook). */
async function saveRecording(
  recorder: ScriptRecorder<RunContext>,
  run: RunPlan,
  answer: string,
  startUrl: string | undefined,
  site: StaticServer | undefined,
  engine: Engine,
  out: Progress,
  client: () => Promise<BatonClient>,
  goal?: string,
): Promise<void> {
  const script = recorder.script({ goal: goal || run.task, answer, expect: await endExpectations(engine, answer) });
  const needed = recorder.secretNames;
  if (needed.length) {
    const names = needed.map(placeholder).join(", ");
    out.note(`Text typed into a password-like field is saved as ${names}, not as itself: replay with ${needed.map((n) => `--secret ${n}=@FILE`).join(" ")}`, { secrets: needed });
  }
  if (run.saveScript) {
    writeScript(run.saveScript, script);
    out.note(`Saved the run as a script: ${run.saveScript} (replay it with --script ${run.saveScript} --heal)`, { saved: run.saveScript });
  }
  if (run.savePlaybook) {
    const served = site !== undefined && startUrl !== undefined && new URL(startUrl).origin === new URL(site.url).origin;
    const saved = await savePlaybook(await client(), scriptPlaybook(run.savePlaybook, recorder.masked(run.task), startUrl, script, served));
    out.note(`Stored the script as the playbook ${saved}`, { playbook: saved });
  }
}

/** The exit code of a replay, after saying how it went. */
function finishReplay(r: HealedReplay, out: Progress, interrupted: boolean, deps: RunDeps): number {
  const how = r.heals === 0 ? "with no model calls" : `with ${r.heals} step(s) healed by the model in ${r.modelCalls} model call(s)`;
  if (r.status === "stopped") {
    out.note(`■ Replay stopped: ${r.reason}`, { status: "stopped" });
    return interrupted ? exitCodes.interrupted : exitCodes.failed;
  }
  if (r.status === "failed") {
    out.note(`✗ Replay failed ${how}: ${r.reason}`, { status: "failed", heals: r.heals, modelCalls: r.modelCalls, broken: r.broken });
    deps.err.write(`baton run: replay failed: ${r.reason}${r.broken.length ? `:\n${r.broken.map((b) => `  - ${b}\n`).join("")}` : "\n"}`);
    return exitCodes.failed;
  }
  out.note(`✓ Replayed ${how}${r.answer ? `: ${r.answer}` : ""}`, { status: "completed", heals: r.heals, modelCalls: r.modelCalls });
  out.note("✓ All expectations of the script hold", { expectations: "ok" });
  return exitCodes.done;
}

async function finish(
  outcome: TaskOutcome,
  run: RunPlan,
  engine: Engine,
  out: Progress,
  interrupted: boolean,
  deps: RunDeps,
  report: (passed: boolean, reason: string) => Promise<void>,
): Promise<number> {
  const steps = outcome.session.step;
  if (outcome.status === "stopped") {
    out.note(`■ Stopped after ${steps} step(s): ${outcome.reason}`, { status: "stopped" });
    deps.err.write(`baton run: stopped: ${outcome.reason}\n`);
    return interrupted ? exitCodes.interrupted : exitCodes.failed;
  }
  if (outcome.status === "budget_exhausted") {
    out.note(`■ Budget reached after ${steps} step(s): ${outcome.reason}`, { status: "budget_exhausted" });
    deps.err.write(`baton run: budget reached: ${outcome.reason}\n`);
    return exitCodes.failed;
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
    await report(broken.length === 0, broken.length ? `${broken.length} expectation(s) of the script did not hold: ${broken.join("; ")}` : "");
    if (broken.length > 0) {
      out.note(`✗ ${broken.length} expectation(s) of the script did not hold`, { broken });
      deps.err.write(`baton run: ${broken.length} expectation(s) of the script did not hold:\n${broken.map((b) => `  - ${b}\n`).join("")}`);
      return exitCodes.failed;
    }
    out.note("✓ All expectations of the script hold", { expectations: "ok" });
  }
  return exitCodes.done;
}
