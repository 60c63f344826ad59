/**
 * Terminal control sequences a model writes never reach the terminal: the function, then the
 * real `baton run` binary replaying a "model" whose words, question and answer carry an OSC 52
 * (clipboard write), an OSC 8 (hidden link), a CSI 2J (clear screen) and C1 forms, in plain,
 * JSON and terminal (spinner) output, and `baton eval`'s progress.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { evalProgress } from "../eval/eval-progress.js";
import type { ReportRow } from "../eval/report.js";
import { runCommand } from "./run-command.js";
import { terminalText } from "./terminal-text.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const bin = join(root, "runtime-backend/cli/bin/baton.js");
const dir = mkdtempSync(join(tmpdir(), "baton-terminal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const clipboard = "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07";
const link = "\x1b]8;;https://evil.example/\x1b\\click here\x1b]8;;\x1b\\";
const clear = "\x1b[2J\x1b[H";
const c1 = "\x9b31m\x9d0;title\x9c";
const hostile = `Done${clipboard} — see ${link}${clear}${c1}, bell\x07 and back\rspace.`;

/** Whether output holds any escape or control byte but newline and tab (raw, or as a JSON escape). */
function controls(out: string): string[] {
  return [...out.matchAll(/[\x00-\x08\x0b-\x1f\x7f-\x9f]|\\u00[01][0-9a-f]|\\u007f|\\u00[89][0-9a-f]/gi)].map((m) => JSON.stringify(m[0]));
}

describe("terminalText", () => {
  it("removes escape sequences whole and every other control but newline and tab", () => {
    expect(terminalText(hostile)).toBe("Done — see click here, bell and backspace.");
    expect(terminalText("line one\n\tindented · ünïcödé ✓")).toBe("line one\n\tindented · ünïcödé ✓");
    // An unterminated OSC swallows the rest, as a terminal would: nothing of it is printed.
    expect(terminalText("ok\x1b]52;c;AAAA")).toBe("ok");
    expect(terminalText("a\x1bcb\x1b(Bc")).toBe("abc");
  });
});

const site = join(dir, "site");
const script = join(dir, "hostile.json");
mkdirSync(site, { recursive: true });

function writeFixtures(): void {
  writeFileSync(join(site, "index.html"), "<!doctype html><title>Plain</title><h1>Plain page</h1>");
  writeFileSync(
    script,
    JSON.stringify({
      turns: [
        { text: `<goal>Read it</goal>Reading${clear}${clipboard}`, calls: [{ name: "take_snapshot" }] },
        { text: `Asking${link}`, calls: [{ name: "ask_user", args: { question: `Copy this?${clipboard}`, choices: [`yes${clear}`, "no"] } }] },
        { calls: [{ name: "done", args: { answer: hostile } }] },
      ],
    }),
  );
}

function baton(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, "run", ...args], { cwd: root, encoding: "utf8", timeout: 170_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("baton run prints no control sequence a model wrote", { timeout: 180_000 }, () => {
  const dataDir = join(dir, "data");
  const args = () => ["Read the page", "--serve", site, "--script", script, "--data-dir", dataDir];

  it("in plain and JSON output (the real binary's stdout and stderr bytes)", async () => {
    writeFixtures();
    for (const extra of [[], ["--json"]]) {
      const r = await baton([...args(), ...extra]);
      expect(r.code, r.stderr).toBe(0);
      // The answer's words are there; none of its control characters (C1 ones are written as UTF-8).
      expect(r.stdout).toContain(extra.length ? "Done — see click here, bell and backspace." : "Done in 3 step(s): Done — see click here, bell and backspace.");
      expect(controls(r.stdout.replace(/\n/g, ""))).toEqual([]);
      expect(controls(r.stderr)).toEqual([]);
    }
  });

  it("on a terminal: only the spinner's own line clearing is written, and the question is asked clean", async () => {
    writeFixtures();
    let out = "";
    const asked: string[] = [];
    const code = await runCommand(args(), {
      out: { write: (t: string) => (out += t), isTTY: true },
      err: { write: (t: string) => (out += t) },
      env: {},
      ask: async (q) => (asked.push(q), "yes"),
      onInterrupt: () => () => undefined,
    });
    expect(code).toBe(0);
    expect(out).toContain("Done — see click here, bell and backspace.");
    expect(controls(out.replaceAll("\r\x1b[2K", "").replace(/\n/g, ""))).toEqual([]);
    expect(asked.join("")).toContain("Copy this?");
    expect(controls(asked.join("").replace(/\n/g, ""))).toEqual([]);
  });
});

describe("baton eval's progress", () => {
  it("prints a run's reason without its control sequences, on a terminal and in a pipe", () => {
    const row = { task: `shop/x${clear}`, attempt: 1, verdict: "fail", failed_check: "answer", reason: `expected "Done", got ${hostile}`, wall_ms: 1200, steps: 3 } as unknown as ReportRow;
    for (const tty of [true, false]) {
      let out = "";
      const p = evalProgress({ write: (t: string) => (out += t), isTTY: tty }, 1, 1, tty);
      p.started(row.task, 1);
      p.finished(row);
      p.end();
      expect(out).toContain('answer: expected "Done", got Done — see click here');
      expect(controls(out.replaceAll("\r\x1b[2K", "").replace(/\n/g, ""))).toEqual([]);
    }
  });
});
