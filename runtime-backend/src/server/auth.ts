import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { Queryable } from "../store/db.js";
import { userForToken } from "../store/users.js";

/** Resolves the calling user of a request. */
export type Authenticator = (ctx: HandlerContext) => Promise<string>;

/**
 * Bearer-token authentication against the store's API tokens. Resolved tokens are cached
 * briefly so a busy session does not cost a lookup per step.
 */
export function bearerAuth(db: Queryable, cacheMs = 60_000): Authenticator {
  const cache = new Map<string, { userId: string; until: number }>();
  return async (ctx) => {
    const header = ctx.requestHeader.get("authorization") ?? "";
    const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (!m?.[1]) throw new ConnectError("missing bearer token: send 'Authorization: Bearer <api token>'", Code.Unauthenticated);
    const token = m[1];
    const hit = cache.get(token);
    if (hit && hit.until > Date.now()) return hit.userId;
    const userId = await userForToken(db, token);
    if (!userId) throw new ConnectError("unknown API token", Code.Unauthenticated);
    if (cache.size > 10_000) cache.clear();
    cache.set(token, { userId, until: Date.now() + cacheMs });
    return userId;
  };
}
