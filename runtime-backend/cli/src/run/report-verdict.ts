import { Code, ConnectError } from "@connectrpc/connect";
import type { BatonClient } from "@baton/sdk/client";

/** What the client's own checks found after the agent finished. */
export interface ClientVerdict {
  readonly passed: boolean;
  /** What did not hold, in words; empty when passed. */
  readonly reason: string;
}

/** The longest reason the contract takes (`Verdict.reason`'s max_length). */
const maxReason = 4000;

/** How long a session whose stop was just asked for may take to finish its step. */
const settleMs = 5000;

/**
 * Records the client's verdict on a finished session (ReportVerdict): `baton run` for a script's
 * expectations, `baton eval` for a task's checks, so the console shows the outcome the command
 * judged rather than the "completed" the agent claimed. A run stopped at a time limit may leave
 * its session finishing the current step, which has no verdict yet (FailedPrecondition): that is
 * asked again until the session has finished, for a few seconds. Resolves to undefined once
 * recorded, else to why the backend did not record it (the caller says so; the run's own
 * outcome stands either way).
 */
export async function reportVerdict(client: BatonClient, sessionId: string, v: ClientVerdict): Promise<string | undefined> {
  const verdict = { passed: v.passed, reason: v.passed ? "" : v.reason.slice(0, maxReason) };
  const until = Date.now() + settleMs;
  for (;;) {
    try {
      await client.reportVerdict({ sessionId, verdict });
      return undefined;
    } catch (e) {
      const err = ConnectError.from(e);
      if (err.code !== Code.FailedPrecondition || Date.now() >= until) return err.rawMessage;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
