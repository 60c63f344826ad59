import { randomUUID } from "node:crypto";
import { toolCatalog, mcpTools } from "@baton/gen/baton/v1/tools_baton";
import type { ToolCall } from "@baton/gen/baton/v1/tools_pb";
import type { ToolError } from "@baton/gen/baton/v1/agent_pb";
import { ToolErrorSchema } from "@baton/gen/baton/v1/descriptors";
import { isMessage } from "@bufbuild/protobuf";
import { callRisk, dispatchToolCall, parseToolCall, ToolErrorCode, toolError } from "@baton/sdk/contract";
import { type Engine, type EngineHandlers, engineHandlers } from "@baton/sdk/engine";
import { guardUploads, type UploadFile } from "@baton/sdk/policy";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { describeCall, type RefLookup } from "@baton/sdk/client";
import { type Redact, redactText, recordSpan, spanAttr, sessionTraceId } from "@baton/backend/log";
import { batonVersion } from "@baton/backend";
import { nodeUploadRule, refuseOutside } from "../run/upload-dirs.js";
import { errorResult, resultContent } from "./mcp-content.js";

/** The page one MCP session acts on. */
export interface McpPage {
  readonly engine: Engine;
  close(): Promise<void>;
}

/** Options of one MCP session. */
export interface McpSessionOptions {
  /** Opens the session's page, on its first tool call. */
  openPage(): Promise<McpPage>;
  /** Run irreversible calls without asking (`--allow-irreversible`). */
  readonly allowIrreversible: boolean;
  /** The folders uploads may come from (`--upload-dir`, repeatable; see `mcpUploadDirs`); none: every upload is refused. */
  readonly uploadDirs: readonly string[];
  /** The MCP session id once the transport has one (Streamable HTTP): its trace is derived from it. */
  readonly sessionId?: () => string | undefined;
  /** Masks the operator's secrets in span attributes, as in the logs (default: credential-shaped text). */
  readonly redact?: Redact;
}

