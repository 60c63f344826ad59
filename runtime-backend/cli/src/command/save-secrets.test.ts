/**
 * A password never leaves a run in a saved script, a playbook or a replay's output: `baton run`
 * (in process, real Chromium, its own backend on a temp store) replays the example sign-in
 * script, whose "model" types the password as it is, and saves it as a script and a playbook;
 * both hold `<secret>password</secret>`, never the value (the playbook is read from the store).
 * A `--heal` replay of the original script prints the typing as bullets, as a model-driven run
 * does, and the saved playbook replays with the value given by `--secret`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startBackend } from "@baton/backend/server";
import { exitCodes, type RunDeps, runCommand } from "../run/run-command.js";

const dir = mkdtempSync(join(tmpdir(), "baton-save-secrets-"));
const dataDir = join(dir, "data");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PW = "correct horse";

function deps(): RunDeps & { output(): string; errors(): string } {
  let out = "";
  let err = "";
  return {
    out: { write: (t: string) => (out += t) },
    err: { write: (t: string) => (err += t) },
    env: {},
    ask: async () => undefined,
    onInterrupt: () => () => undefined,
    output: () => out,
    errors: () => err,
  };
}

const login = ["Sign in as ada@example.com", "--serve", "examples/scripts/site", "--start-url", "/login.html", "--data-dir", dataDir];

describe("secrets in saved scripts, playbooks and replays", { timeout: 240_000 }, () => {
  const saved = join(dir, "login-saved.json");

  it("a run that types a password is saved with the secret's name, never its value", async () => {
    const d = deps();
    const code = await runCommand([...login, "--script", "examples/scripts/login.json", "--save-script", saved, "--save-playbook", "login-typed"], d);
    expect(d.errors()).toBe("");
    expect(code).toBe(exitCodes.done);
    expect(d.output()).toContain("saved as <secret>password</secret>, not as itself: replay with --secret password=@FILE");
    const file = readFileSync(saved, "utf8");
    expect(file).toContain('"text": "<secret>password</secret>"');
    expect(file).not.toContain(PW);
    // The e-mail address typed into a plain field stays as it was.
    expect(file).toContain('"text": "ada@example.com"');
    expect(d.output()).not.toContain(PW);

    const backend = await startBackend({ port: 0, dataDir, resolveModel: () => { throw new Error("no model in this test"); } });
    try {
      const rows = await backend.db.query<Record<string, unknown>>("select * from playbooks where name = 'login-typed'");
      expect(rows).toHaveLength(1);
      const stored = JSON.stringify(rows[0]);
      expect(stored).toContain("<secret>password</secret>");
      expect(stored).not.toContain(PW);
    } finally {
      await backend.close();
    }
  });

  it("a --heal replay prints a typed password as bullets, in plain and JSON output", async () => {
    for (const json of [false, true]) {
      const d = deps();
      const code = await runCommand([...login, "--script", "examples/scripts/login.json", "--heal", ...(json ? ["--json"] : [])], d);
      expect(d.errors()).toBe("");
      expect(code).toBe(exitCodes.done);
      expect(d.output()).toContain(json ? 'type_text(ref=textbox \\"Password\\", text=••••••••)' : 'type_text(ref=textbox "Password", text=••••••••)');
      expect(d.output()).toContain(json ? 'text=\\"ada@example.com\\"' : 'text="ada@example.com"');
      expect(d.output()).not.toContain(PW);
    }
  });

  it("the saved playbook replays with the value given by --secret, and prints only its name", async () => {
    const pw = join(dir, "pw.txt");
    writeFileSync(pw, `${PW}\n`);
    const d = deps();
    const code = await runCommand([...login, "--script", "playbook:login-typed", "--heal", "--secret", `password=@${pw}`], d);
    expect(d.errors()).toBe("");
    expect(code).toBe(exitCodes.done);
    expect(d.output()).toContain("✓ Replayed with no model calls");
    expect(d.output()).toContain('text="<secret>password</secret>"');
    expect(d.output()).not.toContain(PW);
  });
});
