import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { Queryable } from "../store/db.js";
import { userForToken } from "../store/users.js";

/** Resolves the calling user of a request. */
export type Authenticator = (ctx: HandlerContext) => Promise<string>;

/** A bearer token as an `Authorization` header carries it: 8 to 512 visible ASCII characters. */
const bearerPattern = /^Bearer +([\x21-\x7e]{8,512})$/i;

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined when the header is
 * missing or malformed. The one reading of the header: the edge (before a body is read) and the
 * authenticator use it both.
 */
export function bearerToken(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  return bearerPattern.exec(header.trim())?.[1];
}

/** Options of {@link bearerAuth}. */
export interface BearerAuthOptions {
  /** How long a resolved token is trusted without a lookup (a busy session steps often). */
  readonly cacheMs?: number;
  /** How long an unknown token is refused without a lookup (a flood of bad tokens costs one query each per period). */
  readonly negativeCacheMs?: number;
}

/**
 * Bearer-token authentication against the store's API tokens. Known and unknown tokens are
 * cached briefly, so neither a busy session nor a flood of made-up tokens costs a store query
 * per request. Both caches are bounded.
 */
export function bearerAuth(db: Queryable, o: BearerAuthOptions = {}): Authenticator {
  const cacheMs = o.cacheMs ?? 60_000;
  const negativeMs = o.negativeCacheMs ?? 10_000;
  const known = new Map<string, { userId: string; until: number }>();
  const unknown = new Map<string, number>();
  return async (ctx) => {
    const token = bearerToken(ctx.requestHeader.get("authorization"));
    if (!token) throw new ConnectError("missing or malformed bearer token: send 'Authorization: Bearer <api token>'", Code.Unauthenticated);
    const now = Date.now();
    const hit = known.get(token);
    if (hit && hit.until > now) return hit.userId;
    if ((unknown.get(token) ?? 0) > now) throw new ConnectError("unknown API token", Code.Unauthenticated);
    const userId = await userForToken(db, token);
    if (!userId) {
      if (unknown.size > 10_000) unknown.clear();
      unknown.set(token, now + negativeMs);
      throw new ConnectError("unknown API token", Code.Unauthenticated);
    }
    if (known.size > 10_000) known.clear();
    known.set(token, { userId, until: now + cacheMs });
    return userId;
  };
}
