/**
 * Every command block of README.md and docs/run.md works where it says it does. Each ```sh
 * block carries a marker on the line above it:
 *
 *   <!-- check: clone -->                      run it at the root of a clone (exit 0)
 *   <!-- check: clone, exit 1 -->              …and it must exit with this code
 *   <!-- check: clone, background URL -->      start it, wait until URL answers, leave it running
 *   <!-- check: packages -->                   run it beside the packed tarballs, outside any clone
 *   <!-- check: mcp clone|packages -->         a ```json MCP client configuration: start its
 *                                              command as an MCP client would and list the tools
 *   <!-- check: skip, why -->                  not run here (a real API key, the tests themselves)
 *
 * A ```sh block without a marker fails the test, so nothing is left unchecked by accident.
 * "A clone" is {@link cleanClone}'s copy of the repository (its dependencies linked as `npm ci`
 * left them) in a fresh folder; the blocks run there in order, with the machine's own `node`, `npm` and
 * `npx` on the PATH (none of the workspace's), so `npx baton` resolves as it would for a person.
 * The tarballs land beside that copy, where the README's packing block puts them. The fixed
 * ports the README names (8787, 8000, 8931) are mapped to free ones, since other tests share
 * this machine. `/path/to/baton` and `/path/to/my-app` in a configuration are the clone and
 * the app folder.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanClone, repoRoot as root } from "@baton/backend/testing/clean-clone";

const docs = ["README.md", "docs/run.md"];

/** A fenced block and the marker above it. */
interface Block {
  readonly doc: string;
  readonly line: number;
  readonly lang: string;
  readonly body: string;
  /** The marker's words after "check:", or undefined when there is none. */
  readonly check: string | undefined;
}

/** Every fenced block of a Markdown file, with the `<!-- check: … -->` right above it. */
function blocksOf(doc: string): Block[] {
  const lines = readFileSync(join(root, doc), "utf8").split("\n");
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i] ?? "");
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] ?? ""); i++) body.push(lines[i] ?? "");
    let above = start - 1;
    while (above >= 0 && (lines[above] ?? "").trim() === "") above--;
    const marker = /^<!-- check: (.*?) -->$/.exec((lines[above] ?? "").trim());
    out.push({ doc, line: start + 1, lang: open[1] ?? "", body: body.join("\n"), check: marker?.[1] });
  }
  return out;
}

const blocks = docs.flatMap(blocksOf);
const where = (b: Block) => `${b.doc}:${b.line}`;

const work = mkdtempSync(join(tmpdir(), "baton-doc-commands-"));
let clone = "";
const app = join(work, "my-app");
const ports = new Map<number, number>();
const background: ChildProcess[] = [];

/** A free port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

/** The block's text with the README's fixed ports mapped to this run's and its placeholders filled in. */
function localize(text: string): string {
  let t = text.replaceAll("/path/to/baton", clone).replaceAll("/path/to/my-app", app);
  for (const [fixed, free] of ports) t = t.replace(new RegExp(`\\b${fixed}\\b`, "g"), String(free));
  return t;
}

/**
 * A person's environment: the machine's PATH without the workspace's node_modules/.bin (which
 * the test runner put first), no model keys, and fresh caches and config for Baton.
 */
function personEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/_API_KEY$|^BATON_(?!CHROMIUM$)|^OPENAI_|^GEMINI_|^GOOGLE_|^OLLAMA_|^DATABASE_URL$|^npm_|^VITEST|^NODE_OPTIONS$/.test(k)) continue;
    env[k] = v;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((p) => !p.includes(`node_modules${"/"}.bin`) && !p.startsWith(dirname(process.execPath)))
    .join(delimiter);
  env.XDG_CACHE_HOME = join(work, "cache");
  env.XDG_CONFIG_HOME = join(work, "config");
  env.PORT = String(ports.get(8787));
  // Installs use npm's cache first (nothing else leaves the machine unless it must).
  env.npm_config_prefer_offline = "true";
  env.npm_config_audit = "false";
  env.npm_config_fund = "false";
  return env;
}

function run(script: string, cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    const child = spawn("bash", ["-e", "-c", script], { cwd, env: personEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", (code) => done({ code: code ?? -1, out }));
  });
}

