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
}

/** A WebSocket connects to the origin of its http(s) twin: `ws://h:1` belongs to `http://h:1`. */
const httpTwin: Record<string, "http:" | "https:" | undefined> = { "http:": "http:", "https:": "https:", "ws:": "http:", "wss:": "https:" };

/** The port a URL connects to, the scheme's default made explicit. */
function effectivePort(url: URL, scheme: "http:" | "https:"): string {
  return url.port || (scheme === "https:" ? "443" : "80");
}

function parseEntry(entry: string): SitePattern | undefined {
  if (entry.includes("://")) {
    let u: URL;
    try {
      u = new URL(entry);
    } catch {
      return undefined;
    }
    const scheme = httpTwin[u.protocol];
    if (!scheme || !u.hostname || u.username || u.password || u.pathname !== "/" || u.search || u.hash) return undefined;
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
  if (u.port || !u.hostname || (hostText.includes(":") && !hostText.startsWith("["))) return undefined;
  return { text: entry, host: canonicalHost(u.hostname), subdomains };
}

/**
 * Parses a `;`- or `,`-separated site list (the value of `--allowed-origins` or
 * `--blocked-origins`); throws an Error naming `listName` on an entry that is neither an
 * http(s) origin nor a host.
 */
export function parseSiteList(list: string | undefined, listName: string): SitePattern[] {
  const entries = (list ?? "").split(/[;,]/).map((e) => e.trim()).filter(Boolean);
  return entries.map((e) => {
    const p = parseEntry(e);
    if (!p) throw new Error(`${listName}: ${JSON.stringify(e)} is neither an origin (https://example.com) nor a host (example.com, *.example.com)`);
    return p;
  });
}

/** Whether an http(s) or ws(s) URL belongs to the site `pattern` names. */
export function siteMatches(pattern: SitePattern, url: URL): boolean {
  if (!hostMatches(pattern.host, pattern.subdomains, canonicalHost(url.hostname))) return false;
  if (!pattern.scheme) return true;
  const scheme = httpTwin[url.protocol];
  return scheme === pattern.scheme && effectivePort(url, scheme) === pattern.port;
}
