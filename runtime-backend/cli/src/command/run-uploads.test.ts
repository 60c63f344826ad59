/**
 * `baton run` takes upload_file's files from the --upload-dir folders only; any other file is
 * asked about at the terminal, showing its full path (symlinks followed), and refused without a
 * terminal. In process, real Chromium, its own backend; a script "model" uploads, and the
 * script's expectations read the page's file input itself.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exitCodes, type RunDeps, runCommand } from "../run/run-command.js";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "baton-run-uploads-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const site = join(dir, "site");
const uploads = join(dir, "uploads");
const secret = join(dir, "id_rsa");
mkdirSync(site);
mkdirSync(uploads);
writeFileSync(join(site, "index.html"), `<!doctype html><title>Upload</title><h1>Send a file</h1><p><input type="file" aria-label="Attachment"></p>`);
writeFileSync(join(uploads, "plan.txt"), "the plan");
writeFileSync(secret, "PRIVATE KEY");
symlinkSync(secret, join(uploads, "innocent.txt"));

/** A script that uploads `path` and expects the input to hold `holds` (or nothing). */
function script(name: string, path: string, holds: string | undefined): string {
  const file = join(dir, `${name}.json`);
  const files = "document.querySelector('input[type=file]').files";
  writeFileSync(
    file,
    JSON.stringify({
      turns: [
        { text: "<goal>Send the file</goal>", calls: [{ name: "take_snapshot" }] },
        { calls: [{ name: "upload_file", args: { ref: { role: "button", name: "Attachment" }, paths: [path] } }] },
        { calls: [{ name: "done", args: { answer: "Sent." } }] },
      ],
      expect: { js: [holds ? `${files}.length === 1 && ${files}[0].name === ${JSON.stringify(holds)}` : `${files}.length === 0`] },
    }),
  );
  return file;
}

function deps(answer?: string): RunDeps & { output(): string; errors(): string; asked: string[] } {
  let out = "";
  let err = "";
  const asked: string[] = [];
  return {
    out: { write: (t: string) => (out += t) },
    err: { write: (t: string) => (err += t) },
    env: {},
    ask: async (q) => (asked.push(q), answer),
    onInterrupt: () => () => undefined,
    output: () => out,
    errors: () => err,
    asked,
  };
}

const run = (file: string, d: RunDeps, extra: string[] = []) =>
  runCommand(["Send the file", "--serve", site, "--script", file, "--data-dir", join(dir, "data"), "--json", ...extra], d);

/** The upload's tool_end event. */
function uploadEnd(d: { output(): string }): { error?: string } | undefined {
  return d.output().trim().split("\n").map((l) => JSON.parse(l) as { type: string; tool?: string; error?: string }).find((e) => e.type === "tool_end" && e.tool === "upload_file");
}

describe("baton run uploads", { timeout: 240_000 }, () => {
  it("takes a file inside --upload-dir without asking, and refuses a symlink in it that leads out when there is no terminal", async () => {
    const inside = deps();
    expect(await run(script("inside", "plan.txt", "plan.txt"), inside, ["--upload-dir", uploads]), inside.errors()).toBe(exitCodes.done);
    expect(inside.asked).toEqual([]);
    expect(uploadEnd(inside)?.error).toBeUndefined();

    const escape = deps();
    expect(await run(script("escape", "innocent.txt", undefined), escape, ["--upload-dir", uploads]), escape.errors()).toBe(exitCodes.done);
    expect(escape.asked).toHaveLength(1);
    expect(uploadEnd(escape)?.error).toBe(
      `Refused: ${JSON.stringify(secret)} is outside the upload folder ${uploads}, and baton run has no terminal to ask on. Ask the user to put the file in an upload folder, or to run baton run again with --upload-dir naming its folder.`,
    );
  });

  it("asks at the terminal about a file outside, showing its full path: no keeps it out, yes uploads it", async () => {
    // No folder named: every upload asks.
    const none = deps("n");
    expect(await run(script("none", secret, undefined), none), none.errors()).toBe(exitCodes.done);
    expect(none.asked.join("")).toContain(`uploading a file not in an upload folder (none is named):\n    ${secret}\n`);
    for (const path of [`${uploads}/../id_rsa`, secret]) {
      const no = deps("n");
      expect(await run(script("no", path, undefined), no, ["--upload-dir", uploads]), no.errors()).toBe(exitCodes.done);
      expect(no.asked.join("")).toContain(`⚠ Needs your approval: uploading a file outside the upload folder ${uploads}:\n    ${secret}\n  Allow it? [y/N] `);
      expect(uploadEnd(no)?.error).toMatch(/^The user declined this upload at the terminal\. ".*id_rsa" was not uploaded/);
    }
    const yes = deps("y");
    expect(await run(script("yes", secret, "id_rsa"), yes), yes.errors()).toBe(exitCodes.done);
    expect(yes.asked.join("")).toContain(`uploading a file not in an upload folder (none is named):\n    ${secret}\n`);
    expect(uploadEnd(yes)?.error).toBeUndefined();
  });

  it("refuses --upload-dir that is not a folder before anything runs", async () => {
    const d = deps();
    expect(await run(script("bad", "plan.txt", undefined), d, ["--upload-dir", join(dir, "nope")])).toBe(exitCodes.usage);
    expect(d.errors()).toContain(`--upload-dir ${join(dir, "nope")} is not a folder`);
  });

  it("refuses --upload-dir of a drive's root, as the panel does: every file would upload unasked", async () => {
    const d = deps();
    expect(await run(script("root", "plan.txt", undefined), d, ["--upload-dir", "/"])).toBe(exitCodes.usage);
    expect(d.errors()).toContain("--upload-dir /: / is a root folder: every file under it would upload without asking. Name a folder inside it.");
  });
});
