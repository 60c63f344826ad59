import type { BackendToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import type { SessionStore } from "../store/session-store.js";

/** What a backend-side tool runs with. */
export interface BackendToolContext {
  readonly store: SessionStore;
  readonly userId: string;
  readonly sessionId: string;
  /** The call being run: what a tool writes is keyed by it, so a rerun after a crash writes nothing twice. */
  readonly toolcallId: string;
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
  saveMemory: async (p, ctx) => ({
    id: await ctx.store.saveMemory(ctx.userId, p.text, p.tags, ctx.sessionId, ctx.toolcallId),
  }),
};
