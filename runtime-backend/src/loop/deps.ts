import type { LogSink } from "../log/log-sink.js";
import type { Redact } from "../log/redact.js";
import type { ModelResolver } from "../providers/types.js";
import type { SessionStore } from "../store/session-store.js";
import type { SessionRow } from "../store/sessions.js";
import type { FoldOptions } from "../context/fold.js";
import type { ApprovalPolicy } from "./approval.js";
import type { Price } from "./pricing.js";
import type { SessionCache } from "./session-cache.js";
import type { TrustSource } from "./trust.js";

export type { ModelResolver, ResolvedModel } from "../providers/types.js";

/** What the loop runs on. */
export interface LoopDeps {
  /** Everything the loop reads and persists. */
  readonly store: SessionStore;
  readonly resolveModel: ModelResolver;
  readonly approval: ApprovalPolicy;
  /** Remembered approval decisions and the site policy (`trust.ts`). */
  readonly trust: TrustSource;
  readonly fold: FoldOptions;
  readonly logger: LogSink;
  /** How long a running step owns its session before another replica may take over. */
  readonly leaseMs: number;
  /** How often a running step renews its lease and re-reads the stop flag. */
  readonly heartbeatMs: number;
  readonly prices: Readonly<Record<string, Price>>;
  /** This agent instance, as a lease owner: its own lease never blocks its own writes. */
  readonly instanceId: string;
  /** Sessions' last committed state in this process, so a step can start without a read. */
  readonly cache?: SessionCache | undefined;
  /**
   * Masks the operator's secrets in text that came from outside (a provider's error, a
   * client's log entry) before it is stored or returned to any user.
   */
  readonly redact: Redact;
  /** How many client log entries a session keeps; ReportLog past it is ResourceExhausted. */
  readonly maxLogsPerSession: number;
  /**
   * Daily quotas (`quota.ts`): why the session's user may not call the model now, asked
   * before every model call; undefined (or no guard) lets the call go ahead.
   */
  readonly quota?: { check(s: SessionRow): string | undefined | Promise<string | undefined> } | undefined;
}

/** The end of a fresh lease for this instance. */
export function leaseUntil(deps: LoopDeps): Date {
  return new Date(Date.now() + deps.leaseMs);
}

/** Events of a streamed step. */
export type StepEvent =
  /** A model call starts; `attempt` > 1 is a retry, whose stream replaces the earlier one's. */
  | { readonly kind: "thinking"; readonly attempt: number }
  | { readonly kind: "tool"; readonly tool: string; readonly detail: string }
  /** Visible text as it streams (control tags removed). */
  | { readonly kind: "text"; readonly delta: string }
  | { readonly kind: "reasoning"; readonly delta: string };
