import type { PageProbe } from "@baton/sdk/script";
import { subsetMismatch } from "./json-subset.js";
import { unpaintedBoxes } from "./screenshot-check.js";
import type { EvalTask } from "./task.js";

/** The kinds of check a task can have, in the order they are run. */
export type CheckKind = "js" | "url" | "state" | "answer" | "tool_calls" | "approvals" | "masked" | "restart";

/** One check's verdict. */
export interface CheckResult {
  readonly check: CheckKind;
  readonly ok: boolean;
  /** Why it failed (or what it saw). */
  readonly detail: string;
}

/** What the checks look at when a run has ended. */
export interface FinalState {
  /** The final page (the active tab). */
  readonly page: PageProbe;
  /** The task's site, for `state`. */
  readonly siteUrl?: string;
  readonly answer: string;
  /** Names of the tools the agent called, in order. */
  readonly toolCalls: readonly string[];
  /** Calls the person was asked about. */
  readonly approvals: number;
  /** The report's screenshot of the final page (a JPEG data URL), when one was taken. */
  readonly screenshot?: string;
}

/** Whether `want` appears in `calls` in order, other calls allowed between; the first missing one. */
function missingInOrder(calls: readonly string[], want: readonly string[]): string | undefined {
  let i = 0;
  for (const name of want) {
    while (i < calls.length && calls[i] !== name) i++;
    if (i === calls.length) return name;
    i++;
  }
  return undefined;
}

async function stateCheck(task: EvalTask, siteUrl: string | undefined): Promise<CheckResult> {
  const state = task.state;
  if (!state || !siteUrl) return { check: "state", ok: false, detail: "the task has no site to read state from" };
  try {
    const res = await fetch(new URL(state.path, siteUrl), { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) return { check: "state", ok: false, detail: `GET ${state.path} answered ${res.status}` };
    const mismatch = subsetMismatch(await res.json(), state.expect);
    return mismatch ? { check: "state", ok: false, detail: `GET ${state.path}: ${mismatch}` } : { check: "state", ok: true, detail: "" };
  } catch (e) {
    return { check: "state", ok: false, detail: `GET ${state.path} failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * Runs every check the task has against the end of a run and returns one result per check
 * (all of them, not only up to the first failure, so a report shows everything that was off).
 */
export async function runChecks(task: EvalTask, end: FinalState): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for (const js of task.js) {
    try {
      const v = await end.page.evaluate(js);
      out.push(v ? { check: "js", ok: true, detail: "" } : { check: "js", ok: false, detail: `\`${js}\` is ${JSON.stringify(v) ?? String(v)}` });
    } catch (e) {
      out.push({ check: "js", ok: false, detail: `\`${js}\` threw: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}` });
    }
  }
  if (task.url !== undefined) {
    let url = "";
    try {
      url = await end.page.url();
    } catch (e) {
      url = `(unreadable: ${e instanceof Error ? e.message : String(e)})`;
    }
    const ok = new RegExp(task.url).test(url);
    out.push({ check: "url", ok, detail: ok ? "" : `the URL ${url} does not match /${task.url}/` });
  }
  if (task.state) out.push(await stateCheck(task, end.siteUrl));
  if (task.answer !== undefined) {
    const ok = new RegExp(task.answer, "i").test(end.answer);
    const shown = end.answer.length > 200 ? `${end.answer.slice(0, 199)}…` : end.answer;
    out.push({ check: "answer", ok, detail: ok ? "" : `the answer ${JSON.stringify(shown)} does not match /${task.answer}/i` });
  }
  if (task.toolCalls.length) {
    const missing = missingInOrder(end.toolCalls, task.toolCalls);
    out.push({
      check: "tool_calls",
      ok: !missing,
      detail: missing ? `expected ${task.toolCalls.join(" → ")} in order; no ${missing} where expected (called: ${end.toolCalls.join(", ") || "nothing"})` : "",
    });
  }
  const { approvals, masked } = task.trust;
  if (approvals !== undefined) {
    const ok = end.approvals === approvals;
    out.push({ check: "approvals", ok, detail: ok ? "" : `expected ${approvals} call(s) asked about, ${end.approvals} were` });
  }
  if (masked.length) {
    const wrong = end.screenshot ? await unpaintedBoxes(end.page, end.screenshot, masked).catch((e: unknown) => [`the screenshot could not be read: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`]) : ["the run kept no screenshot"];
    out.push({ check: "masked", ok: !wrong.length, detail: wrong.join("; ") });
  }
  return out;
}
