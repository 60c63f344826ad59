import { ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import type { ToolRisk } from "@baton/sdk/contract";
import { decideAction, refusedByDecision, type RememberedDecision, rememberedFor, siteOf, type UrlPolicy } from "@baton/sdk/policy";
import type { SessionRow } from "../store/sessions.js";
import type { LoopDeps } from "./deps.js";

/** What the loop does with a call the model made, before it reaches the client. */
export type Gate =
  /** It goes ahead (`remembered`: a decision the user asked to have remembered let it). */
  | { readonly kind: "run"; readonly remembered?: RememberedDecision }
  /** It waits for the user's approval; `site` and `risk` are what a remembered answer would cover. */
  | { readonly kind: "ask"; readonly site: string; readonly risk: ToolRisk }
  /**
   * It is refused here, never sent: the model reads `message`. `closeRest`: the calls the model
   * made after it in the same turn were planned on its outcome and are closed unrun.
   */
  | { readonly kind: "refuse"; readonly code: ToolErrorCode; readonly message: string; readonly closeRest: boolean };

/**
 * The trust checks of one model turn's calls, in one place: the site policy (`decideAction`:
 * a call that would change a page on a read-only site is refused before it is sent), then the
 * approval policy with the user's remembered decisions ("always" lets the call run without
 * asking, "never" refuses it). The policy and the decisions are read once per turn, and only
 * when a call needs them.
 */
export class CallGate {
  #policy: Promise<UrlPolicy> | undefined;
  #decisions: Promise<readonly RememberedDecision[]> | undefined;

  constructor(
    private readonly deps: LoopDeps,
    private readonly s: SessionRow,
    private readonly pageUrl: string | undefined,
  ) {}

  /**
   * The gate of a call to `tool` whose action class is `risk` (`callRisk`); `pageRisk` is its
   * class on the page it acts on (`pageActionClass`; undefined for a call that acts in no page).
   */
  async check(tool: string, risk: ToolRisk, pageRisk: ToolRisk | undefined): Promise<Gate> {
    if (this.pageUrl && pageRisk !== undefined && pageRisk !== "read_only") {
      this.#policy ??= this.deps.trust.sitePolicy(this.s.userId);
      const d = decideAction(await this.#policy, this.pageUrl, pageRisk);
      if (!d.allow) return { kind: "refuse", code: ToolErrorCode.PERMISSION_DENIED, message: `Refused before it reached the browser, nothing was done: ${d.reason}`, closeRest: false };
    }
    if (!this.deps.approval.needsApproval(tool, risk)) return { kind: "run" };
    const site = siteOf(this.pageUrl) ?? "";
    if (site) {
      this.#decisions ??= this.deps.trust.decisions(this.s.userId);
      const remembered = rememberedFor(await this.#decisions, this.pageUrl, risk, Date.now());
      if (remembered?.allow) return { kind: "run", remembered };
      if (remembered) return { kind: "refuse", code: ToolErrorCode.DENIED, message: refusedByDecision(remembered, `this ${tool} call`), closeRest: true };
    }
    return { kind: "ask", site, risk };
  }
}
