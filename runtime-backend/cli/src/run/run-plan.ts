import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { parseScriptFile, type ScriptFile } from "@baton/sdk/script";
import { flag, httpUrl, maxStepsLimit, onlyKnownFlags, type Parsed, UsageError, wholeNumber } from "../command/args.js";
import { policyFlagNames, policyUsage } from "../command/policy-args.js";
import type { TaskBudget } from "@baton/sdk/client";
import type { Env } from "@baton/backend/providers";
import { budgetFromArg } from "./budget-arg.js";
import { chooseModel } from "./model-choice.js";

/** `baton run --help`. */
export const runUsage = `baton run "<task>" [options]

  --start-url URL       open this page first (a path like /login.html with --serve)
  --serve DIR           serve DIR on a loopback port for the run; --start-url may be a path in it
  --script FILE         replay a script file instead of a model, then check its "expect"
  --heal                with --script: replay it here with no model at all; a step whose target is
                        gone or whose expectation fails goes to the model (--model), then the
                        replay goes on. --script playbook:NAME replays a script saved as a playbook
  --save-script FILE    write the finished run as a script (role + name targets, the
                        expectations that held), to replay with --script FILE --heal
  --save-playbook NAME  store that script as the playbook NAME too
  --model P:M           provider:model (default: BATON_MODEL, else by the keys that are set)
  --backend URL         use a running backend (with --token, BATON_API_TOKEN, or the token of \`baton login\`)
  --data-dir DIR        the embedded store for this run (default ~/.cache/baton/run-store)
  --max-steps N         step limit (default 50)
  --budget CEILINGS     what the task may spend: tokens=N,cost=USD,time=DURATION (any of
                        them; time like 90s, 15m, 1h30m). Near a ceiling the model is told
                        what is left; at it the run ends ("budget reached", exit 1)
  --headed              show the browser window (needs a display)
  --cdp-url URL         drive a running Chromium (ws://… or http://host:9222) instead of launching one
  --secret NAME=@FILE   a secret the model types as <secret>NAME</secret> without seeing it
                        (NAME=env:VAR reads it from the environment; NAME=totp:@FILE
                        or totp:env:VAR a TOTP seed, whose current code is typed; repeatable)
  --secret-origin NAME=ORIGIN  where NAME may be typed (default: the --start-url's origin;
                        NAME=* for anywhere; repeatable)
  --upload-dir DIR      upload_file takes files from DIR without asking (repeatable); any other
                        file is asked about at the terminal, showing its full path (default: none
                        named, so every upload asks; without a terminal, refused)
${policyUsage}  --yes                 approve irreversible actions without asking (not uploads)
  --json                print progress as JSON lines

Exit codes: 0 done, 1 failed/stopped/budget reached/expectation broken, 2 bad usage or no model, 3 backend or
browser unavailable, 130 interrupted (Ctrl-C).
`;

const KNOWN = new Set([
  "start-url", "serve", "script", "model", "backend", "token", "data-dir", "max-steps", "headed", "cdp-url", "yes", "json", "help",
  "secret", "secret-origin", "heal", "save-script", "save-playbook", "upload-dir", "budget", ...policyFlagNames,
]);


/** What the command line asks for. */
export interface RunPlan {
  readonly task: string;
  /** The script to replay (for --heal from a playbook, loaded once the backend is up). */
  readonly script?: ScriptFile;
  /** --script playbook:NAME with --heal. */
  readonly scriptPlaybook?: string;
  /** --heal: replay here, a model only for the steps that fail. */
  readonly heal?: boolean;
  /** The run's model (for --heal, the one that heals; maybe none). */
  readonly model?: string;
  /** The directory the run's own backend may read script models from. */
  readonly scriptDir?: string;
  readonly maxSteps?: number;
  /** --save-script FILE. */
  readonly saveScript?: string;
  /** --save-playbook NAME. */
  readonly savePlaybook?: string;
  /** --budget: the task's ceiling on tokens, cost and wall time. */
  readonly budget?: TaskBudget;
}

const playbookName = /^[\w.-]{1,100}$/;

