import { isIP } from "node:net";

/**
 * Which hosts may call our servers: the one answer `baton serve` and `baton mcp --http` both
 * ask. A page on a name its attacker controls can have that name re-resolved to 127.0.0.1 (DNS
 * rebinding) and then read our answers as its own origin; its requests still carry its own name
 * in `Host` and `Origin`, so a server that answers only the names it knows cannot be reached
 * that way.
 */
export interface HostPolicy {
  /** The address the server listens on: "127.0.0.1", "::1", "0.0.0.0", "::" or a name. */
  readonly listenHost: string;
  /** The port it listens on (known once it listens). */
  readonly port: number;
  /** The public address users reach it at (`BATON_PUBLIC_URL`): its host is answered too. */
  readonly publicUrl?: string | undefined;
  /** The operator's allow-list (`--allowed-hosts`): "name" on any port, or "name:port". */
  readonly allowed?: readonly string[] | undefined;
}

/** A host and port as a request names them; `port` is undefined when none was given. */
interface Authority {
  readonly hostname: string;
  readonly port: number | undefined;
}

/** The names of this machine's loopback interface that any local server answers. */
const loopbackNames = new Set(["localhost", "127.0.0.1", "[::1]"]);
const wildcards = new Set(["", "0.0.0.0", "::", "[::]"]);

/** A host name compared as browsers resolve it: lower case, IPv6 in brackets, no trailing dot. */
function normalName(name: string): string {
  const lower = name.toLowerCase().replace(/\.$/, "");
  return isIP(lower) === 6 ? `[${lower}]` : lower;
}

/**
 * Parses "host", "host:port", "[v6]:port" as a `Host` header carries it (the URL parser's rules,
 * so "2130706433" reads as 127.0.0.1 just as a browser would send it), or undefined when it is
 * not a bare authority (a path, user info, an empty host).
 */
function parseAuthority(value: string): Authority | undefined {
  if (!value || /[\s/\\?#@]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return undefined;
  }
  if (!url.hostname) return undefined;
  // The URL parser drops ":80" as http's default: the request named it, so keep it.
  const port = url.port ? Number(url.port) : /:80$/.test(value) ? 80 : undefined;
  return { hostname: normalName(url.hostname), port };
}

function isIpLiteral(hostname: string): boolean {
  return isIP(hostname.replace(/^\[|\]$/g, "")) !== 0;
}

/** True when a listener on `host` is reachable from this machine only (the default, 127.0.0.1). */
export function isLoopbackListener(host: string): boolean {
  return loopbackNames.has(normalName(host));
}

/**
 * Reads an allow-list ("a.example, b.example:8443"), refusing an entry that is not a bare host
 * or host:port (a scheme or path is a common slip); `what` names its flag in the message.
 */
export function parseHostList(value: string | undefined, what: string): string[] {
  const out: string[] = [];
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const a = parseAuthority(entry);
    if (!a) throw new Error(`${what}: "${entry.slice(0, 100)}" is not a host name or host:port (no scheme, no path): such as baton.lan or baton.lan:8787`);
    out.push(a.port === undefined ? a.hostname : `${a.hostname}:${a.port}`);
  }
  return out;
}

/** Asks whether a request's `Host` or `Origin` names this server. */
export interface HostGuard {
  /** Why a `Host` header (or HTTP/2 `:authority`) is refused, or undefined when it names this server. */
  refuseHost(host: string | undefined): string | undefined;
  /**
   * Why an `Origin` header is refused, or undefined when it is absent (not a browser) or names
   * this server on one of the hosts {@link refuseHost} accepts.
   */
  refuseOrigin(origin: string | undefined): string | undefined;
}

/**
 * The host check of a server listening as `p` says. A request is answered when its host is:
 * the listen address on the listen port; a loopback name (localhost, 127.0.0.1, [::1]) on the
 * listen port; any IP literal on the listen port when the listener is a wildcard (0.0.0.0, ::),
 * since a literal cannot be re-resolved; the public URL's host; or an allow-list entry.
 */
export function hostGuard(p: HostPolicy): HostGuard {
  const listen = normalName(p.listenHost);
  const wildcard = wildcards.has(listen);
  const publicUrl = p.publicUrl ? new URL(p.publicUrl) : undefined;
  const publicHost = publicUrl ? normalName(publicUrl.hostname) : undefined;
  const publicPort = publicUrl ? Number(publicUrl.port || (publicUrl.protocol === "https:" ? 443 : 80)) : undefined;
  const allowed = (p.allowed ?? []).map((e) => parseAuthority(e)).filter((a): a is Authority => a !== undefined);
  const answers = (a: Authority): boolean => {
    // A direct request without a port came to http's default.
    const onPort = (a.port ?? 80) === p.port;
    if (onPort && (a.hostname === listen || loopbackNames.has(a.hostname))) return true;
    if (onPort && wildcard && isIpLiteral(a.hostname)) return true;
    // Behind a proxy the public name arrives without a port, or with the public URL's own.
    if (a.hostname === publicHost && (a.port === undefined || a.port === publicPort)) return true;
    return allowed.some((e) => e.hostname === a.hostname && (e.port === undefined || e.port === (a.port ?? 80)));
  };
  const hint = `add it to --allowed-hosts (BATON_ALLOWED_HOSTS) if it is this server's own name`;
  return {
    refuseHost(host) {
      if (!host) return "the request names no host (Host header)";
      const a = parseAuthority(host.trim());
      if (!a) return `the Host header ${JSON.stringify(host.slice(0, 100))} is not a host name`;
      return answers(a) ? undefined : `this server does not answer for ${JSON.stringify(host.slice(0, 100))}: ${hint}`;
    },
    refuseOrigin(origin) {
      if (origin === undefined) return undefined;
      let url: URL | undefined;
      try {
        url = new URL(origin);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin.replace(/\/$/, "")) {
        return `the Origin ${JSON.stringify(origin.slice(0, 100))} is not this server's`;
      }
      const a = { hostname: normalName(url.hostname), port: Number(url.port || (url.protocol === "https:" ? 443 : 80)) };
      return answers(a) ? undefined : `requests from pages of ${JSON.stringify(origin.slice(0, 100))} are refused: only this server's own origin may call it`;
    },
  };
}

/**
 * The base URL of the links a server hands out (sign-in, approve, device links): the public
 * URL when set, else the listen address (a wildcard listener's loopback address) — never the
 * request's own `Host`, which a client chooses.
 */
export function linkBase(p: Pick<HostPolicy, "listenHost" | "port" | "publicUrl">): string {
  if (p.publicUrl) return p.publicUrl.replace(/\/+$/, "");
  const listen = normalName(p.listenHost);
  return `http://${wildcards.has(listen) ? "127.0.0.1" : listen}:${p.port}`;
}
