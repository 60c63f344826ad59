import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";

/** The repository this file lives in. */
export const repoRoot = resolve(import.meta.dirname, "../../..");

/** A fresh copy of the repository, as a clone of the current work would be. */
export interface CleanClone {
  readonly dir: string;
  remove(): void;
}

/**
 * Copies the repository's files as a clone of the current work would have them (tracked files
 * plus new ones git does not ignore; no build output, no `.data`, no caches), and links the
 * installed dependencies in as `npm ci` would have left them: every package of `node_modules`
 * linked to the installed one, the workspace links (`node_modules/@baton/*`) and `.bin`
 * pointing into the copy, so the copy runs its own sources. It is made in `parent` (a fresh
 * folder of the system's temporary directory by default).
 */
export function cleanClone(parent = tmpdir()): CleanClone {
  const dir = mkdtempSync(join(parent, "baton-clone-"));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot, encoding: "utf8" })
    .split("\0")
    .filter((f) => f && existsSync(join(repoRoot, f)) && statSync(join(repoRoot, f)).isFile());
  const list = join(dir, ".files");
  writeFileSync(list, files.join("\0"));
  execFileSync("bash", ["-c", `tar --null -T "${list}" -cf - | tar -xf - -C "${dir}"`], { cwd: repoRoot });
  rmSync(list);
  const modules = join(dir, "node_modules");
  mkdirSync(modules);
  for (const entry of readdirSync(join(repoRoot, "node_modules"))) {
    const from = join(repoRoot, "node_modules", entry);
    if (entry === "@baton" || entry === ".bin") cpSync(from, join(modules, entry), { recursive: true, verbatimSymlinks: true });
    else symlinkSync(from, join(modules, entry));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A PATH with the same programs as `path` except any browser: a directory of links to every
 * program on `path` but `chromium`, `chromium-browser` and `google-chrome*`.
 */
export function pathWithoutChromium(path: string, into: string): string {
  mkdirSync(into, { recursive: true });
  const seen = new Set<string>();
  for (const d of path.split(delimiter).filter(Boolean)) {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      continue;
    }
    for (const n of names) {
      if (seen.has(n) || /^(chromium|chromium-browser|google-chrome.*|chrome)$/.test(n)) continue;
      seen.add(n);
      symlinkSync(join(d, n), join(into, n));
    }
  }
  return into;
}
