/**
 * `npm run check:layers` fails on an edge that breaks the package order or the backend's layers:
 * the check runs over a small tree of its own (the repository's folder names, a file or two in
 * each), once with edges that keep the order and once with each kind of violation.
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const repo = join(import.meta.dirname, "..");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A tree of `files` (path → source) checked by scripts/check-layers.mjs: its exit code and what it printed. */
async function checkLayers(files: Record<string, string>): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), "baton-layers-"));
  dirs.push(dir);
  copyFileSync(join(repo, "tsconfig.base.json"), join(dir, "tsconfig.base.json"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const roots = [...new Set(Object.keys(files).map((p) => p.split("/")[0] as string))];
  return promisify(execFile)(process.execPath, [join(repo, "scripts/check-layers.mjs"), ...roots], { cwd: dir }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
}

/** The files of a tree where each package and backend layer imports only what is below it. */
const lawful: Record<string, string> = {
  "gen/src/a.ts": "export const a = 1;\n",
  "sdk/src/b.ts": 'import { a } from "../../gen/src/a.ts";\nexport const b = a;\n',
  "runtime-backend/src/base/c.ts": 'import { b } from "../../../sdk/src/b.ts";\nexport const c = b;\n',
  "runtime-backend/src/store/d.ts": 'import { c } from "../base/c.ts";\nexport const d = c;\n',
  "runtime-backend/src/server/e.ts": 'import { d } from "../store/d.ts";\nexport const e = d;\n',
  "runtime-extension/src/f.ts": 'import { e } from "../../runtime-backend/src/server/e.ts";\nexport const f = e;\n',
  "runtime-backend/cli/src/g.ts": 'import { f } from "../../../runtime-extension/src/f.ts";\nexport const g = f;\n',
  // A backend test may start the command above it.
  "runtime-backend/src/faults/h.test.ts": 'import { g } from "../../cli/src/g.ts";\nexport const h = g;\n',
};

describe("npm run check:layers", () => {
  it("passes a tree whose packages and layers import only downwards", async () => {
    const r = await checkLayers(lawful);
    expect(r.out).toContain("no dependency violations found");
    expect(r.code).toBe(0);
  });

  it.each([
    ["the backend importing the command", "runtime-backend/src/base/x.ts", 'import { g } from "../../cli/src/g.ts";\nexport const x = g;\n', "package-order-backend"],
    ["the backend importing the extension", "runtime-backend/src/server/x.ts", 'import { f } from "../../../runtime-extension/src/f.ts";\nexport const x = f;\n', "package-order-backend"],
    ["the extension importing the command", "runtime-extension/src/x.ts", 'import { g } from "../../runtime-backend/cli/src/g.ts";\nexport const x = g;\n', "package-order-extension"],
    ["the sdk importing the backend", "sdk/src/x.ts", 'import { c } from "../../runtime-backend/src/base/c.ts";\nexport const x = c;\n', "package-order-sdk"],
    ["the store importing the server", "runtime-backend/src/store/x.ts", 'import { e } from "../server/e.ts";\nexport const x = e;\n', "backend-layer-store"],
    ["the console importing the server", "runtime-backend/src/console/x.ts", 'import { e } from "../server/e.ts";\nexport const x = e;\n', "backend-layer-console"],
  ])("fails on %s", async (_, path, text, rule) => {
    const r = await checkLayers({ ...lawful, [path]: text });
    expect(r.out).toContain(rule);
    expect(r.code).not.toBe(0);
  });
});
