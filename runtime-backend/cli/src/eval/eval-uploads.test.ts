/**
 * `baton eval` uploads only from a suite's `files/` folder and the `--upload-dir` folders, and
 * asks no one about any other file: it refuses it. A small suite (a page with a file input,
 * scripts that upload) runs via headless: a file in files/ is uploaded; a `..` escape, a symlink
 * in files/ that leads out and an absolute path elsewhere are refused (the page's input stays
 * empty, checked in the page); a file in a folder named with --upload-dir is uploaded.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type EvalDeps, evalCommand, evalExitCodes } from "./eval-command.js";
import { readReport } from "./report.js";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "baton-eval-uploads-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const suite = join(dir, "suite");
const privateDir = join(dir, "private");
const extra = join(dir, "extra");
for (const d of [join(suite, "sites", "up"), join(suite, "files"), join(suite, "scripts"), privateDir, extra]) mkdirSync(d, { recursive: true });
writeFileSync(join(suite, "sites", "up", "index.html"), `<!doctype html><title>Upload</title><h1>Attach a file</h1><input type="file" aria-label="Attachment">`);
writeFileSync(join(suite, "files", "plan.txt"), "the plan");
writeFileSync(join(privateDir, "id_rsa"), "PRIVATE KEY");
writeFileSync(join(extra, "report.txt"), "the report");
symlinkSync(join(privateDir, "id_rsa"), join(suite, "files", "innocent.txt"));

const files = "document.querySelector('input[type=file]').files";
const tasks: { name: string; paths: string[][]; js: string }[] = [
  { name: "up/inside", paths: [["plan.txt"]], js: `${files}[0]?.name === 'plan.txt'` },
  { name: "up/escape", paths: [["../../private/id_rsa"], ["innocent.txt"], [join(privateDir, "id_rsa")]], js: `${files}.length === 0` },
  { name: "up/extra", paths: [[join(extra, "report.txt")]], js: `${files}[0]?.name === 'report.txt'` },
];
const lines = tasks.map((t) => {
  const script = `scripts/${t.name.split("/")[1]}.json`;
  writeFileSync(
    join(suite, script),
    JSON.stringify({
      turns: [
        { text: `<goal>${t.name}</goal>`, calls: [{ name: "take_snapshot" }] },
        ...t.paths.map((paths) => ({ calls: [{ name: "upload_file", args: { ref: { role: "button", name: "Attachment" }, paths } }] })),
        { calls: [{ name: "done", args: { answer: "Done." } }] },
      ],
    }),
  );
  return JSON.stringify({ name: t.name, site: "up", goal: `Attach the file (${t.name})`, script, js: t.js, max_steps: 6 });
});
writeFileSync(join(suite, "uploads.jsonl"), `${lines.join("\n")}\n`);

function deps(): EvalDeps & { output(): string } {
  let out = "";
  return { out: { write: (t: string) => (out += t) }, err: { write: (t: string) => (out += t) }, env: {}, onInterrupt: () => () => undefined, output: () => out };
}

describe("baton eval uploads", { timeout: 300_000 }, () => {
  it("takes files from the suite's files/ and refuses any other file without asking", async () => {
    const out = join(dir, "report.jsonl");
    const d = deps();
    const code = await evalCommand([suite, "--filter", "up/inside,up/escape", "--data-dir", join(dir, "store"), "--out", out], d);
    const rows = readReport(out);
    expect(rows.map((r) => [r.task, r.verdict, r.reason ?? ""])).toEqual([
      ["up/inside", "pass", ""],
      ["up/escape", "pass", ""],
    ]);
    expect(code, d.output()).toBe(evalExitCodes.ok);
    const escape = rows.find((r) => r.task === "up/escape");
    expect(escape?.errors).toHaveLength(3);
    for (const e of escape?.errors ?? []) {
      expect(e).toContain(`upload_file: Refused: ${JSON.stringify(join(privateDir, "id_rsa"))} is outside the upload folder ${join(suite, "files")}, and baton eval asks no one`);
    }
  });

  it("takes files from a folder named with --upload-dir too", async () => {
    const out = join(dir, "extra.jsonl");
    const d = deps();
    expect(await evalCommand([suite, "--filter", "up/extra", "--upload-dir", extra, "--data-dir", join(dir, "store"), "--out", out], d), d.output()).toBe(evalExitCodes.ok);
    expect(readReport(out).map((r) => [r.task, r.verdict])).toEqual([["up/extra", "pass"]]);
  });
});
