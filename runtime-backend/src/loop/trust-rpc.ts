import { create } from "@bufbuild/protobuf";
import { type Timestamp, timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { ApprovalRule, GetSitePolicyResponse, RememberApprovalRuleRequest, SitePolicy } from "@baton/gen/baton/v1/agent_pb";
import { ApprovalRuleSchema, GetSitePolicyResponseSchema, SitePolicySchema } from "@baton/gen/baton/v1/descriptors";
import { riskEnum, toolRiskOf } from "@baton/sdk/contract";
import { type RememberedDecision, type SiteLists, siteListsOf, siteOf, urlPolicyFromLists } from "@baton/sdk/policy";
import { getAccount } from "../store/accounts.js";
import type { Queryable } from "../store/db.js";
import { setSitePolicy, sitePoliciesFor } from "../store/trust.js";
import type { LoopDeps } from "./deps.js";
import { policyNames } from "./trust.js";

/**
 * The expiry of a decision to remember, in ms: undefined for none, InvalidArgument (naming
 * `field`) when it is not in the future — a rule that has already ended would be stored to
 * decide nothing. Both ways a decision is remembered (an approval's answer, the panel's own
 * cards) ask it.
 */
export function futureExpiry(expiresAt: Timestamp | undefined, field: string): number | undefined {
  const ms = expiresAt ? timestampMs(expiresAt) : undefined;
  if (ms !== undefined && ms <= Date.now()) throw new ConnectError(`${field} (${new Date(ms).toISOString()}) is not in the future`, Code.InvalidArgument);
  return ms;
}

/** A remembered decision as the proto's ApprovalRule. */
export function approvalRuleMessage(d: RememberedDecision): ApprovalRule {
  return create(ApprovalRuleSchema, {
    id: d.id,
    site: d.site,
    risk: riskEnum(d.risk),
    allow: d.allow,
    tool: d.tool,
    createdAt: timestampFromMs(d.createdAt),
    ...(d.expiresAt !== undefined ? { expiresAt: timestampFromMs(d.expiresAt) } : {}),
  });
}

/** The user's remembered decisions still in force, newest first. */
export async function listApprovalRules(deps: LoopDeps, userId: string): Promise<ApprovalRule[]> {
  return (await deps.trust.decisions(userId)).map(approvalRuleMessage);
}

/** Forgets one of the user's remembered decisions; NotFound when they have none with that id. */
export async function revokeApprovalRule(deps: LoopDeps, userId: string, id: string): Promise<void> {
  if (!id) throw new ConnectError("id is required", Code.InvalidArgument);
  if (!(await deps.trust.revoke(userId, id))) throw new ConnectError(`you have no remembered decision ${id}`, Code.NotFound);
  deps.logger.info({ userId, rule: id }, "remembered approval revoked");
}

/**
 * Remembers a decision a client asked about itself (no call held here): the site as `siteOf`
 * gives it, so the loop's own matching (`rememberedFor`) finds it. InvalidArgument for a site
 * that is not http(s), an unspecified class, or an expiry that is not in the future.
 */
export async function rememberApprovalRule(deps: LoopDeps, userId: string, req: RememberApprovalRuleRequest): Promise<ApprovalRule> {
  const site = siteOf(req.site);
  if (!site) throw new ConnectError(`site ${JSON.stringify(req.site.slice(0, 200))} is not an http(s) origin, such as "https://shop.example"`, Code.InvalidArgument);
  const risk = toolRiskOf(req.risk);
  if (!risk) throw new ConnectError("risk is required: the action class the decision covers", Code.InvalidArgument);
  const expiresAt = futureExpiry(req.expiresAt, "expires_at");
  const d = await deps.trust.remember(userId, { site, risk, allow: req.allow, tool: req.tool, ...(expiresAt !== undefined ? { expiresAt } : {}) });
  deps.logger.info({ userId, rule: d.id, site, risk, allow: d.allow }, "approval remembered");
  return approvalRuleMessage(d);
}

const listsMessage = (l: SiteLists): SitePolicy => create(SitePolicySchema, { allowed: [...l.allowed], blocked: [...l.blocked], readOnly: [...l.readOnly] });

/** The team's policy, the user's, what their sessions are held to, and whether they may edit the team's. */
export async function getSitePolicy(deps: LoopDeps, db: Queryable, userId: string): Promise<GetSitePolicyResponse> {
  const [stored, effective, account] = await Promise.all([sitePoliciesFor(db, userId), deps.trust.sitePolicy(userId), getAccount(db, userId)]);
  return create(GetSitePolicyResponseSchema, {
    team: listsMessage(stored.team),
    user: listsMessage(stored.user),
    effective: listsMessage(siteListsOf(effective)),
    canEditTeam: account?.admin ?? false,
  });
}

/**
 * Replaces the user's own policy, or the team's (admins only: PermissionDenied otherwise).
 * Every entry is checked first: one that is neither an origin nor a host is InvalidArgument
 * naming it, and nothing is stored.
 */
export async function putSitePolicy(deps: LoopDeps, db: Queryable, userId: string, policy: SitePolicy | undefined, team: boolean): Promise<GetSitePolicyResponse> {
  if (team && !(await getAccount(db, userId))?.admin) throw new ConnectError("only an admin may change the team's site policy", Code.PermissionDenied);
  const trim = (l: readonly string[]) => l.map((e) => e.trim()).filter(Boolean);
  const lists: SiteLists = { allowed: trim(policy?.allowed ?? []), blocked: trim(policy?.blocked ?? []), readOnly: trim(policy?.readOnly ?? []) };
  try {
    urlPolicyFromLists(lists, { allowed: "policy.allowed", blocked: "policy.blocked", readOnly: "policy.read_only" });
  } catch (e) {
    throw new ConnectError(e instanceof Error ? e.message : String(e), Code.InvalidArgument);
  }
  await setSitePolicy(db, team ? { team: true } : { userId }, lists, userId);
  // The team's policy holds every user's sessions.
  deps.trust.forget?.(team ? undefined : userId);
  deps.logger.info({ userId, scope: team ? policyNames.team : policyNames.user, ...lists }, "site policy changed");
  return getSitePolicy(deps, db, userId);
}
