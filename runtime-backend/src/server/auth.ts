import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { Queryable } from "../store/db.js";
import { resolveToken } from "../store/users.js";

/** Resolves the calling user of a request. */
export type Authenticator = (ctx: HandlerContext) => Promise<string>;

/** Bearer-token authentication that can drop a revoked token from its cache. */
export interface BearerAuthenticator extends Authenticator {
  /** Forgets a token by its id: the next request with it is looked up (and refused when revoked). */
  forget(tokenId: string): void;
}

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
export function bearerAuth(db: Queryable, o: BearerAuthOptions = {}): BearerAuthenticator {
  const cacheMs = o.cacheMs ?? 60_000;
  const negativeMs = o.negativeCacheMs ?? 10_000;
  const known = new Map<string, { userId: string; tokenId: string; until: number }>();
  const unknown = new Map<string, number>();
  const auth = async (ctx: HandlerContext) => {
    const token = bearerToken(ctx.requestHeader.get("authorization"));
    if (!token) throw new ConnectError("missing or malformed bearer token: send 'Authorization: Bearer <api token>'", Code.Unauthenticated);
    const now = Date.now();
    const hit = known.get(token);
    if (hit && hit.until > now) return hit.userId;
    if ((unknown.get(token) ?? 0) > now) throw new ConnectError("unknown or revoked API token", Code.Unauthenticated);
    const owner = await resolveToken(db, token);
    if (!owner) {
      if (unknown.size > 10_000) unknown.clear();
      unknown.set(token, now + negativeMs);
      throw new ConnectError("unknown or revoked API token", Code.Unauthenticated);
    }
    if (known.size > 10_000) known.clear();
    known.set(token, { ...owner, until: now + cacheMs });
    return owner.userId;
  };
  return Object.assign(auth, {
    forget(tokenId: string) {
      // Revocations are rare and the cache is bounded: a scan is fine.
      for (const [token, entry] of known) if (entry.tokenId === tokenId) known.delete(token);
    },
  });
}
