import type { CdpEvent, CdpTransport } from "@baton/sdk/cdp";

/**
 * Which origins the browser may load. An entry is an origin (`https://example.com`,
 * `http://localhost:3000`: that scheme, host and port) or a host (`example.com`: any scheme and
 * port; `*.example.com`: its subdomains too). Blocked entries win; with an allow list, anything
 * not on it is blocked. Pages that load nothing from the network (`about:blank`, `data:`,
 * `blob:`) always pass.
 */
export interface OriginPolicy {
  readonly allowed: readonly string[];
  readonly blocked: readonly string[];
}

/** Parses a `;`- or `,`-separated list; throws on an entry that is neither an origin nor a host. */
export function parseOriginList(list: string | undefined, flagName: string): string[] {
  const entries = (list ?? "").split(/[;,]/).map((e) => e.trim()).filter(Boolean);
  for (const e of entries) {
    const hostPart = e.includes("://") ? safeHost(e) : e.replace(/^\*\./, "");
    if (!hostPart || !/^[a-z0-9.-]+$|^\[[0-9a-f:]+\]$/i.test(hostPart)) {
      throw new Error(`${flagName}: ${JSON.stringify(e)} is neither an origin (https://example.com) nor a host (example.com, *.example.com)`);
    }
  }
  return entries;
}

function safeHost(origin: string): string | undefined {
  try {
    const u = new URL(origin);
    return u.pathname === "/" && !u.search && !u.hash ? u.host.replace(/:\d+$/, "") : undefined;
  } catch {
    return undefined;
  }
}

function matches(entry: string, url: URL): boolean {
  if (entry.includes("://")) return new URL(entry).origin === url.origin;
  const host = url.hostname.toLowerCase();
  const e = entry.toLowerCase();
  return e.startsWith("*.") ? host === e.slice(2) || host.endsWith(e.slice(1)) : host === e;
}

/** Whether the policy restricts anything. */
export function isRestricted(policy: OriginPolicy): boolean {
  return policy.allowed.length > 0 || policy.blocked.length > 0;
}

/** Undefined when `url` may load; otherwise why not, as a sentence for the model. */
export function originRefusal(policy: OriginPolicy, url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined; // not a URL: the tool itself says what is wrong with it
  }
  if (u.protocol !== "http:" && u.protocol !== "https:" && u.protocol !== "ws:" && u.protocol !== "wss:") return undefined;
  if (policy.blocked.some((e) => matches(e, u))) return `${u.origin} is blocked by this server (--blocked-origins).`;
  if (policy.allowed.length > 0 && !policy.allowed.some((e) => matches(e, u))) {
    return `${u.origin} is not an allowed origin of this server (--allowed-origins ${policy.allowed.join(";")}).`;
  }
  return undefined;
}

interface RequestPaused {
  requestId: string;
  request: { url: string };
}

/**
 * Enforces the policy on every request the browser makes — pages, frames, subresources,
 * redirects, every tab — with the Fetch domain on the browser-level session: a refused request
 * fails as `BlockedByClient`. For a browser Baton launched; on a user's browser it would hold
 * up their other tabs too. Resolves to a function that stops it.
 */
export async function guardBrowserRequests(transport: CdpTransport, policy: OriginPolicy): Promise<() => void> {
  const off = transport.onEvent((e: CdpEvent) => {
    if (e.method !== "Fetch.requestPaused" || e.sessionId) return;
    const { requestId, request } = e.params as unknown as RequestPaused;
    const refused = originRefusal(policy, request.url) !== undefined;
    void transport
      .send(refused ? "Fetch.failRequest" : "Fetch.continueRequest", refused ? { requestId, errorReason: "BlockedByClient" } : { requestId })
      .catch(() => undefined);
  });
  await transport.send("Fetch.enable", { patterns: [{ urlPattern: "*" }] });
  return off;
}
