/**
 * The packages as an integrator gets them: `npm run build`'s four packages packed with
 * `npm pack`, installed into a fresh project outside the workspace (npm's cache, else its
 * registry; nothing else leaves the machine), and used there: `npx baton run` with the example
 * script, `npx baton eval` with the built-in suite, `npx baton serve` with the console, a TypeScript program on the SDK type-checked with tsc and run with Node, and browser
 * bundles of `@baton/sdk/client`, and of it with `/contract` and the catalog (esbuild, platform
 * browser), whose gzip sizes are printed.
 */
import { execFile, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPackage } from "./build/rollup-build.js";
import { packageSpecs } from "./build/packages.js";

const root = resolve(import.meta.dirname, "..");
const work = mkdtempSync(join(tmpdir(), "baton-packages-"));
const app = join(work, "app");
// The project's Node 24 first, as `npx` in the workspace has it; nothing else of the workspace.
const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}` };

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd, env, timeout: 300_000, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  for (const spec of packageSpecs()) await buildPackage(root, spec);
  const tgz = join(work, "tgz");
  mkdirSync(tgz);
  const packed = await run("npm", ["pack", "./gen/dist", "./sdk/dist", "./runtime-backend/dist", "./runtime-backend/cli/dist", "--pack-destination", tgz], root);
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "baton-consumer", private: true, type: "module" }));
  const tarballs = readdirSync(tgz).map((f) => join(tgz, f));
  // @types/node: the program below is a Node program, as an integrator's would be.
  const installed = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs, "@types/node@24.19.2"], app);
  if (installed.code !== 0) throw new Error(`npm install failed: ${installed.stderr}`);
}, 600_000);
// The install and the runs leave many files; removing them can take a while on a busy machine.
afterAll(() => rmSync(work, { recursive: true, force: true }), 300_000);

describe("the packed packages, installed outside the workspace", () => {
  it("ship dist only: ESM, .d.ts, source maps, exports per entry point, Apache-2.0", () => {
    const sdk = JSON.parse(readFileSync(join(app, "node_modules/@baton/sdk/package.json"), "utf8"));
    expect(sdk.license).toBe("Apache-2.0");
    expect(Object.keys(sdk.exports)).toEqual(expect.arrayContaining([".", "./contract", "./client", "./engine", "./cdp", "./node", "./script"]));
    expect(sdk.exports["./node"]).toEqual({ types: "./node.d.ts", default: "./node.js" });
    expect(sdk.dependencies["playwright-core"]).toBeUndefined();
    const files = readdirSync(join(app, "node_modules/@baton/sdk"));
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "client.js", "client.d.ts", "client.js.map"]));
    expect(files.some((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toBe(false);
    // The command is its own package above the library; the extension is an optional peer of it.
    const backend = JSON.parse(readFileSync(join(app, "node_modules/@baton/backend/package.json"), "utf8"));
    expect(backend.bin).toBeUndefined();
    expect(Object.keys(backend.exports)).toEqual(expect.arrayContaining([".", "./loop", "./store", "./server", "./providers"]));
    expect(readdirSync(join(app, "node_modules/@baton/backend"))).not.toContain("src");
    const cli = JSON.parse(readFileSync(join(app, "node_modules/@baton/cli/package.json"), "utf8"));
    expect(cli.bin).toEqual({ baton: "bin/baton.js" });
    expect(cli.dependencies["@baton/extension"]).toBeUndefined();
    expect(cli.peerDependenciesMeta["@baton/extension"]).toEqual({ optional: true });
  });

  it("npx baton run replays the example script in Chromium", async () => {
    cpSync(join(root, "examples/scripts"), join(app, "scripts"), { recursive: true });
    const r = await run(
      "npx",
      ["baton", "run", "Sign in as ada@example.com", "--serve", "scripts/site", "--start-url", "/login.html", "--script", "scripts/login.json", "--data-dir", join(work, "store")],
      app,
    );
    expect(r.stderr).not.toMatch(/baton run:|Error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("✓ All expectations of the script hold");
  });

  it("npx baton eval runs the built-in suite (its sites compiled to JavaScript) and every task passes", async () => {
    const shipped = join(app, "node_modules/@baton/cli/src/eval/suite");
    expect(readdirSync(join(shipped, "sites/shop"))).toEqual(expect.arrayContaining(["server.js", "app.js"]));
    const r = await run("npx", ["baton", "eval", "--concurrency", "2", "--data-dir", join(work, "eval-store"), "--out", join(work, "eval.jsonl")], app);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const runs = readFileSync(join(work, "eval.jsonl"), "utf8").trim().split("\n").length;
    expect(runs).toBeGreaterThanOrEqual(30);
    expect(r.stdout).toContain(`${runs} task(s), ${runs} run(s): ${runs} passed (100.0%)`);
  }, 300_000);

  it("npx baton serve serves the web console and the API", async () => {
    // Its own process group: npx runs the server as a child of its own, which a signal to npx
    // alone leaves running (one was left behind by every CI run).
    const child = spawn("npx", ["baton", "serve", "--port", "0", "--data-dir", join(work, "serve-store")], { cwd: app, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let url: string | undefined;
    try {
      let out = "";
      url = await new Promise<string>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no "listening" line in 60 s:\n${out}`)), 60_000);
        const read = (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            ok(m[1]!);
          }
        };
        child.stdout.on("data", read);
        child.stderr.on("data", read);
        child.on("exit", (code) => fail(new Error(`baton serve exited (${code}):\n${out}`)));
      });
      const page = await fetch(`${url}/sessions`);
      expect(page.status).toBe(200);
      const html = await page.text();
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script, html).toBeDefined();
      const asset = await fetch(`${url}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("content-type")).toContain("javascript");
      // The API answers beside it: a call without a token is refused, not served as a page.
      const rpc = await fetch(`${url}/baton.v1.AgentService/GetSession`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(rpc.status).toBe(401);
    } finally {
      try {
        if (child.pid) process.kill(-child.pid, "SIGTERM");
      } catch {
        // The group is gone already.
      }
    }
    // The server itself stops, not only npx.
    const served = url;
    if (served) await expect.poll(() => fetch(`${served}/sessions`).then(() => "up", () => "down"), { timeout: 20_000 }).toBe("down");
  });

  it("npx baton eval --via extension says what it needs when the extension's package is not installed", async () => {
    const r = await run("npx", ["baton", "eval", "--via", "extension", "--data-dir", join(work, "eval-ext-store")], app);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("@baton/extension");
  });

  it("npx baton mcp serves the tool catalog over stdio", async () => {
    const transport = new StdioClientTransport({ command: "npx", args: ["baton", "mcp"], cwd: app, env: env as Record<string, string>, stderr: "pipe" });
    const client = new Client({ name: "packages-test", version: "0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["navigate", "take_snapshot", "click"]));
    } finally {
      await client.close();
    }
  });

  it("type-checks and runs a TypeScript program on the SDK", async () => {
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { target: "es2023", module: "nodenext", moduleResolution: "nodenext", strict: true, noEmit: true, skipLibCheck: false, types: ["node"] }, files: ["main.ts"] }),
    );
    writeFileSync(
      join(app, "main.ts"),
      `import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { dispatchToolCall, parseToolCall } from "@baton/sdk/contract";
import { engineHandlers } from "@baton/sdk/engine";
import { launchChromium, openPage, WebSocketTransport } from "@baton/sdk/node";

const server = createServer((_req, res) => res.end("<!doctype html><title>Hi</title><button>Press me</button>"));
await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
const browser = await launchChromium();
const transport = await WebSocketTransport.connect(browser.wsEndpoint);
const engine = await openPage(transport);
const handlers = { ...engineHandlers(engine), askUser: async () => ({ answer: "" }) };
for (const [name, args] of [["navigate", { url: \`http://127.0.0.1:\${(server.address() as AddressInfo).port}/\` }], ["take_snapshot", {}]] as const) {
  const parsed = parseToolCall(toolCatalog, name, args);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const out = await dispatchToolCall(toolCatalog, parsed.call, handlers, undefined);
  if (!out.ok) throw new Error(out.error.message);
  if (out.result.tool.case === "takeSnapshot") console.log(out.result.tool.value.text);
}
await transport.close();
await browser.close();
server.close();
`,
    );
    const tsc = await run(join(root, "node_modules/.bin/tsc"), ["-p", "."], app);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
    const ran = await run(process.execPath, ["main.ts"], app);
    expect(ran.stdout).toContain('button "Press me"');
    expect(ran.code).toBe(0);
  });

  it("bundles @baton/sdk/client and /contract for the browser", async () => {
    // What a web frontend loads (examples/web-frontend): the client and the contract it runs
    // calls with; then the same with the model-facing catalog and the argument parser.
    const snippets = {
      "@baton/sdk/client": `import { createBatonClient, runTask, withoutBrowser } from "@baton/sdk/client";
const client = createBatonClient({ baseUrl: location.origin });
console.log(runTask, client, withoutBrowser(async () => ({ answer: "yes" })));
`,
      "client + /contract + the catalog": `import { createBatonClient, runTask } from "@baton/sdk/client";
import { parseToolCall } from "@baton/sdk/contract";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
const client = createBatonClient({ baseUrl: location.origin });
console.log(runTask, client, parseToolCall(toolCatalog, "click", { ref: "e1" }));
`,
    };
    const sizes: number[] = [];
    for (const [name, contents] of Object.entries(snippets)) {
      writeFileSync(join(app, "web.ts"), contents);
      // platform "browser": a Node built-in anywhere in the graph fails the build.
      const out = await build({ entryPoints: [join(app, "web.ts")], absWorkingDir: app, bundle: true, minify: true, format: "esm", platform: "browser", write: false, logLevel: "silent" });
      const js = out.outputFiles[0]!.contents;
      const gzip = gzipSync(js, { level: 9 }).length;
      sizes.push(gzip);
      console.log(`${name} browser bundle: ${(js.length / 1024).toFixed(1)} KB minified, ${(gzip / 1024).toFixed(1)} KB gzip (target 40 KB for the client)`);
    }
    // The target (issue 22): the client and the contract it runs calls with in 40 KB gzip. It
    // meets it by leaving protobuf's JSON codec (which boots descriptor.proto) out: the default
    // transport speaks binary only (binaryTransport) and client-declared tools bring their JSON
    // reader with them (clientTools); see docs/benchmarks.md, "Browser bundle of the client".
    expect(sizes[0]).toBeLessThanOrEqual(40 * 1024);
    // The client leaves the catalog's descriptions and JSON Schemas out (toolRoutes).
    expect(sizes[1]! - sizes[0]!).toBeGreaterThan(2 * 1024);
    expect(sizes[1]).toBeLessThan(64 * 1024);
  });
});
