import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chromiumMissingMessage, ChromiumNotFoundError, ensureChromium, findChromium } from "./find-chromium.js";

const dir = mkdtempSync(join(tmpdir(), "baton-find-chromium-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(path: string, executable: boolean): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "#!/bin/sh\necho Chromium 1.2.3\n");
  chmodSync(path, executable ? 0o755 : 0o644);
  return path;
}

const nowhere = { PATH: join(dir, "empty-bin"), HOME: join(dir, "home") };

describe("findChromium", () => {
  it("finds the machine's Chromium on PATH", () => {
    const found = findChromium(process.env.BATON_CHROMIUM ? { ...process.env, BATON_CHROMIUM: undefined } : process.env);
    expect(found.source).toBe("PATH");
    expect(found.path).toMatch(/chromium|chrome/);
  });

  it("takes BATON_CHROMIUM first, and names it when it is wrong instead of picking another browser", () => {
    const own = file(join(dir, "own/chrome"), true);
    expect(findChromium({ ...process.env, BATON_CHROMIUM: own })).toEqual({ path: own, source: "BATON_CHROMIUM" });
    const notExec = file(join(dir, "noexec/chrome"), false);
    for (const bad of [notExec, join(dir, "missing"), dir]) {
      expect(() => findChromium({ ...process.env, BATON_CHROMIUM: bad })).toThrow(`BATON_CHROMIUM is ${JSON.stringify(bad)}, which is not an executable file`);
    }
  });

  it("looks for the usual names on PATH, in PATH order, skipping files that are not executable", () => {
    const a = join(dir, "a-bin");
    const b = join(dir, "b-bin");
    file(join(a, "chromium"), false);
    const want = file(join(b, "google-chrome"), true);
    expect(findChromium({ PATH: `${a}:${b}`, HOME: nowhere.HOME })).toEqual({ path: want, source: "PATH" });
  });

  it("falls back to the newest Chromium in Playwright's cache (PLAYWRIGHT_BROWSERS_PATH or ~/.cache)", () => {
    const cache = join(dir, "pw");
    file(join(cache, "chromium-1100/chrome-linux64/chrome"), true);
    const newest = file(join(cache, "chromium-1208/chrome-linux64/chrome"), true);
    file(join(cache, "chromium_headless_shell-1300/chrome-linux/headless_shell"), true);
    expect(findChromium({ ...nowhere, PLAYWRIGHT_BROWSERS_PATH: cache })).toEqual({ path: newest, source: "playwright" });
    const home = join(dir, "pw-home");
    const old = file(join(home, ".cache/ms-playwright/chromium-1000/chrome-linux/chrome"), true);
    expect(findChromium({ PATH: nowhere.PATH, HOME: home })).toEqual({ path: old, source: "playwright" });
  });

  it("says in one line what to run when there is none", () => {
    let error: unknown;
    try {
      findChromium(nowhere);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ChromiumNotFoundError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toBe(chromiumMissingMessage(nowhere));
    expect(chromiumMissingMessage({}, false)).toBe("no Chromium found: run `sudo apt-get install chromium` (Debian/Ubuntu), or set BATON_CHROMIUM=/path/to/chromium");
    expect(chromiumMissingMessage({ BATON_NO_INSTALL: "1" }, true)).toBe(
      "no Chromium found (BATON_NO_INSTALL is set, so it was not installed): run `apt-get install chromium` (Debian/Ubuntu), or set BATON_CHROMIUM=/path/to/chromium",
    );
  });
});

describe("ensureChromium", () => {
  it("returns what it finds without installing", () => {
    const own = file(join(dir, "ensure/chrome"), true);
    const log: string[] = [];
    expect(ensureChromium({ env: { BATON_CHROMIUM: own }, mayInstall: true, log: (l) => log.push(l) }).path).toBe(own);
    expect(log).toEqual([]);
  });

  it("does not install when it may not, when BATON_NO_INSTALL is set, or when BATON_CHROMIUM is wrong", () => {
    const log: string[] = [];
    const quiet = { log: (l: string) => log.push(l) };
    expect(() => ensureChromium({ env: nowhere, mayInstall: false, ...quiet })).toThrow(ChromiumNotFoundError);
    expect(() => ensureChromium({ env: { ...nowhere, BATON_NO_INSTALL: "1" }, mayInstall: true, ...quiet })).toThrow(/BATON_NO_INSTALL is set/);
    expect(() => ensureChromium({ env: { ...nowhere, BATON_CHROMIUM: join(dir, "missing") }, mayInstall: true, ...quiet })).toThrow(/BATON_CHROMIUM is/);
    expect(log).toEqual([]);
  });
});
