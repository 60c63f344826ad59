import type { SitePattern } from "./site-list.js";
import type { UrlPolicy } from "./url-policy.js";

/**
 * A `chrome.declarativeNetRequest` session rule, as plain data (the SDK knows no `chrome.*`
 * types): block or allow the requests of some tabs whose URL matches `regexFilter`.
 */
export interface NetRule {
  readonly id: number;
  readonly priority: number;
  readonly action: { readonly type: "block" | "allow" };
  readonly condition: {
    readonly regexFilter: string;
    readonly tabIds: number[];
    readonly resourceTypes: NetResourceType[];
  };
}

/**
 * Every kind of request a page makes, the page's own navigation included: frames,
 * subresources and WebSockets are held like the page.
 */
const allTypes = [
  "main_frame",
  "sub_frame",
  "stylesheet",
  "script",
  "image",
  "font",
  "object",
  "xmlhttprequest",
  "ping",
  "csp_report",
  "media",
  "websocket",
  "webtransport",
  "webbundle",
  "other",
] as const;

/** A kind of request, as `chrome.declarativeNetRequest` names it. */
export type NetResourceType = (typeof allTypes)[number];

/**
 * Every spelling of this machine, as Chromium writes a URL's host (RE2): `localhost` and its
 * subdomains, 127.0.0.0/8, `0.0.0.0`, `[::1]`, `[::]` and the IPv4-mapped and -compatible
 * forms — the class `canonicalHost` calls loopback. One rule each: Chrome refuses a rule whose
 * regular expression compiles to more than 2 KB, which all of them in one alternation does.
 */
const loopbackHosts = [
  "localhost",
  String.raw`[^/:?#]+\.localhost`,
  String.raw`127\.\d+\.\d+\.\d+`,
  String.raw`0\.0\.0\.0`,
  String.raw`\[::1?\]`,
  String.raw`\[::(?:ffff:)?7f[0-9a-f]{2}:[0-9a-f]{1,4}\]`,
  String.raw`\[::ffff:0:0\]`,
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Regular expressions for the URLs (pages, requests, WebSockets) of a site pattern: one, or one
 * per spelling of this machine. Chromium drops a default port and keeps a trailing dot, so both
 * are optional where they can appear.
 */
function patternRegexes(p: SitePattern): string[] {
  const scheme = p.scheme === "http:" ? "(?:http|ws)" : p.scheme === "https:" ? "(?:https|wss)" : "(?:https?|wss?)";
  const hosts = p.host.loopback ? loopbackHosts : [`${p.subdomains ? "(?:[^/:?#]+\\.)?" : ""}${escape(p.host.name)}\\.?`];
  const defaultPort = p.scheme === "https:" ? "443" : "80";
  const port = p.port === undefined ? "(?::\\d+)?" : p.port === defaultPort ? `(?::${defaultPort})?` : `:${p.port}`;
  return hosts.map((host) => `^${scheme}://${host}${port}/`);
}

/**
 * The session rules that hold the given tabs to the policy's site lists in the user's own
 * browser, where the extension cannot intercept requests through DevTools: every request of
 * those tabs — the page, its frames, subresources and WebSockets — to a blocked site is
 * blocked, and with an allow list every request to an http(s) or ws(s) URL outside it. Ids
 * start at `firstId`. Empty when the policy has no lists that limit loading, or no tabs.
 */
export function declarativeNetRequestRules(policy: UrlPolicy, tabIds: readonly number[], firstId: number): NetRule[] {
  if (tabIds.length === 0) return [];
  const rules: NetRule[] = [];
  const add = (type: "block" | "allow", priority: number, regexFilter: string) =>
    rules.push({ id: firstId + rules.length, priority, action: { type }, condition: { regexFilter, tabIds: [...tabIds], resourceTypes: [...allTypes] } });
  // Priorities: a blocked site wins over an allowed one, which wins over "nothing else".
  for (const p of policy.blocked) if (p.host.name) for (const re of patternRegexes(p)) add("block", 3, re);
  if (policy.allowed.length > 0) {
    for (const p of policy.allowed) if (p.host.name) for (const re of patternRegexes(p)) add("allow", 2, re);
    add("block", 1, "^(?:https?|wss?)://");
  }
  return rules;
}
