import type { Queryable } from "./db.js";
import { hashToken, newId, newToken } from "./ids.js";

/** Creates a user if it does not exist yet. */
export async function ensureUser(q: Queryable, id: string, name = id): Promise<void> {
  await q.query("insert into users (id, name) values ($1, $2) on conflict (id) do nothing", [id, name]);
}

/** What a new token records besides its user: a name, where it came from, the device it is bound to. */
export interface TokenFacts {
  readonly name?: string;
  /** "cli", "generated", "env", "console", "device-link", "baton run" … */
  readonly source?: string;
  /** The device a device link bound it to ("Chrome on ada-laptop · baton-extension"). */
  readonly device?: string;
}

/** Issues a new API token for a user and returns it with its id; only its hash is kept. */
export async function issueToken(q: Queryable, userId: string, facts: TokenFacts = {}): Promise<{ token: string; id: string }> {
  const token = newToken();
  const id = newId("tok");
  await q.query("insert into api_tokens (token_hash, id, user_id, label, source, device) values ($1, $2, $3, $4, $5, $6)", [
    await hashToken(token),
    id,
    userId,
    facts.name ?? facts.source ?? "",
    facts.source ?? "",
    facts.device ?? "",
  ]);
  return { token, id };
}

/** Issues a new API token for a user and returns it; only its hash is kept. */
export async function createToken(q: Queryable, userId: string, label = ""): Promise<string> {
  return (await issueToken(q, userId, { name: label, source: label })).token;
}

/** Registers a token chosen elsewhere (an env var, a test) for a user. Idempotent. */
export async function registerToken(q: Queryable, userId: string, token: string, label = ""): Promise<void> {
  await q.query(
    "insert into api_tokens (token_hash, id, user_id, label, source) values ($1, $2, $3, $4, $4) on conflict (token_hash) do nothing",
    [await hashToken(token), newId("tok"), userId, label],
  );
}

/** Whom a token acts for, and which token record it is. */
export interface TokenOwner {
  readonly userId: string;
  readonly tokenId: string;
}

/**
 * The user a working (unrevoked) token belongs to, or undefined; notes when it was used. The
 * bearer cache calls it once a minute per token at most, so that note is to the minute.
 */
export async function resolveToken(q: Queryable, token: string): Promise<TokenOwner | undefined> {
  const rows = await q.query<{ user_id: string; id: string }>(
    "update api_tokens set last_used_at = now() where token_hash = $1 and revoked_at is null returning user_id, id",
    [await hashToken(token)],
  );
  const r = rows[0];
  return r ? { userId: r.user_id, tokenId: r.id } : undefined;
}

/** The user a working token belongs to, or undefined. */
export async function userForToken(q: Queryable, token: string): Promise<string | undefined> {
  return (await resolveToken(q, token))?.userId;
}
