import { type TaskTrust, trustKeys, trustOf } from "./task-trust.js";

/**
 * An eval task as written in a suite file (one JSON object per line): what to ask, where to
 * start, and how to tell from the outcome whether it was done.
 */

/** An HTTP request made to the task's site before the run (a state reset, seed data). */
export interface SetupRequest {
  /** GET, POST, PUT, PATCH or DELETE (default POST). */
  readonly method: string;
  /** A path on the task's site, such as "/api/cart". */
  readonly path: string;
  /** Sent as JSON when given. */
  readonly body?: unknown;
}

/** A check of the app's own server-side state: GET `path` must answer a superset of `expect`. */
export interface StateCheck {
  /** A path on the task's site (default "/api/state"). */
  readonly path: string;
  /** The JSON the answer must contain (objects: these keys; arrays: these items, in order). */
  readonly expect: unknown;
}

/** One task of a suite. */
export interface EvalTask {
  /** Unique within the suite; reports are compared by it. */
  readonly name: string;
  /** What the agent is asked to do (the session's task). */
  readonly goal: string;
  /** A folder under the suite's `sites/`, served on 127.0.0.1 for each run of the task. */
  readonly site?: string;
  /** Absolute http(s) URL, or a path on the task's site (default "/"). */
  readonly startUrl?: string;
  /** A script file for the `script:` provider, relative to the suite file's folder. */
  readonly script?: string;
  readonly setup: readonly SetupRequest[];
  /** Expressions evaluated in the final page; each must be truthy. */
  readonly js: readonly string[];
  /** A regular expression the final URL must match. */
  readonly url?: string;
  readonly state?: StateCheck;
  /** A regular expression (case-insensitive) the final answer must match. */
  readonly answer?: string;
  /** Tool names the agent must call in this order (others may come between). */
  readonly toolCalls: readonly string[];
  readonly maxSteps: number;
  readonly timeoutMs: number;
  /** Approve calls that need approval (default); false denies them. */
  readonly approve: boolean;
  /** What the user answers when the agent calls ask_user; unset: the user is not available. */
  readonly userReply?: string;
  readonly tags: readonly string[];
  /** Site policy, secrets, budget, how approvals are answered, and their checks. */
  readonly trust: TaskTrust;
}

/** A task that cannot be used, with where and why. */
export class TaskError extends Error {
  override readonly name = "TaskError";
}

/** Default step limit of a task. */
export const defaultMaxSteps = 30;
/** Default time limit of a task run. */
export const defaultTimeoutMs = 60_000;

const KEYS = new Set([
  "name",
  "goal",
  "site",
  "start_url",
  "script",
  "setup",
  "js",
  "url",
  "state",
  "answer",
  "tool_calls",
  "max_steps",
  "timeout_ms",
  "approve",
  "user_reply",
  "tags",
  ...trustKeys,
]);
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

type Raw = Record<string, unknown>;

function str(o: Raw, key: string, fail: (m: string) => never, required = false): string | undefined {
  const v = o[key];
  if (v === undefined) {
    if (required) fail(`"${key}" is required`);
    return undefined;
  }
  if (typeof v !== "string" || v.trim() === "") fail(`"${key}" must be a non-empty string`);
  return v;
}

function strings(o: Raw, key: string, fail: (m: string) => never): string[] {
  const v = o[key];
  if (v === undefined) return [];
  if (typeof v === "string") return [v];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || x.trim() === "")) fail(`"${key}" must be a string or a list of strings`);
  return v as string[];
}

function int(o: Raw, key: string, min: number, max: number, fallback: number, fail: (m: string) => never): number {
  const v = o[key];
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) fail(`"${key}" must be a whole number from ${min} to ${max}`);
  return v;
}

function regex(source: string | undefined, key: string, fail: (m: string) => never): string | undefined {
  if (source === undefined) return undefined;
  try {
    new RegExp(source);
  } catch (e) {
    fail(`"${key}" is not a valid regular expression (${e instanceof Error ? e.message : String(e)})`);
  }
  return source;
}

