import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Env } from "../../providers/registry.js";

/** The embedded store directory a run uses, and how to give it back. */
export interface StoreDir {
  readonly dir: string;
  /** True when the directory is a throwaway one (another run holds the default). */
  readonly temporary: boolean;
  release(): void;
}

/**
 * The default store of `baton run`: `$XDG_CACHE_HOME/baton/run-store` (~/.cache/…). It is kept
 * between runs because creating an embedded database costs seconds and opening one costs well
 * under one; it is separate from `baton serve`'s ./.data so a running server never shares it.
 */
export function defaultRunStore(env: Env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "baton", "run-store");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes `dir` for this process: an embedded database must have one process at a time, so a
 * lock file (`<dir>.lock`, holding the pid) guards it. A lock left by a dead process is taken
 * over; when a live run holds it, this run gets a temporary directory instead of waiting.
 */
export function claimStoreDir(dir: string): StoreDir {
  mkdirSync(dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { dir, temporary: false, release: () => rmSync(lock, { force: true }) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number(readFileSync(lock, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) break;
      rmSync(lock, { force: true });
    }
  }
  const tmp = mkdtempSync(join(tmpdir(), "baton-run-"));
  return { dir: tmp, temporary: true, release: () => rmSync(tmp, { recursive: true, force: true }) };
}
