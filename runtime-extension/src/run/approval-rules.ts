import type { ApprovalRule } from "@baton/gen/baton/v1/agent_pb";
import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import type { BatonClient } from "@baton/sdk/client";
import { riskEnum, type ToolRisk, toolRiskOf } from "@baton/sdk/contract";
import type { RememberedDecision } from "@baton/sdk/policy";

/** What a remembered answer to an approval card would cover. */
export interface RememberScope {
  /** The site (an origin). */
  readonly site: string;
  /** The action class (the catalog's risk, raised by the call's irreversible flag). */
  readonly risk: ToolRisk;
}

/** A decision to remember: a site, an action class, always or never, until when. */
export type NewDecision = Omit<RememberedDecision, "id" | "createdAt">;

/**
 * The remembered approvals the panel's own cards consult and add to: the same rules the loop's
 * cards store, read and written on the run's AgentService (the backend in connected mode, the
 * panel's own store in standalone mode), so Settings, the console and Revoke see one list.
 */
export interface ApprovalRules {
  /** The rules in force. */
  decisions(): Promise<readonly RememberedDecision[]>;
  /** Remembers one, replacing the earlier one on the same site and class. */
  remember(d: NewDecision): Promise<RememberedDecision>;
}

/** A rule as the proto carries it, as `rememberedFor` reads it (undefined: a class this build does not know). */
export function decisionOfRule(r: ApprovalRule): RememberedDecision | undefined {
  const risk = toolRiskOf(r.risk);
  if (!risk) return undefined;
  return {
    id: r.id,
    site: r.site,
    risk,
    allow: r.allow,
    tool: r.tool,
    createdAt: r.createdAt ? timestampMs(r.createdAt) : 0,
    ...(r.expiresAt ? { expiresAt: timestampMs(r.expiresAt) } : {}),
  };
}

/** {@link ApprovalRules} over ListApprovalRules / RememberApprovalRule. */
export function serviceApprovalRules(client: BatonClient): ApprovalRules {
  return {
    decisions: async () => (await client.listApprovalRules({})).rules.flatMap((r) => decisionOfRule(r) ?? []),
    async remember(d) {
      const { rule } = await client.rememberApprovalRule({
        site: d.site,
        risk: riskEnum(d.risk),
        allow: d.allow,
        tool: d.tool,
        ...(d.expiresAt !== undefined ? { expiresAt: timestampFromMs(d.expiresAt) } : {}),
      });
      const kept = rule ? decisionOfRule(rule) : undefined;
      if (!kept) throw new Error("the AgentService stored the decision but did not return it");
      return kept;
    },
  };
}
