import type { Queryable } from "./db.js";
import { hashToken, newToken } from "./ids.js";

/** Creates a user if it does not exist yet. */
export async function ensureUser(q: Queryable, id: string, name = id): Promise<void> {
  await q.query("insert into users (id, name) values ($1, $2) on conflict (id) do nothing", [id, name]);
}

/** Issues a new API token for a user and returns it; only its hash is kept. */
export async function createToken(q: Queryable, userId: string, label = ""): Promise<string> {
  const token = newToken();
  await q.query("insert into api_tokens (token_hash, user_id, label) values ($1, $2, $3)", [await hashToken(token), userId, label]);
  return token;
}

/** Registers a token chosen elsewhere (an env var, a test) for a user. Idempotent. */
export async function registerToken(q: Queryable, userId: string, token: string, label = ""): Promise<void> {
  await q.query(
    "insert into api_tokens (token_hash, user_id, label) values ($1, $2, $3) on conflict (token_hash) do nothing",
    [await hashToken(token), userId, label],
  );
}

/** The user a token belongs to, or undefined. */
export async function userForToken(q: Queryable, token: string): Promise<string | undefined> {
  const rows = await q.query<{ user_id: string }>("select user_id from api_tokens where token_hash = $1", [await hashToken(token)]);
  return rows[0]?.user_id;
}

/** How many tokens a user has. */
export async function tokenCount(q: Queryable, userId: string): Promise<number> {
  const rows = await q.query<{ n: number }>("select count(*)::int as n from api_tokens where user_id = $1", [userId]);
  return Number(rows[0]?.n ?? 0);
}
