import { readFileSync } from "node:fs";
import { mergeUrlPolicies, sitePolicyFromObject, type UrlPolicy, urlPolicyFromLists } from "@baton/sdk/policy";
import { parse as parseYaml } from "yaml";
import { flag, type Parsed, UsageError } from "./args.js";

/** The flags that make a command's site policy (`baton run`, `baton eval`, `baton mcp`). */
export const policyFlagNames: readonly string[] = ["policy", "allowed-origins", "blocked-origins", "read-only-origins"];

/** The site-policy lines of each command's `--help`. */
export const policyUsage = `  --policy FILE         a site policy, JSON or YAML: "allowed", "blocked" and "read_only"
                        lists of origins and hosts; the three flags below add to it
  --allowed-origins LIST
                        only these origins or hosts, ";"-separated (https://example.com;*.example.org)
  --blocked-origins LIST
                        never these, frames, requests and WebSockets included (wins over allowed)
  --read-only-origins LIST
                        pages there load and can be read, but nothing is clicked, typed or submitted
`;

/**
 * A policy file's contents: JSON for a `.json` file, YAML otherwise (YAML reads JSON too, but
 * JSON's own parser names the position of a JSON mistake plainly). Throws a UsageError naming
 * the file and what is wrong with it.
 */
export function readPolicyFile(file: string): UrlPolicy {
  const label = `--policy ${file}`;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`${label}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let value: unknown;
  try {
    value = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new UsageError(`${label}: not valid ${/\.json$/i.test(file) ? "JSON" : "YAML"}: ${(e as Error).message.split("\n")[0]}`);
  }
  try {
    return sitePolicyFromObject(value ?? {}, label);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/**
 * The command's site policy: the `--policy` file merged with `--allowed-origins`,
 * `--blocked-origins` and `--read-only-origins` (`mergeUrlPolicies`: none loosens another, so
 * a flag can narrow a shared file but not open what it blocks). Throws a UsageError naming the
 * flag or file at fault.
 */
export function policyFromArgs(p: Parsed): UrlPolicy {
  for (const k of policyFlagNames) if (p.flags.get(k) === true) throw new UsageError(`--${k} needs a value`);
  let flags: UrlPolicy;
  try {
    flags = urlPolicyFromLists(
      { allowed: flag(p, "allowed-origins"), blocked: flag(p, "blocked-origins"), readOnly: flag(p, "read-only-origins") },
      { allowed: "--allowed-origins", blocked: "--blocked-origins", readOnly: "--read-only-origins" },
    );
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const file = flag(p, "policy");
  return file ? mergeUrlPolicies(readPolicyFile(file), flags) : flags;
}
