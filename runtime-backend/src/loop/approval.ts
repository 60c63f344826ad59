import type { ToolRisk } from "@baton/sdk/contract";

/** Decides which tool calls wait for an explicit user approval before they run. */
export interface ApprovalPolicy {
  /**
   * True when a call to `tool` (snake_case) must be approved first. `risk` is the call's risk:
   * the tool's, raised to irreversible when the model set its irreversible flag (`callRisk`).
   */
  needsApproval(tool: string, risk: ToolRisk): boolean;
}

/** Configuration of {@link riskPolicy}. */
export interface RiskPolicyOptions {
  /** Risk classes that need approval; irreversible by default. */
  readonly risks?: readonly ToolRisk[];
  /** Tools (snake_case) that always need approval, whatever their risk. */
  readonly always?: readonly string[];
  /** Tools (snake_case) that never need approval, whatever their risk. */
  readonly never?: readonly string[];
}

/**
 * The default policy: approval by the risk of the call, with per-tool overrides. The risk is
 * the tool's, raised to irreversible when the model set the tool's irreversible flag (a click
 * that places an order), so one risky click is gated without gating every click.
 */
export function riskPolicy(o: RiskPolicyOptions = {}): ApprovalPolicy {
  const risks = new Set<ToolRisk>(o.risks ?? ["irreversible"]);
  const always = new Set(o.always ?? []);
  const never = new Set(o.never ?? []);
  return {
    needsApproval: (tool, risk) => !never.has(tool) && (always.has(tool) || risks.has(risk)),
  };
}
