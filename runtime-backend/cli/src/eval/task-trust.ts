/**
 * The keys of an eval task that set up what a person would have told Baton once — a site
 * policy, secrets, a budget, how approvals are answered — and the checks that go with them.
 * Origins of the run's sites are not known until the run (each copy of a site gets a new port),
 * so policy entries, secret origins and setup bodies may name them as `{site}` and `{other_site}`.
 */
import type { TaskBudget } from "@baton/sdk/client";
import { sitePolicyFromObject } from "@baton/sdk/policy";
import { parseTotpSeed } from "@baton/sdk/totp";
import { budgetFromArg } from "../run/budget-arg.js";
import type { ViaName } from "./via.js";

/** A secret of a task, typed where the model writes `<secret>NAME</secret>`. */
export interface TaskSecret {
  readonly name: string;
  /** The value, or a TOTP seed when `totp`. */
  readonly value: string;
  /** The value is a TOTP seed: what is typed is its current code. */
  readonly totp: boolean;
  /** Where it may be typed, as written (`{site}` by default). */
  readonly origins: readonly string[];
}

/** How the harness answers calls held for approval. */
export type ApprovalAnswer = "once" | "deny" | "always" | "never";

/** The trust keys of a task, parsed. */
export interface TaskTrust {
  /** The site policy, its lists as written (placeholders unresolved); checked by {@link sitePolicyFromObject}. */
  readonly policy?: Readonly<Record<string, readonly string[]>>;
  /** A second folder under `sites/`, served on a port of its own: `{other_site}`. */
  readonly otherSite?: string;
  readonly secrets: readonly TaskSecret[];
  readonly budget?: TaskBudget;
  /** The status the run must end with (default "completed"). */
  readonly status: "completed" | "budget_exhausted";
  /** How approvals are answered: "once" (default), "deny", "always" or "never" (on the site). */
  readonly answer: ApprovalAnswer;
  /** Check: the number of calls the person was asked about. */
  readonly approvals?: number;
  /** Check: CSS selectors of elements whose boxes must be painted over in the run's screenshot. */
  readonly masked: readonly string[];
  /** The vias the task runs on (unset: every via). */
  readonly vias?: readonly ViaName[];
  /**
   * Restart the backend (same store, same address) once the answer to the first held call is
   * in the store, so that the run's later calls are decided by a backend that only has the
   * store to remember it by (`restart_backend`).
   */
  readonly restartBackend: boolean;
}

/** The keys {@link trustOf} reads. */
export const trustKeys = ["policy", "other_site", "secrets", "budget", "status", "approvals", "masked", "vias", "restart_backend"] as const;

/** The origins a run's placeholders stand for. */
export interface RunOrigins {
  readonly site?: string;
  readonly other_site?: string;
}

/** Replaces `{site}` and `{other_site}` in a text with the run's origins (left as they are when a run has no such site). */
export function placeOrigins(text: string, o: RunOrigins): string {
  return text.replace(/\{(site|other_site)\}/g, (m, k: keyof RunOrigins) => o[k] ?? m);
}

/** Replaces the placeholders in every string of a JSON value. */
export function placeOriginsIn<T>(value: T, o: RunOrigins): T {
  if (typeof value === "string") return placeOrigins(value, o) as T;
  if (Array.isArray(value)) return value.map((v) => placeOriginsIn(v, o)) as T;
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, placeOriginsIn(v, o)])) as T;
  return value;
}

/** Origins that stand in for the placeholders when a task is checked before any run. */
const sampleOrigins: RunOrigins = { site: "http://127.0.0.1:1", other_site: "http://127.0.0.1:2" };

const vias: readonly ViaName[] = ["headless", "extension"];
const answers: Readonly<Record<string, ApprovalAnswer>> = { true: "once", false: "deny", always: "always", never: "never" };

type Raw = Record<string, unknown>;

function policyOf(v: unknown, fail: (m: string) => never): Record<string, string[]> | undefined {
  if (v === undefined) return undefined;
  try {
    sitePolicyFromObject(placeOriginsIn(v, sampleOrigins), `"policy"`);
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
  }
  const lists: Record<string, string[]> = {};
  for (const [k, list] of Object.entries(v as Raw)) lists[k] = typeof list === "string" ? list.split(/[;,]/) : ((list ?? []) as string[]);
  return lists;
}

