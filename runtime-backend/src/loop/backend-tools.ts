import type { BackendToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { isPageTool } from "../context/page-data.js";
import { outputPageUrl, pageLocation } from "../context/result-summary.js";
import type { SessionStore } from "../store/session-store.js";

/** What a backend-side tool runs with. */
export interface BackendToolContext {
  readonly store: SessionStore;
  readonly userId: string;
  readonly sessionId: string;
  /** The call being run: what a tool writes is keyed by it, so a rerun after a crash writes nothing twice. */
  readonly toolcallId: string;
}

/** How far back a memory save looks for the page the agent was on (results of browser tools). */
const pageLookback = 20;

/**
 * The page (origin and path) the session's browser was on: the newest browser-tool result that
 * names one. A memory record saved now keeps it as its provenance.
 */
async function currentPage(ctx: BackendToolContext): Promise<string> {
  for (const r of await ctx.store.recentClientResults(ctx.sessionId, pageLookback)) {
    const url = isPageTool(r.name) ? outputPageUrl(r.output) : "";
    if (url) return pageLocation(url);
  }
  return "";
}

/**
 * Handlers of the tools the backend runs inline. Typed from the catalog, so a backend tool
 * added to tools.proto without a handler here fails to compile.
 */
export const backendTools: BackendToolHandlers<BackendToolContext> = {
  // Completion itself is applied by the loop; the handler only confirms it.
  done: async () => ({ completed: true }),
  searchUserMemory: async (p, ctx) => ({
    records: await ctx.store.searchMemory(ctx.userId, p.query, p.limit ?? 5),
  }),
  // Saved with its provenance: the session and the page the agent was on, so the record comes
  // back fenced as page data (and the console shows where it came from) until the user pins it.
  saveMemory: async (p, ctx) => ({
    id: await ctx.store.saveMemory(ctx.userId, p.text, p.tags, { sessionId: ctx.sessionId, pageUrl: await currentPage(ctx), key: ctx.toolcallId }),
  }),
};
