import type { BackendToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import type { Queryable } from "../store/db.js";
import { saveMemory, searchMemory } from "../store/memory.js";

/** What a backend-side tool runs with. */
export interface BackendToolContext {
  readonly db: Queryable;
  readonly userId: string;
  readonly sessionId: string;
}

/**
 * Handlers of the tools the backend runs inline. Typed from the catalog, so a backend tool
 * added to tools.proto without a handler here fails to compile.
 */
export const backendTools: BackendToolHandlers<BackendToolContext> = {
  // Completion itself is applied by the loop; the handler only confirms it.
  done: async () => ({ completed: true }),
  searchUserMemory: async (p, ctx) => ({
    records: await searchMemory(ctx.db, ctx.userId, p.query, p.limit ?? 5),
  }),
  saveMemory: async (p, ctx) => ({
    id: await saveMemory(ctx.db, ctx.userId, p.text, p.tags, ctx.sessionId),
  }),
};
