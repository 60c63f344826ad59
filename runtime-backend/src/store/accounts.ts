import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Account } from "@baton/gen/baton/v1/console_pb";
import { AccountSchema } from "@baton/gen/baton/v1/descriptors";
import type { Db, Queryable, Row } from "./db.js";
import { hashToken, newSecret } from "./ids.js";

function fromRow(r: Row): Account {
  return create(AccountSchema, {
    userId: String(r.id),
    name: String(r.name),
    admin: Boolean(r.admin),
    createdAt: timestampFromDate(r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at))),
  });
}

/** One account, or undefined. */
export async function getAccount(q: Queryable, userId: string): Promise<Account | undefined> {
  const rows = await q.query("select id, name, admin, created_at from users where id = $1", [userId]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/** Every account, by id. */
export async function listAccounts(q: Queryable): Promise<Account[]> {
  return (await q.query("select id, name, admin, created_at from users order by id")).map(fromRow);
}

/** Creates an account; false when the id is taken. */
export async function createAccount(q: Queryable, userId: string, name: string, admin: boolean): Promise<boolean> {
  const rows = await q.query("insert into users (id, name, admin) values ($1, $2, $3) on conflict (id) do nothing returning id", [userId, name, admin]);
  return rows.length === 1;
}

/** Makes an account an admin (the operator's own `local` user is one). */
export async function makeAdmin(q: Queryable, userId: string): Promise<void> {
  await q.query("update users set admin = true where id = $1", [userId]);
}

/** A new one-time sign-in code for a user, valid for `ttlMs`; only its hash is stored. */
export async function createSignInCode(q: Queryable, userId: string, ttlMs: number): Promise<{ code: string; expiresAt: Date }> {
  const code = newSecret("si");
  const expiresAt = new Date(Date.now() + ttlMs);
  await q.query("insert into sign_in_links (code_hash, user_id, expires_at) values ($1, $2, $3)", [await hashToken(code), userId, expiresAt]);
  return { code, expiresAt };
}

/**
 * A new one-time sign-in link for the operator's account that `baton serve` prints at start,
 * valid for `ttlMs`. Retires, in the same transaction, every start link not yet used: the
 * previous start's link sits in logs and scrollback, and a restart means it is no longer wanted.
 */
export async function createStartSignInCode(db: Db, userId: string, ttlMs: number): Promise<{ code: string; expiresAt: Date }> {
  return db.transaction(async (tx) => {
    await tx.query("update sign_in_links set expires_at = now() where purpose = 'start' and used_at is null and expires_at > now()");
    const code = newSecret("si");
    const expiresAt = new Date(Date.now() + ttlMs);
    await tx.query("insert into sign_in_links (code_hash, user_id, expires_at, purpose) values ($1, $2, $3, 'start')", [await hashToken(code), userId, expiresAt]);
    return { code, expiresAt };
  });
}

/**
 * The user a sign-in code would sign in and when it lapses, without using it; undefined when it
 * is used, expired or unknown.
 */
export async function signInCodeUser(q: Queryable, code: string): Promise<{ userId: string; expiresAt: Date } | undefined> {
  const rows = await q.query<{ user_id: string; expires_at: Date | string }>(
    "select user_id, expires_at from sign_in_links where code_hash = $1 and used_at is null and expires_at > now()",
    [await hashToken(code)],
  );
  const r = rows[0];
  return r ? { userId: r.user_id, expiresAt: r.expires_at instanceof Date ? r.expires_at : new Date(String(r.expires_at)) } : undefined;
}

/**
 * Uses a sign-in code: the user it signs in, once. A used, expired or unknown code gives
 * undefined (the statement marks it used in the same step, so two tabs cannot both use it).
 */
export async function consumeSignInCode(q: Queryable, code: string): Promise<string | undefined> {
  const rows = await q.query<{ user_id: string }>(
    "update sign_in_links set used_at = now() where code_hash = $1 and used_at is null and expires_at > now() returning user_id",
    [await hashToken(code)],
  );
  return rows[0]?.user_id;
}

/** Starts a console session for a user; returns the cookie's secret (only its hash is stored). */
export async function createConsoleSession(q: Queryable, userId: string, ttlMs: number): Promise<{ secret: string; expiresAt: Date }> {
  const secret = newSecret("cs");
  const expiresAt = new Date(Date.now() + ttlMs);
  await q.query("insert into console_sessions (id_hash, user_id, expires_at) values ($1, $2, $3)", [await hashToken(secret), userId, expiresAt]);
  return { secret, expiresAt };
}

/**
 * The user of a live console session, or undefined. A session seen again more than an hour
 * after it was last noted has its expiry pushed out by `ttlMs` (sliding, to the hour).
 */
export async function consoleSessionUser(q: Queryable, secret: string, ttlMs: number): Promise<string | undefined> {
  const rows = await q.query<{ user_id: string; last_seen_at: Date }>(
    "select user_id, last_seen_at from console_sessions where id_hash = $1 and expires_at > now()",
    [await hashToken(secret)],
  );
  const r = rows[0];
  if (!r) return undefined;
  const seen = r.last_seen_at instanceof Date ? r.last_seen_at : new Date(String(r.last_seen_at));
  if (Date.now() - seen.getTime() > 3_600_000) {
    await q.query("update console_sessions set last_seen_at = now(), expires_at = $2 where id_hash = $1", [await hashToken(secret), new Date(Date.now() + ttlMs)]);
  }
  return r.user_id;
}

/** Ends a console session. */
export async function endConsoleSession(q: Queryable, secret: string): Promise<void> {
  await q.query("delete from console_sessions where id_hash = $1", [await hashToken(secret)]);
}
