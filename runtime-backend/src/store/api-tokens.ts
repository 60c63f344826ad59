import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type ApiToken } from "@baton/gen/baton/v1/console_pb";
import { ApiTokenSchema } from "@baton/gen/baton/v1/descriptors";
import type { Queryable, Row } from "./db.js";

function date(v: unknown): Date | undefined {
  if (v === null || v === undefined) return undefined;
  return v instanceof Date ? v : new Date(String(v));
}

function fromRow(r: Row): ApiToken {
  const used = date(r.last_used_at);
  const revoked = date(r.revoked_at);
  return create(ApiTokenSchema, {
    id: String(r.id),
    name: String(r.label),
    device: String(r.device),
    source: String(r.source),
    createdAt: timestampFromDate(date(r.created_at) ?? new Date(0)),
    ...(used ? { lastUsedAt: timestampFromDate(used) } : {}),
    ...(revoked ? { revokedAt: timestampFromDate(revoked) } : {}),
  });
}

const columns = "id, label, device, source, created_at, last_used_at, revoked_at";

/** A user's tokens, newest first, revoked ones included (never their hashes). */
export async function listTokens(q: Queryable, userId: string): Promise<ApiToken[]> {
  const rows = await q.query(`select ${columns} from api_tokens where user_id = $1 order by created_at desc, id`, [userId]);
  return rows.map(fromRow);
}

/** One token's record with its owner, or undefined. */
export async function tokenRecord(q: Queryable, tokenId: string): Promise<{ userId: string; token: ApiToken } | undefined> {
  const rows = await q.query(`select user_id, ${columns} from api_tokens where id = $1`, [tokenId]);
  const r = rows[0];
  return r ? { userId: String(r.user_id), token: fromRow(r) } : undefined;
}

/** Renames a token; returns its record. */
export async function renameToken(q: Queryable, tokenId: string, name: string): Promise<ApiToken | undefined> {
  const rows = await q.query(`update api_tokens set label = $2 where id = $1 returning ${columns}`, [tokenId, name]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/**
 * Revokes a token (kept, marked, for the record) and tells every replica listening on
 * Postgres (`tokenRevokedChannel`), so no cache keeps it alive; a token revoked before keeps
 * its first revocation time.
 */
export async function revokeToken(q: Queryable, tokenId: string): Promise<ApiToken | undefined> {
  const rows = await q.query(`update api_tokens set revoked_at = coalesce(revoked_at, now()) where id = $1 returning ${columns}`, [tokenId]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/** The Postgres notification channel a revoked token's id is sent on (see `Db.listen`). */
export const tokenRevokedChannel = "baton_token_revoked";
