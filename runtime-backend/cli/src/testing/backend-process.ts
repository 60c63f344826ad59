import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Interceptor } from "@connectrpc/connect";
import type { Script } from "@baton/backend/providers";

/** The `baton` command's entry point (`bin/baton.js`), for tests that run it themselves. */
export const batonScript = fileURLToPath(new URL("../../bin/baton.js", import.meta.url));

/** A `baton serve` child process. */
export interface BackendProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it wrote so far. */
  output(): string;
  /** Ends it with a signal and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Time for a test that starts `baton serve` more than once (a restart after SIGKILL, a second
 * server): each start compiles the sources and opens the store, which took 30–45 s apiece on
 * the shared 2-core machine under a load of 20, so these tests get three minutes.
 */
export const restartTimeoutMs = 180_000;

/**
 * Starts `baton serve` in a separate process and waits until it prints where it listens
 * (`startTimeoutMs`, 90 s by default: a store recovering a long WAL, or a loaded machine, may need more).
 * `batonBin` runs another checkout's `bin/baton.js` (the bench's before and after).
 */
export async function startBackendProcess(args: string[], env: Record<string, string> = {}, startTimeoutMs = 90_000, batonBin = batonScript): Promise<BackendProcess> {
  const child = spawn(process.execPath, [batonBin, "serve", "--port", "0", ...args], {
    env: { ...process.env, BATON_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`backend did not start within ${startTimeoutMs} ms:\n${out}`)), startTimeoutMs);
    const check = () => {
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`backend exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    child,
    output: () => out,
    kill: (signal = "SIGTERM") =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
      }),
  };
}

/** `baton serve` processes on a scripted model, as {@link scriptedBackends} makes them. */
export interface ScriptedBackends {
  /** A fresh directory holding the script; a test may keep its data directory here too. */
  readonly dir: string;
  /** Sends the API token the processes accept. */
  readonly auth: Interceptor;
  /** Starts `baton serve` with these store arguments (`--data-dir …` or `--database-url …`). */
  start(store: string[]): Promise<BackendProcess>;
  /** Kills every process started (SIGKILL) and removes the directory. */
  close(): Promise<void>;
}

/** Processes of `baton serve` whose model is `script` and whose API token is `token` (the fault tests' restarts). */
export function scriptedBackends(prefix: string, script: Script, token: string): ScriptedBackends {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const scriptFile = join(dir, "script.json");
  writeFileSync(scriptFile, JSON.stringify(script));
  const procs: BackendProcess[] = [];
  return {
    dir,
    auth: (next) => (req) => {
      req.header.set("authorization", `Bearer ${token}`);
      return next(req);
    },
    async start(store) {
      const p = await startBackendProcess([...store, "--script-dir", dir, "--model", `script:${scriptFile}`], { BATON_API_TOKEN: token });
      procs.push(p);
      return p;
    },
    async close() {
      for (const p of procs) await p.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
