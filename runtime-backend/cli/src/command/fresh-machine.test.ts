/**
 * A fresh machine without Chromium, as a new user meets it: a clean clone, Chromium hidden
 * (not on PATH, no Playwright cache, BATON_NO_INSTALL=1 so root does not apt-get it), then the
 * README's commands. Each stops at once with one line saying what to run — never a test run
 * full of `spawn ENOENT`, never a backend started for nothing.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CleanClone, cleanClone, pathWithoutChromium } from "@baton/backend/testing/clean-clone";

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cwd: string, cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd, env, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

const aptLine = /^no Chromium found \(BATON_NO_INSTALL is set, so it was not installed\): run `(sudo )?apt-get install chromium` \(Debian\/Ubuntu\), or set BATON_CHROMIUM=\/path\/to\/chromium$/m;

describe("a fresh machine without Chromium", () => {
  let clone: CleanClone;
  let env: NodeJS.ProcessEnv;

  beforeAll(() => {
    clone = cleanClone();
    const home = join(clone.dir, ".home");
    env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, ".cache"), BATON_NO_INSTALL: "1", CI: "true" };
    for (const k of ["BATON_CHROMIUM", "PLAYWRIGHT_BROWSERS_PATH", "BATON_TEST_DATABASE_URL"]) delete env[k];
    env.PATH = pathWithoutChromium(process.env.PATH ?? "", join(home, "bin"));
  });
  afterAll(() => clone?.remove());

  it("npm test stops before its first check with the one line to run", async () => {
    const r = await run(clone.dir, "npm", ["test"], env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(aptLine);
    expect(r.stderr.match(/no Chromium found/g)).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toMatch(/ENOENT|buf lint|\n\s+at /);
  });

  it("vitest alone stops in its global setup, exit 3", async () => {
    const r = await run(clone.dir, "npx", ["vitest", "run", "sdk/src/contract"], env);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(aptLine);
    expect(r.stdout + r.stderr).not.toMatch(/ENOENT|passed|failed/);
  });

  it("baton run says it in one line and exits 3 before starting a backend", async () => {
    const r = await run(
      clone.dir,
      "npx",
      ["baton", "run", "Sign in as ada@example.com", "--serve", "examples/scripts/site", "--start-url", "/login.html", "--script", "examples/scripts/login.json"],
      env,
    );
    expect(r.code).toBe(3);
    expect(r.stderr.split("\n").filter((l) => l.startsWith("baton run:"))).toEqual([expect.stringMatching(/^baton run: no Chromium found .*apt-get install chromium/)]);
    expect(r.stdout).toBe("");
    expect(existsSync(join(env.XDG_CACHE_HOME as string, "baton", "run-store"))).toBe(false);
  });

  it("a BATON_CHROMIUM pointing nowhere is named, not replaced by another browser", async () => {
    const r = await run(clone.dir, "npx", ["baton", "run", "x", "--script", "examples/scripts/login.json"], { ...env, PATH: process.env.PATH, BATON_CHROMIUM: "/nowhere/chromium" });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('baton run: BATON_CHROMIUM is "/nowhere/chromium", which is not an executable file');
  });

  it("baton doctor marks Chromium missing with what to run, and exits 1", async () => {
    const r = await run(clone.dir, "npx", ["baton", "doctor"], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^✓ Node +v\d+/m);
    expect(r.stdout).toMatch(/^✗ Chromium +no Chromium found .*apt-get install chromium/m);
    expect(r.stdout).toMatch(/^· Store +not created yet \(created on first start\): embedded, in /m);
  });
});
