import { type CanonicalHost, canonicalHost, hostMatches } from "./hosts.js";

/**
 * One entry of a site list: an origin (`https://example.com`, `http://localhost:3000`: that
 * scheme, host and port) or a host (`example.com`: any scheme and port; `*.example.com`: the
 * domain and its subdomains).
 */
export interface SitePattern {
  /** The entry as written, for messages. */
  readonly text: string;
  /** An origin entry's scheme, `http:` or `https:` (a `ws:`/`wss:` entry is read as its http(s) twin); undefined for a host entry. */
  readonly scheme?: "http:" | "https:";
  /** An origin entry's port, the scheme's default made explicit; undefined for a host entry. */
  readonly port?: string;
  readonly host: CanonicalHost;
  /** `*.example.com`: subdomains match too. */
  readonly subdomains: boolean;
  /** Where the entry came from (a flag, a policy file, "your policy"), named in refusals. */
  readonly from?: string;
}

/** A WebSocket connects to the origin of its http(s) twin: `ws://h:1` belongs to `http://h:1`. */
const httpTwin: Record<string, "http:" | "https:" | undefined> = { "http:": "http:", "https:": "https:", "ws:": "http:", "wss:": "https:" };

/** The port a URL connects to, the scheme's default made explicit. */
function effectivePort(url: URL, scheme: "http:" | "https:"): string {
  return url.port || (scheme === "https:" ? "443" : "80");
}

/**
 * Whether a parsed URL's hostname is a real host name. Chromium's URL parser (unlike Node's)
 * accepts spaces and other forbidden characters in a host and percent-encodes them
 * (`not%20a%20site`), so a typo in a list would otherwise pass as a host in a browser.
 */
function hostnameValid(hostname: string): boolean {
  return hostname !== "" && !hostname.includes("%");
}

function parseEntry(entry: string): Omit<SitePattern, "from"> | undefined {
  if (entry.includes("://")) {
    let u: URL;
    try {
      u = new URL(entry);
    } catch {
      return undefined;
    }
    const scheme = httpTwin[u.protocol];
    if (!scheme || !hostnameValid(u.hostname) || u.username || u.password || u.pathname !== "/" || u.search || u.hash) return undefined;
    return { text: entry, scheme, port: effectivePort(u, scheme), host: canonicalHost(u.hostname), subdomains: false };
  }
  const subdomains = entry.startsWith("*.");
  const hostText = subdomains ? entry.slice(2) : entry;
  if (!hostText || /[/?#@\\]/.test(hostText)) return undefined;
  let u: URL;
  try {
    u = new URL(`http://${hostText}/`);
  } catch {
    return undefined;
  }
  // A port belongs to an origin entry (`http://localhost:3000`), not a host entry.
  if (u.port || !hostnameValid(u.hostname) || (hostText.includes(":") && !hostText.startsWith("["))) return undefined;
  return { text: entry, host: canonicalHost(u.hostname), subdomains };
}

/**
 * Parses a site list: a `;`- or `,`-separated string (the value of `--allowed-origins` or
 * `--blocked-origins`) or a list of entries (a policy file's). Throws an Error naming
 * `listName` on an entry that is neither an http(s) origin nor a host; each pattern records
 * `listName` as where it came from.
 */
export function parseSiteList(list: string | readonly string[] | undefined, listName: string): SitePattern[] {
  const entries = (typeof list === "string" || list === undefined ? (list ?? "").split(/[;,]/) : list).map((e) => e.trim()).filter(Boolean);
  return entries.map((e) => {
    const p = parseEntry(e);
    if (!p) throw new Error(`${listName}: ${JSON.stringify(e)} is neither an origin (https://example.com) nor a host (example.com, *.example.com)`);
    return { ...p, from: listName };
  });
}

/**
 * Whether every URL `inner` matches is matched by `outer` too. Two patterns either nest or
 * share no URL (hosts form a tree, and a pattern names one scheme and port or all of them), so
 * the URLs both match are exactly those of the one the other covers.
 */
export function siteCovers(outer: SitePattern, inner: SitePattern): boolean {
  if (outer.scheme && (outer.scheme !== inner.scheme || outer.port !== inner.port)) return false;
  if (outer.host.loopback || inner.host.loopback) return outer.host.loopback && inner.host.loopback;
  if (inner.host.name === outer.host.name) return outer.subdomains || !inner.subdomains;
  return outer.subdomains && inner.host.name.endsWith(`.${outer.host.name}`);
}

/** Whether an http(s) or ws(s) URL belongs to the site `pattern` names. */
export function siteMatches(pattern: SitePattern, url: URL): boolean {
  if (!hostMatches(pattern.host, pattern.subdomains, canonicalHost(url.hostname))) return false;
  if (!pattern.scheme) return true;
  const scheme = httpTwin[url.protocol];
  return scheme === pattern.scheme && effectivePort(url, scheme) === pattern.port;
}
