import type { ToolRisk } from "../contract/catalog.js";
import { canonicalHost } from "./hosts.js";
import { parseSiteList, siteMatches } from "./site-list.js";

/**
 * A decision a person asked to have remembered on an approval card: every call of one action
 * class (the catalog's risk, raised by the call's irreversible flag) on one site runs without
 * asking (`allow`) or is refused without asking, until it expires or is revoked. The same shape
 * in the backend's store, the extension's storage and `baton run`'s file.
 */
export interface RememberedDecision {
  readonly id: string;
  /** The site: an http(s) origin, as `siteOf` gives it. */
  readonly site: string;
  /** The action class it covers. */
  readonly risk: ToolRisk;
  /** True: such calls run without asking; false: they are refused without asking. */
  readonly allow: boolean;
  /** The tool of the call it was made on (snake_case), to show in lists. */
  readonly tool: string;
  /** When it was made, ms since the epoch. */
  readonly createdAt: number;
  /** When it stops applying, ms since the epoch; undefined: until revoked. */
  readonly expiresAt?: number | undefined;
}

/**
 * The site a page belongs to, for remembered decisions: its origin with the host canonical
 * (lower-case, no trailing dot, IDN as punycode); undefined for a page that is not http(s).
 */
export function siteOf(pageUrl: string | undefined): string | undefined {
  if (!pageUrl) return undefined;
  let u: URL;
  try {
    u = new URL(pageUrl);
  } catch {
    return undefined;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return undefined;
  return `${u.protocol}//${canonicalHost(u.hostname).name}${u.port ? `:${u.port}` : ""}`;
}

const hour = 3_600_000;

/**
 * How long an approval card offers to remember an "always" or "never", as [label, ms]; 0 is
 * until revoked. The console's card and the extension's offer the same choices.
 */
export const rememberDurations: readonly (readonly [label: string, ms: number])[] = [
  ["for 1 hour", hour],
  ["for 1 day", 24 * hour],
  ["for 30 days", 30 * 24 * hour],
  ["until I revoke it", 0],
];

/** The duration an approval card picks first: 30 days. */
export const defaultRememberMs = 30 * 24 * hour;

/** Whether a decision still applies at `now` (ms). */
export function decisionLive(d: RememberedDecision, now: number): boolean {
  return d.expiresAt === undefined || d.expiresAt > now;
}

/** Whether the page at `pageUrl` is on the decision's site (every spelling of this machine one host, as in the site policy). */
function onSite(d: RememberedDecision, pageUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return false;
  }
  try {
    return parseSiteList([d.site], "remembered decision").some((p) => siteMatches(p, url));
  } catch {
    return false;
  }
}

/**
 * The remembered decision that answers a call of class `risk` on the page at `pageUrl`, or
 * undefined (ask). A refusal wins over a permission for the same call; expired decisions are
 * ignored.
 */
export function rememberedFor(decisions: readonly RememberedDecision[], pageUrl: string | undefined, risk: ToolRisk, now: number): RememberedDecision | undefined {
  if (!siteOf(pageUrl)) return undefined;
  const matching = decisions.filter((d) => d.risk === risk && decisionLive(d, now) && onSite(d, pageUrl as string));
  return matching.find((d) => !d.allow) ?? matching[0];
}

/**
 * `decisions` with `d` added, replacing any earlier decision on the same site and class, and
 * without the expired ones: what a list-backed store (a file, extension storage) writes back.
 */
export function withDecision(decisions: readonly RememberedDecision[], d: RememberedDecision, now: number): RememberedDecision[] {
  return [...decisions.filter((x) => decisionLive(x, now) && !(x.site === d.site && x.risk === d.risk)), d];
}

/** The sentence the model reads for a call a remembered decision refused. */
export function refusedByDecision(d: RememberedDecision, what: string): string {
  return `The user decided never to allow ${d.risk === "irreversible" ? "irreversible actions" : "such actions"} on ${d.site}${d.expiresAt !== undefined ? ` (until ${new Date(d.expiresAt).toISOString()})` : ""}, so ${what} was not run. Do not repeat it; find another way or ask the user.`;
}
