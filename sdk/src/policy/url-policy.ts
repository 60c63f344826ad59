import { parseSiteList, type SitePattern, siteMatches } from "./site-list.js";

/**
 * What is being opened or loaded:
 * - `page`: a page the agent opens itself (navigate, open_tab, a start URL): http(s) or
 *   `about:blank` only.
 * - `tab`: the page of a tab some page opened (a link with `target=_blank`, `window.open`), or
 *   where a tab's page ended up (a redirect, a link).
 * - `frame`: a frame's document.
 * - `resource`: anything else a page requests (scripts, images, fetch, redirects of those).
 * - `websocket`: a WebSocket's URL: `ws:`/`wss:` only.
 *
 * Tabs, frames and resources may also be content that loads nothing from the network
 * (`about:`, `data:`, `blob:`) and Chromium's own error page; never local files or the
 * browser's own pages (`file:`, `chrome:`, `devtools:`, `view-source:`, …). Every http(s) and
 * ws(s) URL is held to the policy's site lists.
 */
export type UrlKind = "page" | "tab" | "frame" | "resource" | "websocket";

/**
 * The site policy: which URLs may be opened or loaded, and where the agent may only read. The
 * site lists come from the user (`--allowed-origins` / `--blocked-origins`, a `--policy` file,
 * the extension's settings, the console's per-user and team policies; `mergeUrlPolicies`
 * combines them); an empty policy still holds every kind of URL to its schemes. Each pattern
 * says where it came from (`SitePattern.from`), and refusals name it.
 */
export interface UrlPolicy {
  /** With entries, only these sites (and content with no network origin) may load. */
  readonly allowed: readonly SitePattern[];
  /** Never these sites; wins over `allowed`. */
  readonly blocked: readonly SitePattern[];
  /**
   * These sites load and can be read, but no call that would change something on their pages
   * runs there (`decideAction`). Loading them is `allowed`'s and `blocked`'s question.
   */
  readonly readOnly: readonly SitePattern[];
}

/** The policy without site lists: only the schemes are checked. */
export const openUrlPolicy: UrlPolicy = { allowed: [], blocked: [], readOnly: [] };

/** Why a URL was refused. */
export type RefusalRule = "invalid" | "scheme" | "blocked" | "not-allowed";

/** The policy's answer: allowed, or refused with the rule and a sentence for the model. */
export type UrlDecision = { readonly allow: true } | { readonly allow: false; readonly rule: RefusalRule; readonly reason: string };

const allow: UrlDecision = { allow: true };
const network = new Set(["http:", "https:"]);
const sockets = new Set(["ws:", "wss:"]);
/** Content a page makes itself or Chromium shows: nothing is read from the network or the disk. */
const local = new Set(["about:", "data:", "blob:", "chrome-error:"]);

/** Whether the policy has lists that limit what loads (a launched browser then checks every request against them). */
export function hasSiteLists(policy: UrlPolicy): boolean {
  return policy.allowed.length > 0 || policy.blocked.length > 0;
}

/** Names of the lists, as refusals and errors name them (the flags or settings that carried them). */
export interface ListNames {
  readonly allowed: string;
  readonly blocked: string;
  readonly readOnly?: string;
}

/**
 * A policy from the user's lists (`;`- or `,`-separated origins and hosts, or lists of them);
 * throws an Error naming the list on an entry that is neither. `names` are how refusals and
 * errors name the lists (the flags that carried them).
 */
export function urlPolicyFromLists(
  lists: { allowed?: string | readonly string[] | undefined; blocked?: string | readonly string[] | undefined; readOnly?: string | readonly string[] | undefined },
  names: ListNames,
): UrlPolicy {
  return {
    allowed: parseSiteList(lists.allowed, names.allowed),
    blocked: parseSiteList(lists.blocked, names.blocked),
    readOnly: parseSiteList(lists.readOnly, names.readOnly ?? "read-only sites"),
  };
}

/** `a;b (from)` per source of the patterns, for a refusal that lists them. */
export function describeSites(patterns: readonly SitePattern[]): string {
  const bySource = new Map<string, string[]>();
  for (const p of patterns) bySource.set(p.from ?? "", [...(bySource.get(p.from ?? "") ?? []), p.text]);
  return [...bySource].map(([from, texts]) => `${from ? `${from} ` : ""}${texts.join(";")}`).join(", ");
}

function schemeRefusal(kind: UrlKind, protocol: string): UrlDecision {
  const reason =
    kind === "page"
      ? `Only http and https pages (and about:blank) can be opened, not ${protocol} URLs. Open a web page instead.`
      : kind === "websocket"
        ? `Only ws: and wss: WebSockets may connect, not ${protocol}.`
        : `${protocol} URLs may not be loaded: local files and the browser's own pages are off limits.`;
  return { allow: false, rule: "scheme", reason };
}

function siteDecision(policy: UrlPolicy, url: URL): UrlDecision {
  const blocked = policy.blocked.find((p) => siteMatches(p, url));
  if (blocked) {
    return { allow: false, rule: "blocked", reason: `${url.origin} is blocked${blocked.from ? ` (${blocked.from})` : ""}. Use another site, or ask the user.` };
  }
  if (policy.allowed.length > 0 && !policy.allowed.some((p) => siteMatches(p, url))) {
    return {
      allow: false,
      rule: "not-allowed",
      reason: `${url.origin} is not an allowed site (${describeSites(policy.allowed)}). Use a page on an allowed site, or ask the user.`,
    };
  }
  return allow;
}

/**
 * May `url` be opened or loaded as `kind`? The one answer every surface asks: the engine
 * before it opens a page or adopts a tab, a browser Baton launched for every request, the
 * extension before it opens a tab.
 */
export function decideUrl(policy: UrlPolicy, url: string | URL, kind: UrlKind): UrlDecision {
  let u: URL;
  try {
    u = typeof url === "string" ? new URL(url.trim()) : url;
  } catch {
    return { allow: false, rule: "invalid", reason: `This is not an absolute URL. Give one like "https://example.com/".` };
  }
  if (kind === "websocket") return sockets.has(u.protocol) ? siteDecision(policy, u) : schemeRefusal(kind, u.protocol);
  if (network.has(u.protocol)) return siteDecision(policy, u);
  if (kind === "page") return u.href === "about:blank" ? allow : schemeRefusal(kind, u.protocol);
  // A page's own WebSocket URL is a `resource` to whoever sees it as a request.
  if (sockets.has(u.protocol)) return siteDecision(policy, u);
  return local.has(u.protocol) ? allow : schemeRefusal(kind, u.protocol);
}
