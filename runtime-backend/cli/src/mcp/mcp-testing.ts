import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";

/** The `baton` command of this repository. */
export const batonBin = resolve(import.meta.dirname, "../../bin/baton.js");

/** The app-like pages of the MCP tests and benchmark. */
export const mcpSiteDir = join(import.meta.dirname, "fixtures", "site");

/** An MCP client connected to a `baton mcp` it started over stdio. */
export async function stdioClient(args: readonly string[] = [], capabilities: ClientCapabilities = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [batonBin, "mcp", ...args],
    env: process.env as Record<string, string>,
    stderr: "pipe",
  });
  const client = new Client({ name: "baton-test", version: "1.0.0" }, { capabilities });
  await client.connect(transport);
  return client;
}

/** A `baton mcp --http 0` process and its endpoint. */
export interface HttpServerProcess {
  readonly url: string;
  readonly process: ChildProcess;
  /** What it wrote to stderr so far (the endpoint, warnings, a generated token). */
  output(): string;
  /** A client of the endpoint (`url` unless given), sending `headers` with every request. */
  connect(capabilities?: ClientCapabilities, o?: { url?: string; headers?: Record<string, string> }): Promise<Client>;
  stop(): Promise<void>;
}

/** Starts `baton mcp --http 0 …` (in `cwd`, default this process's) and waits for the line naming its endpoint. */
export async function httpServer(args: readonly string[] = [], env: Record<string, string> = {}, cwd?: string): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [batonBin, "mcp", "--http", "0", ...args], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env }, ...(cwd ? { cwd } : {}) });
  let err = "";
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`baton mcp --http printed no endpoint: ${err}`)), 60_000);
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /on (http:\/\/\S+\/mcp)/.exec(err);
      if (m?.[1]) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`baton mcp exited (${code}): ${err}`));
    });
  });
  // The listener above keeps collecting what it writes.
  return {
    url,
    process: child,
    output: () => err,
    async connect(capabilities = {}, o = {}) {
      const client = new Client({ name: "baton-test", version: "1.0.0" }, { capabilities });
      await client.connect(new StreamableHTTPClientTransport(new URL(o.url ?? url), o.headers ? { requestInit: { headers: o.headers } } : {}));
      return client;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The text of a tool result, its blocks joined by newlines. */
export function textOf(result: CallToolResult): string {
  return result.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
}

/** The ref of the first snapshot line that matches `line` (such as /button "Save"/). */
export function refOf(snapshot: string, line: RegExp): string {
  const found = snapshot.split("\n").find((l) => line.test(l));
  const ref = found && /(e\d+)/.exec(found)?.[1];
  if (!ref) throw new Error(`no ref for ${line} in:\n${snapshot}`);
  return ref;
}
