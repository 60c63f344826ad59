import { type AgentMessage, type HistoryEntry, MessageStatus, type SessionStatus, type StepResponse } from "@baton/gen/baton/v1/agent_pb";
import type { SessionRow } from "../store/sessions.js";
import { stepResponse } from "../store/stored-response.js";
import type { TraceRow } from "../store/traces.js";
import type { PendingWrites } from "./apply-input.js";
import type { LoopDeps } from "./deps.js";
import { agentEntry, textMessage } from "./messages.js";

/** Reads the stop reason into a user-visible line. */
export function stoppedText(s: SessionRow): string {
  return s.reason ? `Stopped: ${s.reason}` : "Stopped.";
}

/** What else a step's end writes. */
export interface FinishExtra {
  readonly reason?: string;
  readonly answer?: string;
  /** A closing text message from the agent, with its status. */
  readonly text?: string;
  readonly textStatus?: MessageStatus;
  /** The input's writes, when no model turn committed them. */
  readonly pending?: PendingWrites | undefined;
  /** A failed model call's trace. */
  readonly trace?: TraceRow | undefined;
}

/**
 * Ends a step outside a model turn's own commit: writes the final status (and an optional
 * closing text message), releases the lease and stores the response under the input's key,
 * in one commit guarded by the session's version.
 */
export async function finish(
  deps: LoopDeps,
  s: SessionRow,
  status: SessionStatus,
  messages: AgentMessage[],
  key: string | undefined,
  extra: FinishExtra = {},
): Promise<StepResponse> {
  const history: HistoryEntry[] = [...(extra.pending?.history ?? [])];
  if (extra.text) {
    const m = textMessage(s.step, 900 + messages.length, extra.text, extra.textStatus ?? MessageStatus.COMPLETED);
    messages.push(m);
    history.push(agentEntry(m));
  }
  const after = await deps.store.commit({
    from: s,
    owner: deps.instanceId,
    callUpdates: extra.pending?.callUpdates,
    history,
    trace: extra.trace,
    set: { status, ...(extra.reason !== undefined ? { reason: extra.reason } : {}), ...(extra.answer !== undefined ? { answer: extra.answer } : {}) },
    lease: null,
    response: key ? { key, messages } : undefined,
  });
  return stepResponse(after, messages);
}