/** One MCP client's session: the protocol server and what closes its page. */
export interface McpSession {
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * The tools served: every client-side tool of the catalog except `ask_user` — an MCP client's
 * model talks to its user itself. Names, titles, descriptions, schemas and annotations are the
 * generated `mcpTools`.
 */
export const servedTools: readonly Tool[] = mcpTools.filter((t) => toolCatalog.tools[t.name].side === "client" && t.name !== "ask_user") as unknown as Tool[];
const served = new Set(servedTools.map((t) => t.name));

const instructions =
  "Baton drives a Chromium page. Call take_snapshot to read the page: one line per visible element, with a ref such as e12 " +
  "for each element you can act on; pass refs to click, type_text, select_option and the other actions. An action returns " +
  "evidence (URL, title, focus, refs added and removed), not a new snapshot: take one when you need to read the page again.";

/**
 * The engine's handlers for one session, uploads behind the upload rule: files from the
 * upload folders only (relative paths resolve in the first), anything else refused with the
 * folders named — the MCP client's user is not here to approve a path.
 */
function sessionHandlers(engine: Engine, uploadDirs: readonly string[]): EngineHandlers {
  const handlers = engineHandlers(engine);
  const rule = nodeUploadRule(uploadDirs, uploadDirs[0] ?? process.cwd());
  const outside = async (files: readonly UploadFile[]) =>
    refuseOutside(files, uploadDirs, "and baton mcp has no one to ask. Use a file in an upload folder, or ask the user to put the file in one or to restart baton mcp with --upload-dir naming its folder.");
  return { ...handlers, uploadFile: guardUploads(handlers.uploadFile, { rule, outside }) };
}

function refLookup(engine: Engine): RefLookup {
  return (ref) => {
    const el = engine.lastSnapshot?.elements.find((e) => e.ref === ref) ?? engine.refs.get(ref);
    return el ? { role: el.role, name: el.name } : undefined;
  };
}

/**
 * Creates the MCP server of one client session. Its page opens on the first tool call and
 * closes with the session. A call is parsed against the catalog's schema (a bad argument is
 * an `isError` result naming the field) and, when irreversible (`callRisk`), refused unless
 * allowed or confirmed by the user through MCP elicitation; then dispatched to the engine,
 * which holds every URL to the server's URL policy (see `startMcpBrowser`).
 */
export function createMcpSession(o: McpSessionOptions): McpSession {
  const server = new Server({ name: "baton", title: "Baton", version: batonVersion }, { capabilities: { tools: {} }, instructions });
  // The page and its handler map, made once: the handlers keep the session's tabs.
  let page: Promise<McpPage & { handlers: EngineHandlers }> | undefined;
  let closed = false;

  // Each client session is one trace: keyed by its MCP session id (HTTP), or by an id of its own (stdio).
  const ownKey = `mcp_${randomUUID()}`;

  const refuse = (message: string, tool: string): ToolError => toolError(ToolErrorCode.PERMISSION_DENIED, message, { tool });

  async function confirmIrreversible(call: ToolCall, engine: Engine, tool: string): Promise<ToolError | undefined> {
    if (o.allowIrreversible) return undefined;
    const what = describeCall(call, refLookup(engine));
    if (server.getClientCapabilities()?.elicitation) {
      try {
        const answer = await server.elicitInput({
          mode: "form",
          message: `Baton is about to do something that cannot be undone: ${what}. Allow it?`,
          requestedSchema: { type: "object", properties: {} },
        });
        if (answer.action === "accept") return undefined;
        return toolError(ToolErrorCode.DENIED, `The user did not allow this irreversible action (${what}). Do not retry it; ask the user what to do.`, { tool });
      } catch {
        // The client could not ask: refuse as below.
      }
    }
    return refuse(
      `Refused: this action cannot be undone (${what}), and this server asks before such actions but the client cannot ask the user. ` +
        "Tell the user; they can restart baton mcp with --allow-irreversible, or use a client that supports MCP elicitation.",
      tool,
    );
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...servedTools] }));

  /** Runs one call: its result, or the ToolError that goes back to the client's model. */
  async function callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult | ToolError> {
    if (!served.has(name)) {
      return toolError(ToolErrorCode.UNKNOWN_TOOL, `There is no tool "${name}". Use one of: ${[...served].join(", ")}.`, { tool: name });
    }
    const parsed = parseToolCall(toolCatalog, name, args);
    if (!parsed.ok) return parsed.error;
    if (closed) return refuse("This session is closed.", name);
    page ??= o.openPage().then((p) => ({ ...p, close: () => p.close(), handlers: sessionHandlers(p.engine, o.uploadDirs) }));
    let opened: Awaited<typeof page>;
    try {
      opened = await page;
    } catch (e) {
      page = undefined; // the next call tries again
      const why = e instanceof Error ? e.message : String(e);
      return toolError(ToolErrorCode.TARGET_GONE, `Could not open a browser page: ${why}. Try again; if it persists, restart baton mcp.`, { tool: name });
    }
    const { engine, handlers } = opened;
    if (callRisk(parsed.tool, parsed.call.tool.value as never) === "irreversible") {
      const refused = await confirmIrreversible(parsed.call, engine, name);
      if (refused) return refused;
    }
    const out = await dispatchToolCall(toolCatalog, parsed.call, handlers, undefined);
    if (!out.ok) return out.error;
    const value = out.result.tool.value;
    return { content: value ? resultContent(parsed.tool.result, value) : [] };
  }

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const name = request.params.name;
    const start = Date.now();
    const out = await callTool(name, request.params.arguments ?? {});
    const failed = isMessage(out, ToolErrorSchema) ? out : undefined;
    const key = o.sessionId?.() ?? ownKey;
    recordSpan({
      traceId: sessionTraceId(key),
      name: `execute_tool ${served.has(name) ? name : "unknown"}`,
      start,
      attributes: { [spanAttr.operation]: "execute_tool", [spanAttr.toolName]: served.has(name) ? name : "unknown", [spanAttr.toolType]: "function", [spanAttr.toolSide]: "client", "mcp.session.id": key, "mcp.method.name": "tools/call" },
      redact: o.redact ?? redactText,
      ...(failed ? { outcome: failed.code === ToolErrorCode.DENIED ? "denied" : "error", errorType: ToolErrorCode[failed.code] ?? "_OTHER" } : { outcome: "ok" }),
    });
    return failed ? errorResult(failed) : (out as CallToolResult);
  });

  return {
    server,
    async close() {
      if (closed) return;
      closed = true;
      await server.close().catch(() => undefined);
      await (await page?.catch(() => undefined))?.close();
    },
  };
}