/** Starts a long-running block and resolves once `url` answers at all. */
async function start(script: string, cwd: string, url: string): Promise<void> {
  const child = spawn("bash", ["-c", script], { cwd, env: personEnv(), stdio: ["ignore", "pipe", "pipe"], detached: true });
  background.push(child);
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const end = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${out}`);
    const up = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(() => true, () => false);
    if (up) return;
    if (Date.now() > end) throw new Error(`${url} did not answer in 180 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Starts an MCP client configuration's server as a client would (from an unrelated folder) and lists its tools. */
async function mcpTools(json: string): Promise<string[]> {
  const config = JSON.parse(localize(json)) as { mcpServers: Record<string, { command: string; args?: string[] }> };
  const server = Object.values(config.mcpServers)[0];
  if (!server) throw new Error("no server in the configuration");
  const elsewhere = join(work, "elsewhere");
  mkdirSync(elsewhere, { recursive: true });
  const transport = new StdioClientTransport({ command: server.command, args: server.args ?? [], cwd: elsewhere, env: personEnv() as Record<string, string>, stderr: "pipe" });
  const client = new Client({ name: "doc-commands-test", version: "1" });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  for (const fixed of [8787, 8000, 8931]) ports.set(fixed, await freePort());
  clone = cleanClone(work).dir;
});

afterAll(() => {
  for (const c of background) {
    try {
      if (c.pid) process.kill(-c.pid, "SIGTERM");
    } catch {
      // Gone already.
    }
  }
  rmSync(work, { recursive: true, force: true, maxRetries: 3 });
});

describe("the commands of README.md and docs/run.md", () => {
  it("are each marked: run where, or not run and why", () => {
    const shell = blocks.filter((b) => /^(sh|bash|shell|console)$/.test(b.lang));
    expect(shell.length).toBeGreaterThan(5);
    expect(shell.filter((b) => !b.check).map(where)).toEqual([]);
    const known = /^(clone(, exit \d+|, background https?:\/\/\S+)?|packages|skip, .+|mcp (clone|packages))$/;
    expect(blocks.filter((b) => b.check && !known.test(b.check)).map((b) => `${where(b)}: ${b.check}`)).toEqual([]);
    // `npx baton` resolves to an unrelated registry package outside a clone or an app that
    // installed Baton: an MCP client starts its command from anywhere.
    for (const b of blocks.filter((x) => x.check?.startsWith("mcp"))) expect(b.body, where(b)).not.toMatch(/"npx"/);
  });

  it("and no file of the repository points at documents outside it", () => {
    // git grep exits 1 when it finds nothing: that is the pass.
    const r = spawnSync("git", ["grep", "-n", "-I", "-E", "\\.\\./shared/|seeds?/0[0-9]{2}|seed 0[0-9]{2}", "--", ".", ":!package-lock.json", ":!runtime-backend/cli/src/command/doc-commands.test.ts"], { cwd: root, encoding: "utf8" });
    expect(r.stdout.trim()).toBe("");
    expect(r.status).toBe(1);
  });

  // In document order, except that a configuration for the installed packages waits until the
  // packages block (further down the README) has installed them.
  const runnable = blocks.filter((x) => x.check && !x.check.startsWith("skip"));
  const afterInstall = runnable.filter((x) => x.check === "mcp packages");
  for (const b of [...runnable.filter((x) => !afterInstall.includes(x)), ...afterInstall]) {
    it(`${where(b)} (${b.check}) works`, { timeout: 600_000 }, async () => {
      const check = b.check as string;
      if (check.startsWith("mcp")) {
        const tools = await mcpTools(b.body);
        expect(tools).toEqual(expect.arrayContaining(["navigate", "take_snapshot", "click"]));
        return;
      }
      const cwd = check === "packages" ? work : clone;
      const bg = /^clone, background (\S+)$/.exec(check);
      if (bg?.[1]) {
        await start(localize(b.body), cwd, localize(bg[1]));
        return;
      }
      const r = await run(localize(b.body), cwd);
      const want = Number(/exit (\d+)/.exec(check)?.[1] ?? 0);
      expect(r.code, `${where(b)} exited ${r.code}:\n${r.out.slice(-4000)}`).toBe(want);
    });
  }
});
