import { fieldLimits } from "@baton/gen/baton/v1/agent_limits";
import { CreateSessionRequestSchema } from "@baton/gen/baton/v1/descriptors";
import { parseHostList } from "@baton/backend/server";
import type { Io } from "./io.js";

/** Parsed command-line flags: `--name value`, `--name=value` and bare `--flag` (true). */
export interface Parsed {
  readonly positional: string[];
  /** Each flag's last value. */
  readonly flags: Map<string, string | true>;
  /** Every value of each flag, in order, for flags that may repeat (`--secret a=… --secret b=…`). */
  readonly all: Map<string, (string | true)[]>;
}

/** Parses argv (without the node and script entries). */
export function parseArgs(argv: readonly string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  const all = new Map<string, (string | true)[]>();
  const set = (name: string, v: string | true) => {
    flags.set(name, v);
    all.set(name, [...(all.get(name) ?? []), v]);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    if (eq > 0) set(a.slice(2, eq), a.slice(eq + 1));
    else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith("--")) {
        set(a.slice(2), next);
        i++;
      } else set(a.slice(2), true);
    }
  }
  return { positional, flags, all };
}

/** A string flag, or the fallback. */
export function flag(p: Parsed, name: string, fallback?: string): string | undefined {
  const v = p.flags.get(name);
  return typeof v === "string" ? v : fallback;
}

/** The largest step limit a session may have (the contract's `CreateSessionRequest.max_steps` maximum). */
export const maxStepsLimit: number =
  fieldLimits[CreateSessionRequestSchema.typeName]?.[CreateSessionRequestSchema.field.maxSteps.name]?.maximum ?? 10_000;

/** A problem with the command line or its files: the command exits 2 with the message. */
export class UsageError extends Error {}

/**
 * A command's start: `--help` prints `usage` (exit 0); otherwise `parse` reads the flags, and a
 * UsageError is printed with the usage under it (exit 2). Returns the parsed flags, or the exit code.
 */
export function flagsOrExit<T>(p: Parsed, io: Io, command: string, usage: string, parse: () => T): { flags: T } | { exit: number } {
  if (p.flags.has("help")) {
    io.stdout(usage);
    return { exit: 0 };
  }
  try {
    return { flags: parse() };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`baton ${command}: ${e.message}\n\n${usage}`);
    return { exit: 2 };
  }
}

/** "unknown option --x" for the first flag of `p` that is not among `known` (`--help` always is); undefined when all are. */
export function unknownFlag(p: Parsed, known: ReadonlySet<string>): string | undefined {
  for (const k of p.flags.keys()) if (!known.has(k) && k !== "help") return `unknown option --${k}`;
  return undefined;
}

/** Throws a {@link UsageError} naming the first flag that is not among `known`. */
export function onlyKnownFlags(p: Parsed, known: ReadonlySet<string>): void {
  const bad = unknownFlag(p, known);
  if (bad) throw new UsageError(bad);
}

/**
 * A whole number from `min` to `max` given as `label` (a flag such as "--max-steps", or an
 * environment variable): undefined when `value` is; a {@link UsageError} when it is not one.
 */
export function wholeNumber(label: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < min || n > max) throw new UsageError(`${label} must be a whole number from ${min} to ${max}, not "${value}"`);
  return n;
}

/**
 * A host allow-list given as `label` (`--allowed-hosts`, BATON_ALLOWED_HOSTS): comma-separated
 * names or name:port; a {@link UsageError} naming the entry that is neither.
 */
export function hostList(label: string, value: string | boolean | undefined): string[] {
  try {
    return parseHostList(typeof value === "string" ? value : undefined, label);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/**
 * An http:// or https:// address given as `label` (a flag or an environment variable), without a
 * trailing slash: undefined when `value` is empty; a {@link UsageError} when it is not one.
 */
export function httpUrl(label: string, value: string | undefined, example: string): string | undefined {
  const v = value?.trim().replace(/\/+$/, "");
  if (!v) return undefined;
  if (!/^https?:$/.test(URL.parse(v)?.protocol ?? "")) throw new UsageError(`${label} ${JSON.stringify(v)} is not an http:// or https:// address, such as ${example}`);
  return v;
}
