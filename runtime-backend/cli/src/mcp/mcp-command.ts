import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { ChromiumNotFoundError, chromiumMissingExitCode, ensureChromium } from "@baton/sdk/node";
import { attachedGuardNotice, isRootFolder, type UrlPolicy } from "@baton/sdk/policy";
import { sameSecret } from "@baton/backend/base";
import { createRedactor, envSecrets } from "@baton/backend/log";
import { hostGuard, isLoopbackListener, bearerToken } from "@baton/backend/server";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { flag, flagsOrExit, hostList, onlyKnownFlags, type Parsed, UsageError } from "../command/args.js";
import { policyFlagNames, policyFromArgs } from "../command/policy-args.js";
import type { Io } from "../command/io.js";
import { failedToStart } from "../command/start-failure.js";
import { uploadDirsOf } from "../run/upload-dirs.js";
import { type McpBrowser, startMcpBrowser } from "./mcp-browser.js";
import { createMcpSession, type McpSession, type McpSessionOptions } from "./mcp-server.js";

/** `baton mcp --help`. */
export const mcpUsage = `baton mcp — Baton's browser tools for any MCP client

  baton mcp [--http PORT [--host 127.0.0.1] [--token TOKEN] [--allowed-hosts LIST]]
            [--headed | --cdp-url URL] [--viewport 1280x800]
            [--policy FILE] [--allowed-origins LIST] [--blocked-origins LIST] [--read-only-origins LIST]
            [--allow-irreversible] [--upload-dir DIR] [--snapshot-diffs]

  (stdio)                   the default: an MCP client starts this command and talks over stdin/stdout
  --http PORT               serve Streamable HTTP on http://HOST:PORT/mcp instead (0 picks a free port)
  --host HOST               the address to listen on with --http (default 127.0.0.1); any other
                            address (0.0.0.0, a LAN address, 127.0.0.2) needs a bearer token
  --token TOKEN             the bearer token every HTTP request must send (also BATON_MCP_TOKEN);
                            generated and printed at start when the host needs one and none is given
  --allowed-hosts LIST      host names to answer besides the listen address and localhost
                            (comma-separated, "name" or "name:port"); others get 403
  --headed                  show the browser window (needs a display)
  --cdp-url URL             drive a running Chromium (ws://… or http://host:9222) instead of launching one
  --viewport WxH            page size (default 1280x800)
  --policy FILE             a site policy (JSON or YAML): "allowed", "blocked" and "read_only" lists
                            of origins and hosts; the three flags below add to it (docs/trust.md)
  --allowed-origins LIST    only these origins or hosts, ";"-separated (https://example.com;*.example.org)
  --blocked-origins LIST    never these (wins over --allowed-origins)
  --read-only-origins LIST  pages there load and can be read, but nothing is clicked, typed or submitted
  --allow-irreversible      run irreversible actions (paying, deleting, sending) without asking;
                            otherwise the user is asked through MCP elicitation, or they are refused
  --upload-dir DIR          a folder upload_file may take files from (repeatable; default: the working
                            directory, unless it is a drive's root: then none, and every upload is refused)
  --snapshot-diffs          a take_snapshot of the page the client read last returns only what changed
                            since (full=true still gives the whole page); off by default, since a
                            client that drops old tool results would hold a diff of a page it lost

One page per client session, opened on its first tool call and closed with the session. Pages are
http(s) only (never file: or chrome:); the lists hold for every tab, frame, redirect, request and
WebSocket of a launched browser, and for what the tools open in one at --cdp-url.
`;

/** `--http`'s listener: where, the bearer token it requires (if any) and the extra host names it answers. */
interface HttpArgs {
  readonly port: number;
  readonly host: string;
  readonly token: string | undefined;
  readonly allowedHosts: string[];
}

interface McpArgs {
  readonly http?: HttpArgs;
  /** Said on stderr at start: why uploads have no folder. */
  readonly uploadNotice?: string;
  readonly session: Omit<McpSessionOptions, "openPage" | "sessionId">;
  readonly browser: { cdpUrl?: string; headed: boolean; viewport: { width: number; height: number }; policy: UrlPolicy; snapshotDiffs: boolean };
}

