import { create } from "@bufbuild/protobuf";
import { type AgentMessage, MessageStatus, SessionStatus, type StepResponse, StepResponseSchema } from "@baton/gen/baton/v1/agent_pb";
import type { Stmt } from "../store/db.js";
import { appendHistoryStmt, saveResponse } from "../store/records.js";
import { type SessionRow, sessionFromRow, sessionMessage, updateSessionStmt } from "../store/sessions.js";
import type { LoopDeps } from "./deps.js";
import { agentEntry, textMessage } from "./messages.js";

/** Reads the stop reason into a user-visible line. */
export function stoppedText(s: SessionRow): string {
  return s.reason ? `Stopped: ${s.reason}` : "Stopped.";
}

/**
 * Ends a step outside the fast path: writes the final status (and an optional closing text
 * message), clears the lease, and stores the response under the input's key.
 */
export async function finish(
  deps: LoopDeps,
  s: SessionRow,
  status: SessionStatus,
  messages: AgentMessage[],
  key: string | undefined,
  extra: { reason?: string; answer?: string; text?: string; textStatus?: MessageStatus } = {},
): Promise<StepResponse> {
  const stmts: Stmt[] = [];
  let len = s.historyLen;
  if (extra.text) {
    const m = textMessage(s.step, 900 + messages.length, extra.text, extra.textStatus ?? MessageStatus.COMPLETED);
    messages.push(m);
    const st = appendHistoryStmt(s.id, len, [agentEntry(m)]);
    if (st) stmts.push(st);
    len += 1;
  }
  stmts.push(
    updateSessionStmt(s.id, {
      status,
      leaseUntil: null,
      historyLen: len,
      ...(extra.reason !== undefined ? { reason: extra.reason } : {}),
      ...(extra.answer !== undefined ? { answer: extra.answer } : {}),
    }),
  );
  const out = await deps.db.batch(stmts);
  const row = out.at(-1)?.[0];
  const response = create(StepResponseSchema, { messages, session: sessionMessage(row ? sessionFromRow(row) : s) });
  if (key) await saveResponse(deps.db, s.id, key, response);
  return response;
}

