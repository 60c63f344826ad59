import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { type Account, type UserSummary } from "@baton/gen/baton/v1/console_pb";
import { QuotaSchema, UserSummarySchema } from "@baton/gen/baton/v1/descriptors";
import { createAccount, createSignInCode, getAccount, listAccounts } from "../store/accounts.js";
import type { Queryable } from "../store/db.js";
import { type ConsoleDeps, signInUrl } from "./deps.js";

/** User ids as `baton user create` and CreateUser accept them. */
export const userIdPattern = /^[\w.@-]{1,64}$/;

/** The signed-in account; Unauthenticated if it no longer exists. */
export async function accountOf(q: Queryable, userId: string): Promise<Account> {
  const a = await getAccount(q, userId);
  if (!a) throw new ConnectError(`account ${userId} no longer exists`, Code.Unauthenticated);
  return a;
}

/** Throws PermissionDenied unless the user is an admin. */
export async function requireAdmin(q: Queryable, userId: string): Promise<void> {
  if (!(await accountOf(q, userId)).admin) throw new ConnectError("only an admin may do this", Code.PermissionDenied);
}

/** Every user, with today's usage and quota. */
export async function listUsers(deps: ConsoleDeps, adminId: string): Promise<UserSummary[]> {
  await requireAdmin(deps.db, adminId);
  const accounts = await listAccounts(deps.db);
  return Promise.all(
    accounts.map(async (account) => {
      const today = await deps.quotas.today(account.userId);
      return create(UserSummarySchema, { account, quota: create(QuotaSchema, deps.quotas.quotaOf(account.userId)), stepsToday: today.steps, costTodayUsd: today.cost });
    }),
  );
}

/** Creates a user and a one-time sign-in link for them. */
export async function createUser(deps: ConsoleDeps, adminId: string, base: string, o: { userId: string; name: string; admin: boolean }): Promise<{ account: Account; url: string }> {
  await requireAdmin(deps.db, adminId);
  if (!userIdPattern.test(o.userId)) throw new ConnectError("user_id must be 1-64 letters, digits, '.', '_', '-' or '@'", Code.InvalidArgument);
  if (!(await createAccount(deps.db, o.userId, o.name.trim() || o.userId, o.admin))) {
    throw new ConnectError(`user ${o.userId} already exists`, Code.AlreadyExists);
  }
  const { code } = await createSignInCode(deps.db, o.userId, deps.signInLinkMs);
  return { account: await accountOf(deps.db, o.userId), url: signInUrl(base, code) };
}

/** A new one-time sign-in link for a user. */
export async function newSignInLink(deps: ConsoleDeps, adminId: string, base: string, userId: string): Promise<{ url: string; expiresAt: ReturnType<typeof timestampFromDate> }> {
  await requireAdmin(deps.db, adminId);
  if (!(await getAccount(deps.db, userId))) throw new ConnectError(`user ${userId} not found`, Code.NotFound);
  const { code, expiresAt } = await createSignInCode(deps.db, userId, deps.signInLinkMs);
  return { url: signInUrl(base, code), expiresAt: timestampFromDate(expiresAt) };
}
