/** A host as the URL policy compares it. */
export interface CanonicalHost {
  /**
   * The WHATWG URL parser's hostname (lower-case, IDN as punycode, IPv4 in dotted decimal,
   * IPv6 compressed in brackets) without trailing dots.
   */
  readonly name: string;
  /**
   * This machine itself: `localhost` and its subdomains, 127.0.0.0/8, `0.0.0.0`, `[::1]`,
   * `[::]` and the IPv4-mapped or -compatible forms of those addresses. Loopback hosts all
   * match each other: a list that names one names every spelling of this machine.
   */
  readonly loopback: boolean;
}

// IPv6 as the URL parser writes it: `[::ffff:7f00:1]` is ::ffff:127.0.0.1, `[::7f00:1]` the
// deprecated IPv4-compatible ::127.0.0.1, `[::ffff:0:0]` ::ffff:0.0.0.0.
const loopbackV6 = /^\[(::1|::|::ffff:0:0|(::ffff:|::)7f[0-9a-f]{2}:[0-9a-f]{1,4})\]$/;
const ipv4 = /^(\d{1,3})\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

function isLoopback(name: string): boolean {
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  const v4 = ipv4.exec(name);
  if (v4) return v4[1] === "127" || name === "0.0.0.0";
  return loopbackV6.test(name);
}

/**
 * The canonical form of a URL's hostname for matching. Pass `URL.hostname` (already parsed:
 * `0x7f.1`, `2130706433` and `127.1` arrive as `127.0.0.1`); trailing dots are dropped here, so
 * `localhost.` and `example.com.` match `localhost` and `example.com`.
 */
export function canonicalHost(hostname: string): CanonicalHost {
  const name = hostname.toLowerCase().replace(/\.+$/, "");
  return { name, loopback: isLoopback(name) };
}

/** Whether `host` is `pattern` (or, with `subdomains`, one of its subdomains); loopback hosts are one class. */
export function hostMatches(pattern: CanonicalHost, subdomains: boolean, host: CanonicalHost): boolean {
  if (pattern.loopback || host.loopback) return pattern.loopback && host.loopback;
  return host.name === pattern.name || (subdomains && host.name.endsWith(`.${pattern.name}`));
}
