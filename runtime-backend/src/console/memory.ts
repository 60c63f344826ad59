import { Code, ConnectError } from "@connectrpc/connect";
import type { MemoryRecord } from "@baton/gen/baton/v1/tools_pb";
import { deleteMemory, memoryOwner, recentMemories, searchMemory } from "../store/memory.js";
import type { ConsoleDeps } from "./deps.js";

/** The user's memory records matching a query (as the agent's search ranks them), or the newest. */
export function listMemories(deps: ConsoleDeps, userId: string, query: string, limit: number): Promise<MemoryRecord[]> {
  return query.trim() ? searchMemory(deps.db, userId, query, limit) : recentMemories(deps.db, userId, limit);
}

/** Deletes one of the user's memory records. */
export async function removeMemory(deps: ConsoleDeps, userId: string, id: string): Promise<void> {
  const owner = await memoryOwner(deps.db, id);
  if (!owner) throw new ConnectError(`memory ${id.slice(0, 64)} not found`, Code.NotFound);
  if (owner !== userId) throw new ConnectError(`memory ${id} belongs to another user`, Code.PermissionDenied);
  await deleteMemory(deps.db, id);
}