function parse(p: Parsed, env: NodeJS.ProcessEnv): McpArgs {
  const known = new Set(["http", "host", "token", "allowed-hosts", "headed", "cdp-url", "viewport", ...policyFlagNames, "allow-irreversible", "upload-dir", "snapshot-diffs", "help"]);
  onlyKnownFlags(p, known);
  if (p.positional.length > 0) throw new UsageError(`unexpected argument ${p.positional[0]}`);
  const httpFlag = flag(p, "http");
  if (p.flags.has("http") && httpFlag === undefined) throw new UsageError("--http needs a port");
  const port = httpFlag === undefined ? undefined : Number(httpFlag);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) throw new UsageError(`--http ${httpFlag} is not a port`);
  for (const k of ["host", "token", "allowed-hosts"]) {
    if (p.flags.has(k) && port === undefined) throw new UsageError(`--${k} goes with --http PORT`);
    if (p.flags.get(k) === true) throw new UsageError(`--${k} needs a value`);
  }
  const token = flag(p, "token", env.BATON_MCP_TOKEN || undefined);
  if (typeof token === "string" && bearerToken(`Bearer ${token}`) === undefined) {
    throw new UsageError("--token (BATON_MCP_TOKEN) must be 8 to 512 visible ASCII characters, without spaces");
  }
  const vp = /^(\d+)x(\d+)$/.exec(flag(p, "viewport", "1280x800") as string);
  if (!vp) throw new UsageError("--viewport needs WxH, such as 1280x800");
  const cdpUrl = flag(p, "cdp-url");
  if (p.flags.has("cdp-url") && !cdpUrl) throw new UsageError("--cdp-url needs a ws:// or http:// URL");
  if (cdpUrl && p.flags.has("headed")) throw new UsageError("--headed and --cdp-url do not go together: an attached browser shows itself");
  const policy = policyFromArgs(p);
  const uploads = mcpUploadDirs(p);
  return {
    ...(uploads.notice ? { uploadNotice: uploads.notice } : {}),
    ...(port !== undefined
      ? {
          http: {
            port,
            host: flag(p, "host", "127.0.0.1") as string,
            token: typeof token === "string" ? token : undefined,
            allowedHosts: hostList("--allowed-hosts", flag(p, "allowed-hosts")),
          },
        }
      : {}),
    session: { allowIrreversible: p.flags.has("allow-irreversible"), uploadDirs: uploads.dirs, redact: createRedactor(envSecrets(env)) },
    browser: { ...(cdpUrl ? { cdpUrl } : {}), headed: p.flags.has("headed"), viewport: { width: Number(vp[1]), height: Number(vp[2]) }, policy, snapshotDiffs: p.flags.has("snapshot-diffs") },
  };
}

/**
 * The upload folders: those named with `--upload-dir` (checked as `baton run` checks them), else
 * the working directory — an MCP client often starts its servers in `/`, and a drive's root
 * would let every file on it go up, so then there is none, and a notice says why.
 */
function mcpUploadDirs(p: Parsed): { dirs: string[]; notice?: string } {
  const named = uploadDirsOf(p);
  if (named.length > 0) return { dirs: named };
  const cwd = resolve(".");
  if (!isRootFolder(cwd)) return { dirs: [cwd] };
  return { dirs: [], notice: `no upload folder: the working directory ${cwd} is a drive's root, where every file would upload without asking, so upload_file refuses every file. Name a folder with --upload-dir.` };
}

/** Resolves when the process is asked to stop (SIGINT, SIGTERM) or `also` fires. */
function untilStopped(also?: (stop: () => void) => void): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    also?.(stop);
  });
}

async function serveStdio(browser: McpBrowser, args: McpArgs, io: Io): Promise<void> {
  const session = createMcpSession({ ...args.session, openPage: () => browser.openPage() });
  const transport = new StdioServerTransport();
  await session.server.connect(transport);
  io.stderr(`Baton MCP server on stdio · ${browser.where}\n`);
  await untilStopped((stop) => {
    session.server.onclose = stop;
    process.stdin.once("end", stop);
    process.stdin.once("close", stop);
  });
  await session.close();
}

function jsonRpcError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/**
 * Whether a request may reach the MCP endpoint, checked in order: its `Host` and `Origin` name
 * this server (`allowed-hosts.ts`, the same rule as `baton serve`; the MCP specification's
 * Streamable HTTP transport requires the Origin check against DNS rebinding, answered 403), then
 * its bearer token when one is required. Returns the refusal written, or false to go on.
 */
function refused(req: IncomingMessage, res: ServerResponse, hosts: ReturnType<typeof hostGuard>, token: string | undefined): boolean {
  const badRequester = hosts.refuseHost(req.headers.host) ?? hosts.refuseOrigin(req.headers.origin);
  if (badRequester) {
    jsonRpcError(res, 403, `Forbidden: ${badRequester}`);
    return true;
  }
  if (token === undefined) return false;
  const sent = bearerToken(req.headers.authorization);
  if (sent !== undefined && sameSecret(sent, token)) return false;
  res.setHeader("www-authenticate", 'Bearer realm="baton-mcp"');
  jsonRpcError(res, 401, sent === undefined ? "Unauthorized: send 'Authorization: Bearer <token>' (the token baton mcp printed, or its --token)" : "Unauthorized: wrong bearer token");
  return true;
}