/** Reads the command line into a plan; throws UsageError (or ScriptFileError) saying what is wrong. */
export function plan(p: Parsed, env: Env): RunPlan {
  onlyKnownFlags(p, KNOWN);
  if (p.flags.get("backend") === true) throw new UsageError("--backend needs a URL, such as http://127.0.0.1:8787");
  httpUrl("--backend", flag(p, "backend"), "http://127.0.0.1:8787");
  for (const k of ["headed", "yes", "json", "heal"]) if (typeof p.flags.get(k) === "string") throw new UsageError(`--${k} takes no value (put the task before the options, or quote it)`);
  for (const k of ["save-script", "save-playbook"]) if (p.flags.get(k) === true) throw new UsageError(`--${k} needs a value`);
  const saveScript = flag(p, "save-script");
  const savePlaybook = flag(p, "save-playbook");
  if (savePlaybook !== undefined && !playbookName.test(savePlaybook)) throw new UsageError(`--save-playbook ${savePlaybook}: use 1-100 letters, digits, ".", "_" or "-"`);
  const budget = budgetFromArg(p.flags.get("budget"));
  const saving = { ...(saveScript ? { saveScript: resolve(saveScript) } : {}), ...(savePlaybook ? { savePlaybook } : {}), ...(budget ? { budget } : {}) };
  const task = p.positional.join(" ").trim();
  if (!task) throw new UsageError("give the task, such as: baton run \"Find the opening hours\"");
  const maxSteps = wholeNumber("--max-steps", flag(p, "max-steps"), 1, maxStepsLimit);
  const scriptPath = flag(p, "script");
  const heal = p.flags.has("heal");
  if (heal && !scriptPath) throw new UsageError("--heal replays a script: give --script FILE (or --script playbook:NAME)");
  if (heal) {
    // The model that heals: the one named, else the environment's; with none, a replay that
    // needs no healing still runs, and one that does fails saying what to set.
    const model = flag(p, "backend") ? flag(p, "model") : chooseModel(flag(p, "model"), env);
    const healModel = typeof model === "string" ? model : model?.ok ? model.model : undefined;
    const common = { task, heal, ...(healModel ? { model: healModel } : {}), ...(maxSteps ? { maxSteps } : {}), ...saving };
    if (scriptPath?.startsWith("playbook:")) {
      const name = scriptPath.slice("playbook:".length);
      if (!playbookName.test(name)) throw new UsageError(`--script ${scriptPath}: name a playbook (1-100 letters, digits, ".", "_" or "-")`);
      return { ...common, scriptPlaybook: name };
    }
    return { ...common, script: readScript(scriptPath as string) };
  }
  if (scriptPath?.startsWith("playbook:")) throw new UsageError(`--script ${scriptPath}: a playbook's script replays with --heal`);
  if (scriptPath) {
    const script = readScript(scriptPath);
    const file = resolve(scriptPath);
    // `script:NAME` is a name inside the backend's script directory, as in the extension's
    // panel: the run's own backend reads from the script's folder, so the name is the file's.
    // A running backend (--backend) has a directory of its own, which holds the file only if
    // it is inside it: its absolute path, which every backend accepts for a file inside its
    // directory, names it there.
    const model = flag(p, "backend") ? `script:${file}` : `script:${basename(file)}`;
    return { task, script, model, ...(flag(p, "backend") ? {} : { scriptDir: dirname(file) }), ...(maxSteps ? { maxSteps } : {}), ...saving };
  }
  if (flag(p, "backend")) return { task, ...(flag(p, "model") ? { model: flag(p, "model") } : {}), ...(maxSteps ? { maxSteps } : {}), ...saving };
  const choice = chooseModel(flag(p, "model"), env);
  if (!choice.ok) throw new UsageError(choice.message);
  return { task, model: choice.model, ...(maxSteps ? { maxSteps } : {}), ...saving };
}

function readScript(path: string): ScriptFile {
  let json: string;
  try {
    json = readFileSync(path, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read the script ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return parseScriptFile(json, path);
}

