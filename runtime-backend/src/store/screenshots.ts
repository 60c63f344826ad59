import type { Queryable } from "./db.js";
import { fromHex } from "./literal.js";

/** A screenshot a tool call returned, as stored. */
export interface StoredScreenshot {
  readonly id: string;
  readonly toolcallId: string;
  readonly mimeType: string;
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

function bytes(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v === "string" && v.startsWith("\\x")) return fromHex(v);
  return new Uint8Array();
}

function fromRow(r: Record<string, unknown>): StoredScreenshot {
  return {
    id: String(r.id),
    toolcallId: String(r.toolcall_id),
    mimeType: String(r.mime_type),
    width: Number(r.width),
    height: Number(r.height),
    data: bytes(r.data),
  };
}

/**
 * Stores screenshots; one already stored under its id (a retried input) is left as it is.
 * Returns the ids this call stored, the only ones it may take back.
 */
export async function insertScreenshots(q: Queryable, sessionId: string, shots: readonly StoredScreenshot[]): Promise<string[]> {
  const stored: string[] = [];
  for (const s of shots) {
    const rows = await q.query(
      `insert into screenshots (session_id, id, toolcall_id, mime_type, width, height, data)
       values ($1, $2, $3, $4, $5, $6, $7) on conflict (session_id, id) do nothing returning id`,
      [sessionId, s.id, s.toolcallId, s.mimeType, s.width, s.height, s.data],
    );
    if (rows.length > 0) stored.push(s.id);
  }
  return stored;
}

/** Removes screenshots stored for an input the loop then refused. */
export async function deleteScreenshots(q: Queryable, sessionId: string, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await q.query("delete from screenshots where session_id = $1 and id = any($2::text[])", [sessionId, ids]);
}

/** The screenshots with these ids (those that exist), in no particular order. */
export async function readScreenshots(q: Queryable, sessionId: string, ids: readonly string[]): Promise<StoredScreenshot[]> {
  if (ids.length === 0) return [];
  const rows = await q.query("select * from screenshots where session_id = $1 and id = any($2::text[])", [sessionId, ids]);
  return rows.map(fromRow);
}

/** One screenshot and the step of the call that returned it, or undefined. */
export async function readScreenshot(q: Queryable, sessionId: string, id: string): Promise<(StoredScreenshot & { step: number }) | undefined> {
  const rows = await q.query(
    `select s.*, coalesce(c.step, 0) as step from screenshots s
       left join calls c on c.session_id = s.session_id and c.toolcall_id = s.toolcall_id
      where s.session_id = $1 and s.id = $2`,
    [sessionId, id],
  );
  const r = rows[0];
  return r ? { ...fromRow(r), step: Number(r.step) } : undefined;
}
