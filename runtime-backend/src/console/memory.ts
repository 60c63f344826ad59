import { Code, ConnectError } from "@connectrpc/connect";
import type { MemoryRecord } from "@baton/gen/baton/v1/tools_pb";
import { deleteMemory, memoryOwner, pinMemory, readMemory, recentMemories, saveMemory, searchMemory } from "../store/memory.js";
import type { ConsoleDeps } from "./deps.js";

/** The user's memory records matching a query (as the agent's search ranks them), or the newest. */
export function listMemories(deps: ConsoleDeps, userId: string, query: string, limit: number): Promise<MemoryRecord[]> {
  return query.trim() ? searchMemory(deps.db, userId, query, limit) : recentMemories(deps.db, userId, limit);
}

/** Refuses a record that does not exist or is another user's. */
async function ownRecord(deps: ConsoleDeps, userId: string, id: string): Promise<void> {
  const owner = await memoryOwner(deps.db, id);
  if (!owner) throw new ConnectError(`memory ${id.slice(0, 64)} not found`, Code.NotFound);
  if (owner !== userId) throw new ConnectError(`memory ${id} belongs to another user`, Code.PermissionDenied);
}

/** Deletes one of the user's memory records. */
export async function removeMemory(deps: ConsoleDeps, userId: string, id: string): Promise<void> {
  await ownRecord(deps, userId, id);
  await deleteMemory(deps.db, id);
}

/**
 * Pins one of the user's records as their own, or unpins it; returns it as it now stands. A
 * pinned record reaches the model outside the untrusted-data fence.
 */
export async function setMemoryPinned(deps: ConsoleDeps, userId: string, id: string, pinned: boolean): Promise<MemoryRecord> {
  await ownRecord(deps, userId, id);
  await pinMemory(deps.db, id, pinned);
  const record = await readMemory(deps.db, id);
  if (!record) throw new ConnectError(`memory ${id} was deleted meanwhile`, Code.NotFound);
  return record;
}

/** Writes a record in the user's own words: pinned from the start, the user as its source. */
export async function writeMemory(deps: ConsoleDeps, userId: string, text: string, tags: readonly string[]): Promise<MemoryRecord> {
  const fact = text.trim();
  if (!fact) throw new ConnectError("text is empty: write the fact to remember", Code.InvalidArgument);
  const id = await saveMemory(deps.db, userId, fact, tags.map((t) => t.trim()).filter(Boolean), { byUser: true });
  const record = await readMemory(deps.db, id);
  if (!record) throw new ConnectError(`memory ${id} was deleted meanwhile`, Code.NotFound);
  return record;
}