async function serveHttp(browser: McpBrowser, args: McpArgs & { http: HttpArgs }, io: Io): Promise<void> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; session: McpSession }>();
  const closeSession = async (id: string) => {
    const s = sessions.get(id);
    sessions.delete(id);
    await s?.session.close();
  };
  // Off the loopback address anyone who can reach the port could drive the browser: a token is a must.
  const loopback = isLoopbackListener(args.http.host);
  const token = args.http.token ?? (loopback ? undefined : `bm_${randomBytes(24).toString("base64url")}`);
  let hosts: ReturnType<typeof hostGuard> | undefined;
  const server = createServer((req, res) => {
    void (async () => {
      if (!hosts || refused(req, res, hosts, token)) return;
      if (new URL(req.url ?? "/", "http://localhost").pathname !== "/mcp") return jsonRpcError(res, 404, "Not found: the MCP endpoint is /mcp");
      const id = req.headers["mcp-session-id"];
      if (typeof id === "string") {
        const s = sessions.get(id);
        if (!s) return jsonRpcError(res, 404, "Session not found: initialize a new session");
        return s.transport.handleRequest(req, res);
      }
      const session = createMcpSession({ ...args.session, openPage: () => browser.openPage(), sessionId: () => transport.sessionId });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, { transport, session }),
        onsessionclosed: (sid) => closeSession(sid),
      });
      transport.onclose = () => void (transport.sessionId ? closeSession(transport.sessionId) : session.close());
      await session.server.connect(transport);
      await transport.handleRequest(req, res);
      // Anything but an initialize request (answered 400 by the transport) leaves no session.
      if (!transport.sessionId) await session.close();
    })().catch((e) => {
      if (!res.headersSent) jsonRpcError(res, 500, e instanceof Error ? e.message : String(e));
    });
  });
  await new Promise<void>((ready, fail) => server.once("error", fail).listen(args.http.port, args.http.host, ready));
  const { port } = server.address() as AddressInfo;
  hosts = hostGuard({ listenHost: args.http.host, port, allowed: args.http.allowedHosts });
  const host = args.http.host.includes(":") ? `[${args.http.host}]` : args.http.host;
  // One write, so that whoever reads the endpoint line has the warning and token with it.
  io.stderr(
    [
      `Baton MCP server on http://${host}:${port}/mcp · ${browser.where}\n`,
      loopback ? "" : `baton mcp: warning: listening on ${host}, not loopback: anyone who can reach this port and has the bearer token can drive the browser\n`,
      token && !args.http.token ? `Bearer token (send 'Authorization: Bearer …'): ${token}\n` : "",
    ].join(""),
  );
  await untilStopped();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await Promise.all([...sessions.keys()].map(closeSession));
}

/**
 * `baton mcp`: serves the engine's client-side tools to an MCP client, over stdio (default) or
 * Streamable HTTP (`--http PORT`), from a Chromium it launches or one at `--cdp-url`.
 * Resolves to the exit code: 0 after a clean stop, 2 bad usage, 3 no browser.
 */
export async function mcpCommand(p: Parsed, io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const start = flagsOrExit(p, io, "mcp", mcpUsage, () => parse(p, env));
  if ("exit" in start) return start.exit;
  const args = start.flags;
  let browser: McpBrowser;
  try {
    const executablePath = args.browser.cdpUrl ? undefined : ensureChromium({ log: (l) => io.stderr(`baton mcp: ${l}\n`) }).path;
    browser = await startMcpBrowser({ ...args.browser, ...(executablePath ? { executablePath } : {}) });
    if (args.browser.cdpUrl) io.stderr(`baton mcp: ${attachedGuardNotice(`the browser at ${args.browser.cdpUrl}`, false)}\n`);
    if (args.uploadNotice) io.stderr(`baton mcp: ${args.uploadNotice}\n`);
  } catch (e) {
    if (e instanceof ChromiumNotFoundError) {
      io.stderr(`baton mcp: ${e.message}\n`);
      return chromiumMissingExitCode;
    }
    io.stderr(`baton mcp: could not open a browser: ${e instanceof Error ? e.message : String(e)}\n`);
    return chromiumMissingExitCode;
  }
  try {
    if (args.http) await serveHttp(browser, { ...args, http: args.http }, io);
    else await serveStdio(browser, args, io);
    return 0;
  } catch (e) {
    return failedToStart("mcp", e, {}, io);
  } finally {
    await browser.close();
  }
}
