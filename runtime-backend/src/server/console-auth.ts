import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { consoleSessionUser } from "../store/accounts.js";
import type { Queryable } from "../store/db.js";
import { accessOf, consoleCookie, consoleSecret, secureConsoleCookie } from "./access.js";
import type { Authenticator, BearerAuthenticator } from "./auth.js";

/** How long a console session lasts without being used (sliding). */
export const consoleSessionMs = 30 * 24 * 3_600_000;

/**
 * The console's cookie authentication: the user of a live console session. Looked up on every
 * call (no cache), so signing out ends a session at once.
 */
export function consoleAuth(db: Queryable, ttlMs = consoleSessionMs): Authenticator {
  return async (ctx) => {
    const secret = consoleSecret(ctx.requestHeader.get("cookie"));
    if (!secret) throw new ConnectError("not signed in: open the console's sign-in link", Code.Unauthenticated);
    const userId = await consoleSessionUser(db, secret, ttlMs);
    if (!userId) throw new ConnectError("your console session has ended: sign in again", Code.Unauthenticated);
    return userId;
  };
}

/**
 * Authenticates a request the way its method's proto allows (`access.ts`): a bearer token when
 * the request carries one (or the method takes nothing else), else the console's cookie.
 */
export function requestAuth(bearer: BearerAuthenticator, console: Authenticator): Authenticator {
  return (ctx: HandlerContext) => {
    const a = accessOf(ctx.method);
    if (a.bearer && (ctx.requestHeader.has("authorization") || !a.console)) return bearer(ctx);
    if (a.console) return console(ctx);
    return Promise.reject(new ConnectError(`${ctx.method.name} acts for nobody: it has no signed-in user`, Code.Internal));
  };
}

/** A `Set-Cookie` value for the console's session (HttpOnly, SameSite=Strict; over https Secure and `__Host-`). */
export function sessionCookie(secret: string, maxAgeMs: number, secure: boolean): string {
  return `${secure ? secureConsoleCookie : consoleCookie}=${secret}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(maxAgeMs / 1000)}${secure ? "; Secure" : ""}`;
}

/** A `Set-Cookie` value that clears the console's session cookie. */
export function clearedCookie(secure: boolean): string {
  return sessionCookie("", 0, secure);
}
