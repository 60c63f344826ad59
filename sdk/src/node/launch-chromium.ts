import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { computedAxFeature } from "../engine/read/computed-ax.js";
import { findChromium } from "./find-chromium.js";

/** Options for `launchChromium`. */
export interface LaunchOptions {
  /** The browser binary; by default the one `findChromium` finds (`BATON_CHROMIUM`, `chromium` on PATH, Playwright's). */
  executablePath?: string;
  /** Run headless (default true). */
  headless?: boolean;
  /** Extra command-line switches, such as "--site-per-process". */
  args?: readonly string[];
  /** How long to wait for the DevTools endpoint (default 20 s). */
  timeoutMs?: number;
}

/** A running browser with a throwaway profile. */
export interface LaunchedChromium {
  /** The browser-level DevTools WebSocket URL. */
  readonly wsEndpoint: string;
  /** The browser process. */
  readonly process: ChildProcess;
  /** Kills the browser (by its own pid) and deletes the profile; safe to call twice. */
  close(): Promise<void>;
}

/** Debian's Chromium, where `apt-get install chromium` puts it (the usual result of `findChromium`). */
export const defaultChromiumPath = "/usr/bin/chromium";

/**
 * The command line of `launchChromium`: headless defaults, the caller's switches, and one
 * `--enable-blink-features` joining ours with the caller's (Chromium keeps only the last such
 * switch).
 */
export function chromiumSwitches(options: Pick<LaunchOptions, "headless" | "args">, userDataDir: string): string[] {
  // Ours: computed AX role and name (computed-ax.ts).
  const blinkPrefix = "--enable-blink-features=";
  const extra = options.args ?? [];
  const blink = [computedAxFeature, ...extra.filter((a) => a.startsWith(blinkPrefix)).flatMap((a) => a.slice(blinkPrefix.length).split(","))];
  return [
    ...(options.headless === false ? [] : ["--headless"]),
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    // As Playwright launches it: a page left behind is not kept alive with its open requests
    // (an app's event stream per page spends the host's six connections in six loads).
    "--disable-back-forward-cache",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--no-default-browser-check",
    "--mute-audio",
    "--hide-scrollbars",
    "--remote-debugging-port=0",
    `--user-data-dir=${userDataDir}`,
    ...extra.filter((a) => !a.startsWith(blinkPrefix)),
    `${blinkPrefix}${[...new Set(blink.filter(Boolean))].join(",")}`,
    "about:blank",
  ];
}

/**
 * Starts Chromium with remote debugging on a free port and a fresh profile, and resolves once
 * it prints its DevTools endpoint. Blink's `ComputedAccessibilityInfo` feature is on (elements
 * get `computedRole`/`computedName`, which the snapshot reads for common elements in one call;
 * pass `--disable-blink-features=ComputedAccessibilityInfo` to turn it off). Every wait is
 * capped; a browser that never answers is killed. Without `executablePath`, a missing browser
 * rejects with `ChromiumNotFoundError`, whose one-line message says what to install.
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<LaunchedChromium> {
  const executablePath = options.executablePath ?? findChromium().path;
  const userDataDir = await mkdtemp(join(tmpdir(), "baton-chromium-"));
  const args = chromiumSwitches(options, userDataDir);
  const child = spawn(executablePath, args, {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let closed = false;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(timer);
    }
    await rm(userDataDir, { recursive: true, force: true }).catch(() => undefined);
  };
  try {
    const wsEndpoint = await new Promise<string>((resolve, reject) => {
      let stderr = "";
      const timer = setTimeout(
        () => reject(new Error(`Chromium did not print a DevTools endpoint within ${options.timeoutMs ?? 20_000} ms`)),
        options.timeoutMs ?? 20_000,
      );
      const onData = (chunk: Buffer): void => {
        stderr = (stderr + chunk.toString()).slice(-8000);
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
        if (match?.[1]) {
          clearTimeout(timer);
          child.stderr?.off("data", onData);
          resolve(match[1]);
        }
      };
      child.stderr?.on("data", onData);
      child.once("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`Chromium exited (${code}) before listening: ${stderr.slice(-500)}`));
      });
    });
    // Keep draining stderr so a chatty browser never blocks on a full pipe.
    child.stderr?.resume();
    return { wsEndpoint, process: child, close };
  } catch (e) {
    await close();
    throw e;
  }
}
