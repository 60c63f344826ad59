import { Code, ConnectError } from "@connectrpc/connect";
import type { ApiToken } from "@baton/gen/baton/v1/console_pb";
import { renameToken, revokeToken, tokenRecord, tokenRevokedChannel } from "../store/api-tokens.js";
import { issueToken } from "../store/users.js";
import type { ConsoleDeps } from "./deps.js";

/** A token of the user's, or NotFound / PermissionDenied. */
async function ownedToken(deps: ConsoleDeps, userId: string, tokenId: string): Promise<ApiToken> {
  const r = await tokenRecord(deps.db, tokenId);
  if (!r) throw new ConnectError(`token ${tokenId.slice(0, 64)} not found`, Code.NotFound);
  if (r.userId !== userId) throw new ConnectError(`token ${tokenId} belongs to another user`, Code.PermissionDenied);
  return r.token;
}

/**
 * Makes a revocation effective on the next request: this process's bearer cache forgets the
 * token, and on Postgres every replica listening hears of it (`Db.listen`).
 */
export async function revoked(deps: ConsoleDeps, tokenId: string): Promise<void> {
  deps.forgetToken(tokenId);
  if (deps.db.kind === "postgres") await deps.db.query("select pg_notify($1, $2)", [tokenRevokedChannel, tokenId]);
}

/** A new token for scripts; its secret is returned once. */
export async function createApiToken(deps: ConsoleDeps, userId: string, name: string): Promise<{ token: string; info: ApiToken }> {
  const issued = await issueToken(deps.db, userId, { name: name.trim() || "API token", source: "console" });
  return { token: issued.token, info: await ownedToken(deps, userId, issued.id) };
}

/** Renames one of the user's tokens. */
export async function renameApiToken(deps: ConsoleDeps, userId: string, tokenId: string, name: string): Promise<ApiToken> {
  await ownedToken(deps, userId, tokenId);
  if (!name.trim()) throw new ConnectError("name is required", Code.InvalidArgument);
  return (await renameToken(deps.db, tokenId, name.trim())) as ApiToken;
}

/** Revokes one of the user's tokens: the next request with it is refused. */
export async function revokeApiToken(deps: ConsoleDeps, userId: string, tokenId: string): Promise<ApiToken> {
  await ownedToken(deps, userId, tokenId);
  const t = (await revokeToken(deps.db, tokenId)) as ApiToken;
  await revoked(deps, tokenId);
  return t;
}
