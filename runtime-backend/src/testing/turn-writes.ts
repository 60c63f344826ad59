import { create } from "@bufbuild/protobuf";
import { MessageStatus, SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { ToolcallResultSchema, ToolCallSchema } from "@baton/gen/baton/v1/descriptors";
import { emptyContext } from "../context/state.js";
import { agentEntry, callMessage, resultEntry } from "../loop/messages.js";
import type { Queryable } from "../store/db.js";
import type { SessionCommit } from "../store/session-store.js";
import { insertSession, type SessionRow } from "../store/sessions.js";

/**
 * The next model turn of a session, shaped like the backend bench's: one `click` call, its
 * history entry, the previous call done with its result entry, a trace, a context line and a
 * stored response. `o` overrides parts of it (the owner, a lease, the stop guard, usage).
 */
export function nextTurn(
  s: SessionRow,
  o: { owner?: string; stopGuard?: boolean; lease?: Date | null; usage?: { input: number; output: number; cached: number; cost: number } } = {},
): SessionCommit {
  const step = s.step + 1;
  const id = `call_${step}_0`;
  const message = callMessage(step, 1, id, create(ToolCallSchema, { tool: { case: "click", value: { ref: "e1" } } }), MessageStatus.COMPLETED);
  const prev = `call_${step - 1}_0`;
  const result = create(ToolcallResultSchema, { toolcallId: prev, outcome: { case: "result", value: { tool: { case: "click", value: {} } } } });
  const context = { ...s.context, goal: `bench ${s.id}`, isTask: true, micro: [...s.context.micro, `step ${step}: click({"ref":"e1"}) → {}`], latest: { step, text: "", calls: [{ id, name: "click", arguments: '{"ref":"e1"}' }] } };
  return {
    from: s,
    owner: o.owner ?? "bench",
    callUpdates: step > 1 ? [{ id: prev, step: step - 1, state: "done", output: '{"click":{}}' }] : [],
    newCalls: [{ toolcallId: id, step, ord: 0, name: "click", arguments: '{"ref":"e1"}', side: "client", state: "pending", message, output: null }],
    history: [...(step > 1 ? [resultEntry(step - 1, result)] : []), agentEntry(message)],
    trace: { step, model: "script", latencyMs: 1000, usage: o.usage ?? { input: 500, output: 20, cached: 0, cost: 0.25 }, toolCalls: ["click"], errors: [] },
    set: { step, context, goal: context.goal, status: SessionStatus.AWAITING_TOOLS },
    lease: o.lease ?? null,
    stopGuard: o.stopGuard ?? true,
    response: { key: `res:r:${prev}`, messages: [message] },
  };
}

/** Inserts `n` sessions of user `userId` (which must exist) named `${prefix}0`…; returns them. */
export async function benchSessions(q: Queryable, userId: string, n: number, prefix = "ses_"): Promise<SessionRow[]> {
  const out: SessionRow[] = [];
  for (let i = 0; i < n; i++) {
    out.push(await insertSession(q, { id: `${prefix}${i}`, userId, task: `bench ${i}`, model: "script", maxSteps: 1e6, playbook: "", playbookInstructions: "", context: emptyContext(`bench ${i}`) }));
  }
  return out;
}
