import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Temporary directories for a test file: `fresh()` makes one, `removeAll()` (in afterAll/afterEach) deletes them. */
export function tempDirs(prefix: string): { fresh: () => string; removeAll: () => void } {
  const made: string[] = [];
  return {
    fresh: () => {
      const d = mkdtempSync(join(tmpdir(), prefix));
      made.push(d);
      return d;
    },
    removeAll: () => {
      for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}
