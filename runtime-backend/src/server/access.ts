import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { Access } from "@baton/gen/baton/v1/options_pb";
import { bearerToken } from "./auth.js";
import { methodLimitsOf } from "./validate.js";

/** The console's session cookie. */
export const consoleCookie = "baton_console";

/**
 * Its name when the console is served over https: a `__Host-` cookie must be Secure, Path=/ and
 * without a Domain, so no plain-http server on another port of the same host can set one.
 */
export const secureConsoleCookie = `__Host-${consoleCookie}`;

/**
 * The header the console's own client sends on every call. A cross-site page cannot send it
 * without a CORS preflight, which the console's methods never pass: with the Origin and
 * Sec-Fetch-Site checks, the third guard against a request forged from another site.
 */
export const consoleHeader = "baton-console";

/** Who may call a method, from its `(baton.v1.method).access` (bearer when unset). */
export interface MethodAccess {
  readonly bearer: boolean;
  readonly console: boolean;
  readonly signIn: boolean;
  readonly public: boolean;
}

const bearerOnly: MethodAccess = { bearer: true, console: false, signIn: false, public: false };
const cache = new WeakMap<DescMethod, MethodAccess>();

/** A method's access, as its proto declares it. */
export function accessOf(method: DescMethod): MethodAccess {
  let a = cache.get(method);
  if (!a) {
    const list = methodLimitsOf(method)?.access ?? [];
    a =
      list.length === 0
        ? bearerOnly
        : {
            bearer: list.includes(Access.BEARER) || list.includes(Access.UNSPECIFIED),
            console: list.includes(Access.CONSOLE),
            signIn: list.includes(Access.CONSOLE_SIGN_IN),
            public: list.includes(Access.PUBLIC),
          };
    cache.set(method, a);
  }
  return a;
}

/** True when anyone may call a method without a token or a session: public ones, and signing in. */
export function isAnonymous(method: DescMethod): boolean {
  const a = accessOf(method);
  return a.public || (a.signIn && !a.console && !a.bearer);
}

/** A console session secret as the cookie carries it: "cs_" and 43 base64url characters. */
const secretPattern = /^cs_[A-Za-z0-9_-]{43}$/;

/**
 * The console session secret of a `Cookie` header, or undefined when there is none (or it is
 * malformed). Cookies are not kept apart by port: a server on another port of the same host can
 * set a second `baton_console` (on a longer path, so the browser sends it first) holding its
 * own session, and a server that took the first would act for that account. A request with two
 * is refused, InvalidArgument, with what to do.
 */
export function consoleSecret(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const values: string[] = [];
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    const name = eq < 0 ? "" : part.slice(0, eq).trim();
    if (name === consoleCookie || name === secureConsoleCookie) values.push(part.slice(eq + 1).trim());
  }
  if (values.length > 1) {
    throw new ConnectError(
      `this request carries ${values.length} console session cookies (${consoleCookie}); another server on this host name, on another port, may have set one: clear this site's cookies in the browser and sign in again, and serve the console on a host name of its own`,
      Code.InvalidArgument,
    );
  }
  const v = values[0];
  return v !== undefined && secretPattern.test(v) ? v : undefined;
}

/**
 * Why a browser request is not from the console's own origin, or undefined when it is: its
 * `Origin` names another host than the one it was sent to, its `Sec-Fetch-Site` says it came
 * from another site, or it lacks the console's header.
 */
export function crossSiteReason(header: (name: string) => string | null | undefined): string | undefined {
  const site = header("sec-fetch-site");
  if (site && site !== "same-origin") return `a ${site} request (Sec-Fetch-Site)`;
  const origin = header("origin");
  if (origin) {
    const host = header("host") ?? header(":authority");
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = undefined;
    }
    if (!host || originHost !== host) return `a request from ${origin.slice(0, 100)}`;
  }
  if (header(consoleHeader) !== "1") return `a request without the '${consoleHeader}: 1' header`;
  return undefined;
}

function refusal(a: MethodAccess): ConnectError {
  if (a.bearer && a.console) {
    return new ConnectError("missing or malformed credentials: send 'Authorization: Bearer <api token>', or sign in to the console", Code.Unauthenticated);
  }
  if (a.console) return new ConnectError("not signed in: open the console's sign-in link", Code.Unauthenticated);
  return new ConnectError("missing or malformed bearer token: send 'Authorization: Bearer <api token>'", Code.Unauthenticated);
}

/**
 * What a request lacks to be let in by the method's declared access, checked from its headers
 * before its body is read: a well-formed bearer token, or the console's cookie on a request
 * from the console's own origin, or (to sign in) just the console's origin; public methods
 * take anyone. Whether the token or cookie is valid is the authenticator's to say.
 */
export function refuseAccess(header: (name: string) => string | null | undefined, method: DescMethod): ConnectError | undefined {
  const a = accessOf(method);
  if (a.public) return undefined;
  const authorization = header("authorization");
  if (a.bearer && (authorization || !a.console)) {
    return bearerToken(authorization) === undefined ? refusal(a) : undefined;
  }
  if (a.console || a.signIn) {
    if (a.console) {
      let secret: string | undefined;
      try {
        secret = consoleSecret(header("cookie"));
      } catch (e) {
        return ConnectError.from(e);
      }
      if (secret === undefined) return refusal(a);
    }
    const cross = crossSiteReason(header);
    if (cross) return new ConnectError(`the console's calls come from its own page only; refused ${cross}`, Code.PermissionDenied);
    return undefined;
  }
  return refusal(a);
}
