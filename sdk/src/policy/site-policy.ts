import type { ToolRisk } from "../contract/catalog.js";
import { ToolErrorCode, ToolFailure } from "../contract/tool-error.js";
import { parseSiteList, type SitePattern, siteCovers, siteMatches } from "./site-list.js";
import { decideUrl, describeSites, hasSiteLists, type UrlPolicy } from "./url-policy.js";

/** A site policy as plain lists of origins and hosts: what a policy file, the proto and the settings hold. */
export interface SiteLists {
  readonly allowed: readonly string[];
  readonly blocked: readonly string[];
  readonly readOnly: readonly string[];
}

/** Keys a policy object may have, and the list each fills. */
const listKeys: Record<string, keyof SiteLists> = { allowed: "allowed", blocked: "blocked", read_only: "readOnly", readOnly: "readOnly", "read-only": "readOnly" };

/**
 * A policy from a parsed policy file (JSON or YAML) or settings object: `allowed`, `blocked`
 * and `read_only` (also `readOnly`), each a list of origins and hosts (or one `;`-separated
 * string). Throws an Error that names `source` and the key or entry at fault; every pattern
 * records `source` as where it came from.
 */
export function sitePolicyFromObject(value: unknown, source: string): UrlPolicy {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${source}: a site policy is an object with "allowed", "blocked" and "read_only" lists`);
  }
  const lists: Record<keyof SiteLists, string[]> = { allowed: [], blocked: [], readOnly: [] };
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const list = listKeys[k];
    if (!list) throw new Error(`${source}: unknown key "${k}" (known: allowed, blocked, read_only)`);
    if (v === null || v === undefined) continue;
    const entries = typeof v === "string" ? v.split(/[;,]/) : v;
    if (!Array.isArray(entries) || entries.some((e) => typeof e !== "string")) throw new Error(`${source}: "${k}" must be a list of origins or hosts`);
    lists[list].push(...(entries as string[]));
  }
  return sitePolicyFromLists(lists, source);
}

/** A policy from plain lists; throws an Error naming `source` on an entry that is neither an origin nor a host. */
export function sitePolicyFromLists(lists: Partial<SiteLists>, source: string): UrlPolicy {
  return { allowed: parseSiteList(lists.allowed ?? [], source), blocked: parseSiteList(lists.blocked ?? [], source), readOnly: parseSiteList(lists.readOnly ?? [], source) };
}

/** The policy's lists as text, each entry as it was written. */
export function siteListsOf(policy: UrlPolicy): SiteLists {
  const texts = (ps: readonly SitePattern[]) => ps.filter((p) => p.host.name !== "").map((p) => p.text);
  return { allowed: texts(policy.allowed), blocked: texts(policy.blocked), readOnly: texts(policy.readOnly) };
}

/**
 * The pattern an allow list is left with when the lists it was merged from share no site: it
 * matches nothing, so nothing loads (an empty allow list would mean "anything").
 */
function nothingAllowed(from: readonly SitePattern[]): SitePattern {
  return { text: `no site (the allow lists ${describeSites(from)} have none in common)`, host: { name: "", loopback: false }, subdomains: false };
}

/** The sites both allow lists allow; either list alone when the other is empty (no limit). */
function intersectAllowed(a: readonly SitePattern[], b: readonly SitePattern[]): readonly SitePattern[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const both = [...a.filter((p) => b.some((q) => siteCovers(q, p))), ...b.filter((q) => a.some((p) => siteCovers(p, q)))];
  return both.length > 0 ? both : [nothingAllowed([...a, ...b])];
}

/**
 * Several policies as one, none loosening another: every blocked and read-only site of each,
 * and only the sites every allow list allows (a policy without one limits nothing). The team's
 * policy and a user's, a policy file and `--allowed-origins`, the extension's settings and its
 * backend's: each surface merges what applies to it here.
 */
export function mergeUrlPolicies(...policies: readonly UrlPolicy[]): UrlPolicy {
  return policies.reduce<UrlPolicy>(
    (m, p) => ({ allowed: intersectAllowed(m.allowed, p.allowed), blocked: [...m.blocked, ...p.blocked], readOnly: [...m.readOnly, ...p.readOnly] }),
    { allowed: [], blocked: [], readOnly: [] },
  );
}

/** The policy's answer about an action: allowed, or refused with the rule, the site and a sentence for the model. */
export type ActionDecision =
  | { readonly allow: true }
  | { readonly allow: false; readonly rule: "read-only" | "blocked" | "not-allowed"; readonly site: string; readonly reason: string };

const allowAction: ActionDecision = { allow: true };

/**
 * May a call of action class `risk` (`actionClass`: the catalog's risk, raised by the call's
 * irreversible flag) act on the page at `pageUrl`? Nothing runs on a page the policy would not
 * load, reading included: a tab can show a blocked site that loaded before a policy held it (the
 * tab an extension task starts in, a site blocked while the agent is on it), and what is read
 * there would reach the model. On a read-only site a call that only reads may, one that would change
 * something may not. An unknown page (no URL, not http(s)) is not refused here: what loads is
 * `decideUrl`'s question. The one answer the engine, the backend's loop and the MCP server ask.
 */
export function decideAction(policy: UrlPolicy, pageUrl: string | undefined, risk: ToolRisk | undefined): ActionDecision {
  if (risk === undefined || !pageUrl) return allowAction;
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return allowAction;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return allowAction;
  const load = decideUrl(policy, url, "page");
  if (!load.allow && (load.rule === "blocked" || load.rule === "not-allowed")) {
    const what = risk === "read_only" ? "read" : "acted on";
    return { allow: false, rule: load.rule, site: url.origin, reason: `This page may not be ${what}: ${load.reason}` };
  }
  if (risk === "read_only") return allowAction;
  const ro = policy.readOnly.find((p) => siteMatches(p, url));
  if (!ro) return allowAction;
  const rule = `${ro.from ? `${ro.from}: ` : ""}read-only ${ro.text}`;
  return {
    allow: false,
    rule: "read-only",
    site: url.origin,
    reason: `${url.origin} is a read-only site (${rule}): its pages can be read, but no ${risk === "irreversible" ? "irreversible" : "mutating"} action (click, typing, form changes) runs there. Read what you need, navigate elsewhere, or ask the user to do this step.`,
  };
}

/**
 * May a call of action class `risk` read or act in a frame at `frameUrl` (a page's child frame,
 * not its top document)? As {@link decideAction}, except for a frame whose address is not known
 * yet (""): an out-of-process frame is known by its session before its URL arrives, so it may
 * be any site. It is refused while the policy would refuse this call on some site: a read while
 * the policy blocks or limits sites, a change while it also names read-only ones. The one answer
 * to "is this frame read" (snapshots, screenshots, evidence) and "may this call act in it".
 */
export function decideFrame(policy: UrlPolicy, frameUrl: string, risk: ToolRisk | undefined): ActionDecision {
  if (frameUrl !== "" || risk === undefined) return decideAction(policy, frameUrl, risk);
  const limitsLoading = hasSiteLists(policy);
  if (!limitsLoading && (risk === "read_only" || policy.readOnly.length === 0)) return allowAction;
  const what = risk === "read_only" ? "read" : "acted on";
  const sites = limitsLoading ? "refuses some sites" : "keeps some sites read-only";
  return {
    allow: false,
    rule: limitsLoading ? "not-allowed" : "read-only",
    site: "",
    reason: `A frame whose address is not known yet may not be ${what} while the site policy ${sites}: it may be one of them. Take a new snapshot once the frame has loaded.`,
  };
}

/**
 * Throws the tool error a call gets when {@link decideAction} refuses it on the page at
 * `pageUrl` or {@link decideFrame} in one of `frameUrls` (the model reads that nothing was done
 * and why), so every surface that acts refuses in the same words.
 */
export function refuseUnlessAllowed(policy: UrlPolicy, pageUrl: string | undefined, risk: ToolRisk | undefined, frameUrls: readonly string[] = []): void {
  for (const d of [decideAction(policy, pageUrl, risk), ...frameUrls.map((u) => decideFrame(policy, u, risk))]) {
    if (!d.allow) throw new ToolFailure(ToolErrorCode.PERMISSION_DENIED, `Refused, nothing was done: ${d.reason}`);
  }
}
