/**
 * What `baton serve` (and so `npm start`) prints: on a person's terminal, readable lines only;
 * JSON log lines when asked for (`--log-format json`, BATON_LOG_FORMAT) or when stdout is not a
 * terminal. The terminal is a real pseudo-terminal (util-linux `script`), the server a real
 * child process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startBackendProcess } from "../testing/backend-process.js";
import { main } from "../main.js";

const bin = fileURLToPath(new URL("../../bin/baton.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "baton-serve-logs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Single-quoted for sh. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `baton serve` on a pseudo-terminal until its "listening" log line has been written
 * (in either format), and resolves to everything the terminal showed.
 */
async function onTerminal(args: string[], env: Record<string, string> = {}): Promise<string> {
  const cmd = [process.execPath, bin, "serve", "--port", "0", ...args].map(q).join(" ");
  const child: ChildProcess = spawn("script", ["-qfec", cmd, "/dev/null"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  try {
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no "listening" log line in 90 s:\n${out}`)), 90_000);
      child.stdout?.on("data", () => {
        if (/"msg":"listening"|INFO.*listening/.test(out)) {
          clearTimeout(timer);
          ok();
        }
      });
      child.once("exit", (code) => fail(new Error(`baton serve exited (${code}):\n${out}`)));
    });
  } finally {
    if (child.pid) process.kill(-child.pid, "SIGTERM");
  }
  return out;
}

describe("baton serve's output", { timeout: 120_000 }, () => {
  it("gives a person's terminal readable lines and no JSON", async () => {
    const out = await onTerminal(["--data-dir", join(dir, "tty")]);
    expect(out).toContain("Baton backend listening on http://127.0.0.1:");
    expect(out).toMatch(/INFO.*listening/);
    expect(out).not.toMatch(/\{"level":/);
  });

  it("writes JSON on a terminal when asked, by flag or by environment", async () => {
    const flagged = await onTerminal(["--data-dir", join(dir, "tty-json"), "--log-format", "json"]);
    expect(flagged).toMatch(/\{"level":30,.*"msg":"listening"\}/);
    const env = await onTerminal(["--data-dir", join(dir, "tty-json")], { BATON_LOG_FORMAT: "json" });
    expect(env).toMatch(/\{"level":30,.*"msg":"listening"\}/);
  });

  it("writes JSON when stdout is not a terminal", async () => {
    const p = await startBackendProcess(["--data-dir", join(dir, "pipe")], { BATON_LOG_LEVEL: "info" });
    try {
      await expect.poll(() => p.output(), { timeout: 10_000 }).toMatch(/\{"level":30,.*"msg":"listening"\}/);
    } finally {
      await p.kill();
    }
  });

  it("refuses a format it does not know, saying which it knows", async () => {
    const err: string[] = [];
    const code = await main(["serve", "--log-format", "pretty"], { stdout: () => undefined, stderr: (t) => err.push(t) });
    expect(code).toBe(2);
    expect(err.join("")).toContain('--log-format "pretty": use json or text');
  });
});
