import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

// A child process records every module it resolves (`module.registerHooks`) while it checks the
// console build that the tests' global setup left current: the bundler must not be among them.
const probe = `
import { registerHooks } from "node:module";
const seen = [];
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r; } });
const { buildConsoleIfStale } = await import(${JSON.stringify(join(import.meta.dirname, "build.ts"))});
const rebuilt = await buildConsoleIfStale(${JSON.stringify(join(import.meta.dirname, "dist"))});
console.log(JSON.stringify({ rebuilt, bundler: seen.filter((u) => /rollup|esbuild/.test(u)) }));
`;

describe("the console build check", () => {
  it("does not load the bundler when the build is current", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", probe], { cwd: import.meta.dirname });
    const out = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { rebuilt: boolean; bundler: string[] };
    expect(out.rebuilt).toBe(false);
    expect(out.bundler).toEqual([]);
  });
});
