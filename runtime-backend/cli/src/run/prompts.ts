import { createInterface } from "node:readline/promises";
import type { ApprovalDecision, ApprovalRequest } from "@baton/sdk/client";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { AskUserParams, AskUserResultSchema } from "@baton/gen/baton/v1/tools_pb";
import { type OutsideDecision, outsideFolders, type UploadFile } from "@baton/sdk/policy";
import { terminalText } from "./terminal-text.js";
import { personDecided, refuseOutside } from "./upload-dirs.js";

/** Reads one line from the person at the terminal; undefined when no one is there. */
export type Ask = (question: string) => Promise<string | undefined>;

/** Asks on the process's terminal; undefined when stdin is not a TTY (a pipe, CI). */
export function terminalAsk(input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin, output: NodeJS.WritableStream = process.stderr): Ask {
  return async (question) => {
    if (!input.isTTY) return undefined;
    const rl = createInterface({ input, output, terminal: true });
    // In raw mode Ctrl-C reaches readline, not the process: without this the prompt would
    // swallow it. Treat it as "no" and pass it on, so the run stops as it would anywhere else.
    const abort = new AbortController();
    rl.on("SIGINT", () => {
      abort.abort();
      process.kill(process.pid, "SIGINT");
    });
    try {
      return await rl.question(question, { signal: abort.signal });
    } catch {
      return "";
    } finally {
      rl.close();
    }
  };
}

/** How long an "always" or "never" answered at the terminal is remembered (in the run's store). */
export const rememberDays = 30;

/** Why a call is denied when there is no terminal to ask on: tells the user what to pass. */
export const noTtyDenial =
  "Denied: baton run has no terminal to ask for approval on. Run it in a terminal, or pass --yes to approve such actions.";

/** Whether an answer at a `[y/N]` prompt is yes. */
const saidYes = (answer: string): boolean => /^\s*y(es)?\s*$/i.test(answer);

/**
 * The approval callback of `baton run`: `--yes` approves; otherwise the person at the terminal
 * answers yes or no for this call, or always or never for this action class on the call's site
 * (remembered in the run's store, so later runs on that site are not asked); with no terminal
 * the call is denied with a reason naming --yes.
 */
export function approvalPrompt(yes: boolean, ask: Ask, describe: (r: ApprovalRequest) => string, before: () => void): (r: ApprovalRequest) => Promise<ApprovalDecision> {
  return async (r) => {
    if (yes) return { approved: true, reason: "approved with --yes" };
    before();
    // "Always" and "never" need the site the call acts on: without one only this call is decided.
    const site = r.site ? terminalText(r.site) : "";
    const choices = site ? `  [y] yes, once · [a] always on ${site} · [n] no · [v] never on ${site}  (a and v hold for ${rememberDays} days) [y/a/n/v, default n] ` : "  Allow it? [y/N] ";
    const answer = await ask(`\n⚠ Needs your approval: ${terminalText(describe(r))}\n${choices}`);
    if (answer === undefined) return { approved: false, reason: noTtyDenial };
    const a = answer.trim().toLowerCase();
    const until = Date.now() + rememberDays * 24 * 3600_000;
    if (site && /^(a|always)$/.test(a)) return { approved: true, reason: "approved by the user, always on this site", scope: "site", expiresAt: until };
    if (site && /^(v|never)$/.test(a)) return { approved: false, reason: `The user never allows this kind of action on ${r.site}.`, scope: "site", expiresAt: until };
    return saidYes(answer)
      ? { approved: true, reason: "approved by the user" }
      : { approved: false, reason: "The user declined this action at the terminal." };
  };
}

/**
 * `baton run`'s question about uploading files from outside the `--upload-dir` folders: the
 * person at the terminal sees each file's full path (symlinks followed) and answers y/n. With no
 * terminal the upload is refused, saying to name the folder. `--yes` does not answer it: it
 * approves irreversible clicks, not files.
 */
export function uploadPrompt(ask: Ask, before: () => void, folders: readonly string[]): (files: readonly UploadFile[]) => Promise<OutsideDecision> {
  return async (files) => {
    before();
    const list = files.map((f) => `    ${terminalText(f.path)}\n`).join("");
    const answer = await ask(`\n⚠ Needs your approval: uploading ${files.length > 1 ? "files" : "a file"} ${outsideFolders(folders)}:\n${list}  Allow it? [y/N] `);
    if (answer === undefined) {
      return refuseOutside(files, folders, "and baton run has no terminal to ask on. Ask the user to put the file in an upload folder, or to run baton run again with --upload-dir naming its folder.");
    }
    return personDecided(saidYes(answer) ? { approved: true } : { approved: false, reason: "The user declined this upload at the terminal." }, files);
  };
}

/** The ask_user handler: asks at the terminal, or says the user is not available. */
export function askUserHandler(ask: Ask, before: () => void): (p: AskUserParams) => Promise<MessageInitShape<typeof AskUserResultSchema>> {
  return async (p) => {
    before();
    // The question and its choices are the model's words: printed clean.
    const choices = p.choices.length ? `\n  Choices: ${terminalText(p.choices.join(" | "))}` : "";
    const answer = await ask(`\n? The agent asks: ${terminalText(p.question)}${choices}\n  > `);
    return {
      answer:
        answer === undefined
          ? "The user is not available to answer (baton run has no terminal). Continue without the answer if you can, or finish and say what you need."
          : answer,
    };
  };
}
