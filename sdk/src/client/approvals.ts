import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { ApprovalScope, MessageStatus, type ToolcallResult } from "@baton/gen/baton/v1/agent_pb";
import { ToolcallResultSchema } from "@baton/gen/baton/v1/descriptors";
import type { ToolCall } from "@baton/gen/baton/v1/tools_pb";
import type { ToolRisk, ToolRoute } from "../contract/index.js";
import type { BatonClient } from "./create-client.js";
import { sleep } from "./retry.js";

/** A call to a client-declared tool: its name and the model's raw arguments. */
export interface ExtensionCallInfo {
  readonly name: string;
  readonly argumentsJson: string;
}

/** A call waiting for the user's approval. */
export interface ApprovalRequest {
  readonly toolcallId: string;
  readonly tool: ToolRoute;
  /** The typed call; empty (no case) for a client-declared tool, see `extension`. */
  readonly call: ToolCall;
  /** Set for a call to a client-declared tool. */
  readonly extension?: ExtensionCallInfo;
  /**
   * The site the call acts on (an origin), as the backend holds it: a decision remembered for
   * this call covers it. Empty when the backend does not know it; then only "once" can be
   * answered.
   */
  readonly site: string;
  /** The call's action class (the catalog's risk, raised by its irreversible flag): a remembered decision covers it. */
  readonly risk: ToolRisk | undefined;
  /**
   * Aborts when the question no longer needs an answer here: the call was decided elsewhere
   * (the console), or the run stopped. The prompt should close.
   */
  readonly signal: AbortSignal;
}

/** The user's decision on an {@link ApprovalRequest}. */
export interface ApprovalDecision {
  readonly approved: boolean;
  /** Why; shown to the model on denial. */
  readonly reason?: string;
  /**
   * "site": remember the decision for every call of this action class on this site ("always"
   * when approved, "never" when denied); "once" (default): this call only.
   */
  readonly scope?: "once" | "site";
  /** With scope "site": when the remembered decision stops applying (ms since the epoch); unset, until revoked. */
  readonly expiresAt?: number;
}

/** The Approval result that answers `toolcallId` with `decision`. */
export function approvalResult(toolcallId: string, decision: ApprovalDecision): ToolcallResult {
  const site = decision.scope === "site";
  return create(ToolcallResultSchema, {
    toolcallId,
    outcome: {
      case: "approval",
      value: {
        approved: decision.approved,
        reason: decision.reason ?? "",
        scope: site ? ApprovalScope.SITE : ApprovalScope.ONCE,
        ...(site && decision.expiresAt !== undefined ? { expiresAt: timestampFromMs(decision.expiresAt) } : {}),
      },
    },
  });
}

/**
 * Resolves once the call no longer awaits approval in the backend — someone decided it
 * elsewhere (the console) — by reading the session every `everyMs`; never resolves before
 * `signal` aborts otherwise. Read failures are ignored: the run's own requests report them.
 */
export async function decidedElsewhere(client: BatonClient, sessionId: string, toolcallId: string, signal: AbortSignal, everyMs = 2_000): Promise<void> {
  for (;;) {
    await sleep(everyMs, signal);
    const got = await client.getSession({ sessionId }, { signal }).catch(() => undefined);
    if (!got) continue;
    const waiting = got.pendingCalls.some((m) => m.status === MessageStatus.AWAITING_APPROVAL && m.content.case === "functionCall" && m.content.value.toolcallId === toolcallId);
    if (!waiting) return;
  }
}
