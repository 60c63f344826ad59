import { spawnSync } from "node:child_process";
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";

/** Where a Chromium was found. */
export interface FoundChromium {
  /** The executable. */
  readonly path: string;
  /** How it was found: the `BATON_CHROMIUM` variable, `PATH`, Playwright's browser cache, or Debian's path (off PATH, or just installed). */
  readonly source: "BATON_CHROMIUM" | "PATH" | "playwright" | "debian";
}

/** Environment the search reads (`BATON_CHROMIUM`, `PATH`, the cache directories). */
export type ChromiumEnv = Readonly<Record<string, string | undefined>>;

/**
 * No usable Chromium. The message is one line that says what to run; commands print it as it
 * is (exit code {@link chromiumMissingExitCode}).
 */
export class ChromiumNotFoundError extends Error {
  override readonly name = "ChromiumNotFoundError";
}

/** The exit code of a command that stopped because no Chromium was found (`baton run`'s "browser unavailable"). */
export const chromiumMissingExitCode = 3;

/** Binary names looked up on `PATH`, in order (Debian's package installs the first). */
const pathNames = ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome", "chrome"];

/** Debian's Chromium, where `apt-get install chromium` puts it. */
const debianPath = "/usr/bin/chromium";

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Chromium builds in Playwright's cache (`PLAYWRIGHT_BROWSERS_PATH`, else
 * `$XDG_CACHE_HOME/ms-playwright`, else `~/.cache/ms-playwright`), newest revision first.
 * The full browser only: the headless shell cannot run `--headed`.
 */
function playwrightChromiums(env: ChromiumEnv): string[] {
  const root =
    env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== "0"
      ? env.PLAYWRIGHT_BROWSERS_PATH
      : join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache"), "ms-playwright");
  let dirs: string[];
  try {
    dirs = readdirSync(root).filter((d) => /^chromium-\d+$/.test(d));
  } catch {
    return [];
  }
  dirs.sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)));
  return dirs.flatMap((d) => [join(root, d, "chrome-linux64", "chrome"), join(root, d, "chrome-linux", "chrome")]);
}

/** The one line printed when nothing is found: what to run, for root and for everyone else. */
export function chromiumMissingMessage(env: ChromiumEnv = process.env, isRoot = process.getuid?.() === 0): string {
  const apt = isRoot ? "apt-get install chromium" : "sudo apt-get install chromium";
  const why = isRoot && noInstall(env) ? " (BATON_NO_INSTALL is set, so it was not installed)" : "";
  return `no Chromium found${why}: run \`${apt}\` (Debian/Ubuntu), or set BATON_CHROMIUM=/path/to/chromium`;
}

function noInstall(env: ChromiumEnv): boolean {
  return Boolean(env.BATON_NO_INSTALL) && env.BATON_NO_INSTALL !== "0";
}

/**
 * Finds Chromium: `BATON_CHROMIUM` when set (then only that file: a wrong path is an error, not
 * a reason to pick another browser), else `chromium` (and its usual other names) on `PATH`,
 * else a Playwright-installed Chromium. Throws {@link ChromiumNotFoundError} with the one line
 * to print.
 */
export function findChromium(env: ChromiumEnv = process.env): FoundChromium {
  const explicit = env.BATON_CHROMIUM;
  if (explicit) {
    if (isExecutableFile(explicit)) return { path: explicit, source: "BATON_CHROMIUM" };
    throw new ChromiumNotFoundError(
      `BATON_CHROMIUM is ${JSON.stringify(explicit)}, which is not an executable file: point it at a Chromium binary, or unset it to use the one on PATH`,
    );
  }
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    for (const name of pathNames) {
      const path = join(dir, name);
      if (isExecutableFile(path)) return { path, source: "PATH" };
    }
  }
  const cached = playwrightChromiums(env).find(isExecutableFile);
  if (cached) return { path: cached, source: "playwright" };
  throw new ChromiumNotFoundError(chromiumMissingMessage(env));
}

/** Options for {@link ensureChromium}. */
export interface EnsureChromiumOptions {
  /** Environment to search (default `process.env`). `BATON_NO_INSTALL=1` forbids installing. */
  env?: ChromiumEnv;
  /** Whether this process may install Debian's package (default: when running as root). */
  mayInstall?: boolean;
  /** Where to say that an install is under way (default stderr). */
  log?: (line: string) => void;
}

/**
 * {@link findChromium}, and when nothing is found, on a root Debian machine without
 * `BATON_NO_INSTALL`, `apt-get install chromium` (quietly) and look again. A wrong
 * `BATON_CHROMIUM` is never "fixed" by installing another browser. Throws
 * {@link ChromiumNotFoundError} with one line that says what to run.
 */
export function ensureChromium(options: EnsureChromiumOptions = {}): FoundChromium {
  const env = options.env ?? process.env;
  try {
    return findChromium(env);
  } catch (e) {
    const mayInstall = options.mayInstall ?? process.getuid?.() === 0;
    if (!(e instanceof ChromiumNotFoundError) || env.BATON_CHROMIUM || !mayInstall || noInstall(env)) throw e;
  }
  // Installed but off PATH: apt-get would only say so.
  if (isExecutableFile(debianPath)) return { path: debianPath, source: "debian" };
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  log("No Chromium found: installing Debian's package (apt-get install chromium)…");
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update", "-qq"], ["install", "-y", "-qq", "chromium"]]) {
    const r = spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "pipe"], env: aptEnv, encoding: "utf8" });
    if (r.status !== 0) {
      const why = r.error ? r.error.message : (r.stderr.trim().split("\n").at(-1) ?? `exit ${r.status}`);
      throw new ChromiumNotFoundError(`no Chromium found, and \`apt-get ${args.join(" ")}\` failed (${why}): install Chromium yourself, or set BATON_CHROMIUM=/path/to/chromium`);
    }
  }
  if (isExecutableFile(debianPath)) return { path: debianPath, source: "debian" };
  throw new ChromiumNotFoundError(`apt-get installed chromium, but ${debianPath} is not there: set BATON_CHROMIUM=/path/to/chromium`);
}
