import { mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { Env } from "@baton/backend/providers";
import { DataDirBusy } from "@baton/backend/store";

/**
 * The default store of `baton run`: `$XDG_CACHE_HOME/baton/run-store` (~/.cache/…). It is kept
 * between runs because creating an embedded database costs seconds and opening one costs well
 * under one; it is separate from `baton serve`'s ./.data so a running server never shares it.
 */
export function defaultRunStore(env: Env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "baton", "run-store");
}

/**
 * Opens the run's backend on `dir`; when another live process holds that store (another run,
 * or a server), on a throwaway directory instead of waiting, removed by `cleanup`.
 */
export async function withRunStore<T>(dir: string, open: (dir: string) => Promise<T>, cleanup: (() => Promise<void>)[]): Promise<T> {
  try {
    return await open(dir);
  } catch (e) {
    if (!(e instanceof DataDirBusy)) throw e;
    const tmp = mkdtempSync(join(tmpdir(), "baton-run-"));
    cleanup.push(async () => rmSync(tmp, { recursive: true, force: true }));
    return open(tmp);
  }
}