function secretsOf(v: unknown, fail: (m: string) => never): TaskSecret[] {
  if (v === undefined) return [];
  if (typeof v !== "object" || v === null || Array.isArray(v)) fail(`"secrets" must be an object of NAME: "value" (or "totp:SEED", or {"value", "origins"})`);
  return Object.entries(v as Raw).map(([name, s]) => {
    if (!/^[\w-]+$/.test(name)) fail(`"secrets.${name}": a secret's name may hold letters, digits, "_" and "-" only`);
    const o = typeof s === "string" ? { value: s } : (s as Raw);
    if (typeof o !== "object" || o === null || typeof o.value !== "string" || o.value === "") fail(`"secrets.${name}" must be a non-empty string or {"value", "origins"}`);
    for (const k of Object.keys(o)) if (k !== "value" && k !== "origins") fail(`"secrets.${name}.${k}" is not a secret key (known: value, origins)`);
    const origins = o.origins === undefined ? ["{site}"] : o.origins;
    if (!Array.isArray(origins) || !origins.length || origins.some((x) => typeof x !== "string")) fail(`"secrets.${name}.origins" must be a list of origins ("{site}", "*", https://…)`);
    const raw = o.value as string;
    const totp = raw.startsWith("totp:");
    const value = totp ? raw.slice(5) : raw;
    if (totp) {
      try {
        parseTotpSeed(value);
      } catch (e) {
        fail(`"secrets.${name}": ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return { name, value, totp, origins: origins as string[] };
  });
}

function budgetOf(v: unknown, fail: (m: string) => never): TaskBudget | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string") fail(`"budget" must be a string of ceilings, such as "tokens=2000,time=30s"`);
  try {
    return budgetFromArg(v as string);
  } catch (e) {
    return fail(`"budget": ${(e instanceof Error ? e.message : String(e)).replace(/^--budget /, "")}`);
  }
}

/**
 * Reads a task's trust keys (`policy`, `other_site`, `secrets`, `budget`, `approve`, `status`,
 * `approvals`, `masked`, `vias`, `restart_backend`), calling `fail` with a message that names the key at fault.
 */
export function trustOf(o: Raw, site: string | undefined, fail: (m: string) => never): TaskTrust {
  const otherSite = o.other_site;
  if (otherSite !== undefined && (typeof otherSite !== "string" || !/^[\w-]+$/.test(otherSite))) fail(`"other_site" must be a folder name under sites/`);
  if (otherSite !== undefined && !site) fail(`"other_site" is served beside the task's site: name its "site"`);
  const policy = policyOf(o.policy, fail);
  const secrets = secretsOf(o.secrets, fail);
  for (const k of ["policy", "secrets", "setup"]) {
    if (otherSite === undefined && JSON.stringify(o[k] ?? "").includes("{other_site}")) fail(`"${k}" names {other_site}: give the task an "other_site"`);
  }
  if (secrets.length && !site) fail(`"secrets" are typed on the task's site: name its "site"`);
  const status = o.status ?? "completed";
  if (status !== "completed" && status !== "budget_exhausted") fail(`"status" must be "completed" or "budget_exhausted"`);
  const answer = answers[String(o.approve ?? true)];
  if (!answer || (o.approve !== undefined && typeof o.approve !== "boolean" && typeof o.approve !== "string")) fail(`"approve" must be true, false, "always" or "never"`);
  const approvals = o.approvals;
  if (approvals !== undefined && (typeof approvals !== "number" || !Number.isInteger(approvals) || approvals < 0)) fail(`"approvals" must be a whole number (of calls the person is asked about)`);
  const masked = o.masked === undefined ? [] : o.masked;
  if (!Array.isArray(masked) || masked.some((s) => typeof s !== "string" || !s.trim())) fail(`"masked" must be a list of CSS selectors`);
  if ((masked as string[]).length && !secrets.length) fail(`"masked" checks that secrets are painted over: give the task "secrets"`);
  const via = o.vias;
  if (via !== undefined && (!Array.isArray(via) || !via.length || via.some((x) => !vias.includes(x as ViaName)))) fail(`"vias" must be a list of ${vias.join(", ")}`);
  const budget = budgetOf(o.budget, fail);
  const restart = o.restart_backend ?? false;
  if (typeof restart !== "boolean") fail(`"restart_backend" must be true or false`);
  if (restart && answer !== "always" && answer !== "never") fail(`"restart_backend" restarts the backend once a decision for the site is stored: give the task "approve": "always" or "never"`);
  return {
    ...(policy ? { policy } : {}),
    ...(typeof otherSite === "string" ? { otherSite } : {}),
    secrets,
    ...(budget ? { budget } : {}),
    status: status as TaskTrust["status"],
    answer: answer as ApprovalAnswer,
    ...(approvals !== undefined ? { approvals: approvals as number } : {}),
    masked: masked as string[],
    ...(via ? { vias: via as ViaName[] } : {}),
    restartBackend: restart as boolean,
  };
}
