import { readFileSync } from "node:fs";
import { checkSecrets, type Secret } from "@baton/sdk/client";
import type { Parsed } from "../command/args.js";
import { totpSecret } from "@baton/sdk/totp";
import type { Env } from "@baton/backend/providers";

/** A `--secret` or `--secret-origin` that cannot be used; the message says how to fix it. */
export class SecretArgError extends Error {
  override readonly name = "SecretArgError";
}

function values(p: Parsed, name: string): string[] {
  return (p.all.get(name) ?? []).map((v) => {
    if (v === true) throw new SecretArgError(`--${name} needs a value, such as --${name} password=@~/.config/site-password`);
    return v;
  });
}

/** A file's content without its one trailing newline (what `echo … > file` leaves). */
function fileValue(path: string, name: string): string {
  try {
    return readFileSync(path, "utf8").replace(/\r?\n$/, "");
  } catch (e) {
    throw new SecretArgError(`--secret ${name}: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * The secrets of `baton run`: `--secret NAME=@FILE` (the file's content) or
 * `--secret NAME=env:VAR` (an environment variable), never a value on the command line, which
 * would stay in the shell's history and the process list; `--secret NAME=totp:@FILE` (or
 * `totp:env:VAR`) reads a TOTP seed, and the model's placeholder then types its current code.
 * `--secret-origin NAME=ORIGIN`
 * (repeatable) scopes a secret; `NAME=*` allows any origin. A secret without one is scoped to
 * the origin of `startUrl`, and without a start URL it must be given one.
 */
export function secretsFromArgs(p: Parsed, env: Env, startUrl: string | undefined): Secret[] {
  const secrets = new Map<string, { value: string; origins: string[]; totp: boolean }>();
  for (const arg of values(p, "secret")) {
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const given = eq > 0 ? arg.slice(eq + 1) : "";
    // "totp:" before the source: the value is a TOTP seed, and what is typed is its current code.
    const totp = given.startsWith("totp:");
    const source = totp ? given.slice(5) : given;
    let value: string;
    if (source.startsWith("@")) value = fileValue(source.slice(1), name);
    else if (source.startsWith("env:")) {
      const v = env[source.slice(4)];
      if (v === undefined) throw new SecretArgError(`--secret ${name}: the environment variable ${source.slice(4)} is not set`);
      value = v;
    } else {
      throw new SecretArgError(
        `--secret ${name}: give the value from a file (--secret ${name}=@path/to/file) or an environment variable (--secret ${name}=env:VAR), not on the command line, where it would stay in your shell history and the process list`,
      );
    }
    if (secrets.has(name)) throw new SecretArgError(`--secret ${name} is given twice`);
    secrets.set(name, { value, origins: [], totp });
  }
  for (const arg of values(p, "secret-origin")) {
    const eq = arg.indexOf("=");
    const name = arg.slice(0, Math.max(0, eq));
    const s = secrets.get(name);
    if (!s) throw new SecretArgError(`--secret-origin ${arg}: name a secret given with --secret (NAME=https://site.example)`);
    s.origins.push(arg.slice(eq + 1));
  }
  const startOrigin = startUrl ? new URL(startUrl).origin : undefined;
  const out: Secret[] = [];
  for (const [name, s] of secrets) {
    if (s.origins.length === 0 && !startOrigin) {
      throw new SecretArgError(`--secret ${name}: say where it may be typed with --secret-origin ${name}=https://site.example (or ${name}=* for anywhere), or give --start-url`);
    }
    const secret = { name, value: s.value, origins: s.origins.length ? s.origins : [startOrigin as string] };
    try {
      out.push(s.totp ? totpSecret(secret) : secret);
    } catch (e) {
      throw new SecretArgError(`--secret: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  try {
    // The page is the run's own browser: checked here only for names, values and origins.
    checkSecrets(out, { url: async () => "" });
  } catch (e) {
    throw new SecretArgError(`--secret: ${e instanceof Error ? e.message : String(e)}`);
  }
  return out;
}
