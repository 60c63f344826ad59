import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { packageDir } from "@baton/backend/base";
import { type EvalTask, parseTask, TaskError } from "./task.js";
import type { ViaName } from "./via.js";

/** A loaded suite: its tasks and the folder their sites and scripts are relative to. */
export interface Suite {
  /** The folder holding the suite file(s), `sites/` and the scripts. */
  readonly dir: string;
  /** The suite file(s) read, for messages. */
  readonly files: readonly string[];
  readonly tasks: readonly EvalTask[];
}

/** The built-in suite's folder: `src/eval/suite` below the package, in a clone and installed alike (compiled there). */
export const builtinSuiteDir = join(packageDir(import.meta.dirname), "src", "eval", "suite");

function tasksOf(file: string): EvalTask[] {
  const tasks: EvalTask[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (!line.trim()) return;
      const where = `${file}:${i + 1}`;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch (e) {
        throw new TaskError(`${where}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
      }
      tasks.push(parseTask(raw, where));
    });
  return tasks;
}

/**
 * Loads a suite: a JSONL file (one task per line), or a folder, whose `*.jsonl` files are read
 * in name order. Checks that names are unique and that every site and script a task names
 * exists. Throws {@link TaskError} with the file, line and reason.
 */
export function loadSuite(path: string): Suite {
  const at = resolve(path);
  if (!existsSync(at)) throw new TaskError(`${path}: no such file or folder`);
  const isDir = statSync(at).isDirectory();
  const dir = isDir ? at : dirname(at);
  const files = isDir
    ? readdirSync(at)
        .filter((f) => f.endsWith(".jsonl"))
        .sort()
        .map((f) => join(at, f))
    : [at];
  if (files.length === 0) throw new TaskError(`${path}: a suite folder needs at least one *.jsonl file of tasks`);
  const tasks = files.flatMap(tasksOf);
  if (tasks.length === 0) throw new TaskError(`${path}: the suite has no tasks`);
  const seen = new Set<string>();
  for (const t of tasks) {
    if (seen.has(t.name)) throw new TaskError(`${path}: two tasks are named "${t.name}"`);
    seen.add(t.name);
    for (const site of [t.site, t.trust.otherSite]) {
      if (site && !existsSync(join(dir, "sites", site))) throw new TaskError(`${path} (${t.name}): the site folder sites/${site} does not exist`);
    }
    if (t.script && !existsSync(join(dir, t.script))) throw new TaskError(`${path} (${t.name}): the script ${t.script} does not exist`);
  }
  return { dir, files, tasks };
}

/** Turns a glob (`*` any run of characters, `?` one) into an anchored regular expression. */
function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

/**
 * The tasks whose name matches any of the comma-separated globs (`shop/*,mail/read-*`); all
 * of them when `filter` is unset.
 */
export function filterTasks(tasks: readonly EvalTask[], filter: string | undefined): EvalTask[] {
  if (!filter) return [...tasks];
  const globs = filter
    .split(",")
    .map((g) => g.trim())
    .filter(Boolean)
    .map(globToRegExp);
  return tasks.filter((t) => globs.some((g) => g.test(t.name)));
}

/**
 * The tasks that run on `via`: a task with `vias` that does not list it is left out (its name
 * in `skipped`). Every via sets up every trust key (the extension in its panel's Settings).
 */
export function tasksOnVia(tasks: readonly EvalTask[], via: ViaName): { run: EvalTask[]; skipped: string[] } {
  const run: EvalTask[] = [];
  const skipped: string[] = [];
  for (const t of tasks) {
    if (t.trust.vias && !t.trust.vias.includes(via)) {
      skipped.push(t.name);
      continue;
    }
    run.push(t);
  }
  return { run, skipped };
}
