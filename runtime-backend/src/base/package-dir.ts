import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The nearest folder at or above `from` that holds a `package.json`: the workspace
 * (`runtime-backend/`) in a clone, the installed package's root when packaged. The build copies
 * the files code reads at run time (the console's build, the eval suite) to the same path below
 * it, so one relative path finds them either way, whatever chunk the code was bundled into.
 */
export function packageDir(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json at or above ${from}`);
  }
}
