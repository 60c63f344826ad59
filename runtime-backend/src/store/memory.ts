import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type MemoryRecord } from "@baton/gen/baton/v1/tools_pb";
import { MemoryRecordSchema } from "@baton/gen/baton/v1/descriptors";
import type { Queryable, Row } from "./db.js";
import { newId } from "./ids.js";

/**
 * Where a memory record comes from. The agent saves in a session, on the page it was on then
 * (`key`, the toolcall that saves it, makes a retried save a no-op); the user writes their own
 * (`byUser`), and those are pinned from the start.
 */
export interface MemorySource {
  readonly sessionId?: string;
  /** The page's origin and path when the agent saved it. */
  readonly pageUrl?: string;
  readonly key?: string;
  readonly byUser?: boolean;
}

/**
 * Saves one memory record for a user. With a `key` the id is derived from the session and the
 * key, so a save repeated after a crash (the call ran, its result was not committed) stores
 * nothing twice.
 */
export async function saveMemory(q: Queryable, userId: string, text: string, tags: readonly string[], from: MemorySource = {}): Promise<string> {
  const { sessionId = "", pageUrl = "", key = "", byUser = false } = from;
  const id = key ? `mem_${sessionId.replace(/^ses_/, "")}_${key}` : newId("mem");
  await q.query(
    "insert into memories (id, user_id, text, tags, session_id, page_url, by_user, pinned) values ($1, $2, $3, $4, $5, $6, $7, $7) on conflict (id) do nothing",
    [id, userId, text, JSON.stringify(tags), byUser ? "" : sessionId, byUser ? "" : pageUrl, byUser],
  );
  return id;
}

/** Words of a query as safe tsquery lexemes (letters and digits only). */
function queryTerms(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32);
}

const columns = "id, text, tags, created_at, session_id, page_url, by_user, pinned";

/**
 * Full-text search over one user's memories, best first. Terms are OR-ed (any word may match;
 * more matching words rank higher) and tags count as text, so recall beats precision here:
 * the model reads the few records and decides.
 */
export async function searchMemory(q: Queryable, userId: string, query: string, limit: number): Promise<MemoryRecord[]> {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const tsquery = terms.join(" | ");
  const rows = await q.query(
    `select ${columns},
            ts_rank(tsv || to_tsvector('english', tags::text), to_tsquery('english', $2)) as score
       from memories
      where user_id = $1 and (tsv || to_tsvector('english', tags::text)) @@ to_tsquery('english', $2)
      order by score desc, created_at desc
      limit $3`,
    [userId, tsquery, limit],
  );
  return rows.map(recordOf);
}

function recordOf(r: Row): MemoryRecord {
  return create(MemoryRecordSchema, {
    id: String(r.id),
    text: String(r.text),
    tags: (r.tags as string[]) ?? [],
    createdAt: timestampFromDate(r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at))),
    score: Number(r.score ?? 0),
    sessionId: String(r.session_id ?? ""),
    pageUrl: String(r.page_url ?? ""),
    byUser: r.by_user === true,
    pinned: r.pinned === true,
  });
}

/** A user's newest memory records. */
export async function recentMemories(q: Queryable, userId: string, limit: number): Promise<MemoryRecord[]> {
  const rows = await q.query(`select ${columns} from memories where user_id = $1 order by created_at desc, id limit $2`, [userId, limit]);
  return rows.map(recordOf);
}

/** One memory record, or undefined when there is none. */
export async function readMemory(q: Queryable, id: string): Promise<MemoryRecord | undefined> {
  const rows = await q.query(`select ${columns} from memories where id = $1`, [id]);
  return rows[0] ? recordOf(rows[0]) : undefined;
}

/** The owner of a memory record, or undefined when there is none. */
export async function memoryOwner(q: Queryable, id: string): Promise<string | undefined> {
  const rows = await q.query<{ user_id: string }>("select user_id from memories where id = $1", [id]);
  return rows[0]?.user_id;
}

/** Pins a memory record as its user's own (the model reads it unfenced), or unpins it. */
export async function pinMemory(q: Queryable, id: string, pinned: boolean): Promise<void> {
  await q.query("update memories set pinned = $2 where id = $1", [id, pinned]);
}

/** Deletes a memory record. */
export async function deleteMemory(q: Queryable, id: string): Promise<void> {
  await q.query("delete from memories where id = $1", [id]);
}