function setupOf(v: unknown, fail: (m: string) => never): SetupRequest[] {
  if (v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((s, i) => {
    const at = `setup[${i}]`;
    if (typeof s !== "object" || s === null || Array.isArray(s)) fail(`"${at}" must be an object with "path" (and "method", "body")`);
    const r = s as Raw;
    for (const k of Object.keys(r)) if (!["method", "path", "body"].includes(k)) fail(`"${at}.${k}" is not a setup key (known: method, path, body)`);
    if (typeof r.path !== "string" || !r.path.startsWith("/")) fail(`"${at}.path" must be a path starting with "/"`);
    const method = r.method === undefined ? "POST" : String(r.method).toUpperCase();
    if (!METHODS.has(method)) fail(`"${at}.method" must be one of ${[...METHODS].join(", ")}`);
    return { method, path: r.path, ...(r.body !== undefined ? { body: r.body } : {}) };
  });
}

function stateOf(v: unknown, fail: (m: string) => never): StateCheck | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "object" || v === null || Array.isArray(v) || !("expect" in v)) fail(`"state" must be an object with "expect" (and optionally "path")`);
  const r = v as Raw;
  for (const k of Object.keys(r)) if (k !== "path" && k !== "expect") fail(`"state.${k}" is not a state key (known: path, expect)`);
  const path = r.path === undefined ? "/api/state" : r.path;
  if (typeof path !== "string" || !path.startsWith("/")) fail(`"state.path" must be a path starting with "/"`);
  return { path, expect: r.expect };
}

/**
 * Checks one task object (a parsed line of a suite file). Throws a {@link TaskError} whose
 * message starts with `where` (such as "suite.jsonl:12") and names the key at fault.
 */
export function parseTask(raw: unknown, where: string): EvalTask {
  let name = "";
  const fail = (m: string): never => {
    throw new TaskError(`${where}${name ? ` (${name})` : ""}: ${m}`);
  };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) fail("a task must be a JSON object");
  const o = raw as Raw;
  if (typeof o.name === "string") name = o.name;
  for (const k of Object.keys(o)) if (!KEYS.has(k)) fail(`unknown key "${k}" (known: ${[...KEYS].join(", ")})`);
  name = str(o, "name", fail, true) as string;
  if (!/^[\w./-]+$/.test(name)) fail(`"name" may hold letters, digits, "_", "-", "." and "/" only`);
  const goal = str(o, "goal", fail, true) as string;
  const site = str(o, "site", fail);
  if (site !== undefined && !/^[\w-]+$/.test(site)) fail(`"site" must be a folder name under sites/`);
  const startUrl = str(o, "start_url", fail);
  if (startUrl !== undefined && !/^https?:\/\//i.test(startUrl)) {
    if (!site) fail(`"start_url" ${JSON.stringify(startUrl)} is a path: name the "site" it is on, or give an absolute http(s) URL`);
    if (!startUrl.startsWith("/")) fail(`"start_url" must be an absolute http(s) URL or a path starting with "/"`);
  }
  if (startUrl === undefined && !site) fail(`give "start_url" (an http(s) URL) or "site"`);
  const script = str(o, "script", fail);
  const state = stateOf(o.state, fail);
  if (state && !site) fail(`"state" reads the task's site: name its "site"`);
  const js = strings(o, "js", fail);
  const url = regex(str(o, "url", fail), "url", fail);
  const answer = regex(str(o, "answer", fail), "answer", fail);
  const toolCalls = strings(o, "tool_calls", fail);
  const trust = trustOf(o, site, fail);
  if (!js.length && url === undefined && !state && answer === undefined && !toolCalls.length && trust.approvals === undefined && !trust.masked.length) {
    fail(`a task needs at least one check: "js", "url", "state", "answer", "tool_calls", "approvals" or "masked"`);
  }
  const userReply = o.user_reply;
  if (userReply !== undefined && typeof userReply !== "string") fail(`"user_reply" must be a string`);
  const setup = setupOf(o.setup, fail);
  if (setup.length && !site) fail(`"setup" requests go to the task's site: name its "site"`);
  return {
    name,
    goal,
    ...(site ? { site } : {}),
    ...(startUrl ? { startUrl } : {}),
    ...(script ? { script } : {}),
    setup,
    js,
    ...(url !== undefined ? { url } : {}),
    ...(state ? { state } : {}),
    ...(answer !== undefined ? { answer } : {}),
    toolCalls,
    maxSteps: int(o, "max_steps", 1, 1000, defaultMaxSteps, fail),
    timeoutMs: int(o, "timeout_ms", 1000, 3_600_000, defaultTimeoutMs, fail),
    approve: trust.answer === "once" || trust.answer === "always",
    ...(typeof userReply === "string" ? { userReply } : {}),
    tags: strings(o, "tags", fail),
    trust,
  };
}
