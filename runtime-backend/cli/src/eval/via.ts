import type { ApprovalDecision, ApprovalRequest, BatonClient, RunEvent, Secret, TaskBudget, TaskOutcome } from "@baton/sdk/client";
import type { UrlPolicy } from "@baton/sdk/policy";
import type { PageProbe } from "@baton/sdk/script";

/** How the agent reaches the browser: the Node runner, or the extension in the user's Chrome. */
export type ViaName = "headless" | "extension";

/** The backend the harness started: where a browser-side agent (the extension) signs in. */
export interface EvalBackend {
  readonly baseUrl: string;
  /** Bearer token; never printed. */
  readonly token: string;
}

/** One run of one task, as the harness hands it to a lane. */
export interface AttemptJob {
  readonly client: BatonClient;
  readonly backend: EvalBackend;
  /** The task the agent is given. */
  readonly goal: string;
  readonly startUrl: string;
  readonly model: string;
  readonly maxSteps: number;
  /** Aborts at the task's time limit. */
  readonly signal: AbortSignal;
  readonly onEvent: (e: RunEvent) => void;
  /** The decision on a held call (the task's `approve`); the request when the lane has it. */
  readonly onApproval: (r?: ApprovalRequest) => ApprovalDecision;
  /** ask_user's answer; unset: the user is not available. */
  readonly userReply?: string;
  /** Relative upload_file paths resolve here (the suite's `files/`). */
  readonly filesDir: string;
  /** The task's own site policy (on top of the command's): only vias that can hold a browser to it get one. */
  readonly policy?: UrlPolicy;
  /** Secrets typed where the model writes `<secret>NAME</secret>`, painted over in the run's screenshot. */
  readonly secrets?: readonly Secret[];
  readonly budget?: TaskBudget;
}

/** What a lane that gets no {@link RunEvent}s saw of a run's tools. */
export interface ToolTally {
  /** Time in tools. */
  readonly toolMs: number;
  /** Tool errors, as `tool: first line`. */
  readonly errors: readonly string[];
  /** Calls held for approval (and decided). */
  readonly approvals: number;
}

/** A finished run whose page is still open for the checks. */
export interface Attempt {
  readonly outcome: TaskOutcome;
  /** Set by a lane whose runs do not call `onEvent` (the extension runs the tools itself). */
  readonly tally?: ToolTally;
  /** The final page (the active tab). */
  readonly page: PageProbe;
  /** The visible part of the final page as a JPEG data URL (undefined when it cannot be taken). */
  screenshot(): Promise<string | undefined>;
  /** Closes what the run opened. */
  end(): Promise<void>;
}

/** A browser that runs one attempt at a time; the harness opens one per --concurrency. */
export interface Lane {
  /** The remote browser's endpoint (`--cdp-url`) the lane runs in; unset for a browser the lane launched. */
  readonly browser?: string;
  attempt(job: AttemptJob): Promise<Attempt>;
  close(): Promise<void>;
}

/** A way of running tasks in a browser ("--via"). */
export interface Via {
  readonly name: ViaName;
  openLane(): Promise<Lane>;
}

/** A --via that cannot be used here, with the reason. */
export class ViaUnavailable extends Error {
  override readonly name = "ViaUnavailable";
}
