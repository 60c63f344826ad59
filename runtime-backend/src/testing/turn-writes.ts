import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { emptyContext } from "../context/state.js";
import type { Queryable } from "../store/db.js";
import { insertSession } from "../store/sessions.js";
import type { TurnWrite } from "../store/turns.js";

/** How far a session got, for {@link nextTurn}. */
export interface TurnPosition {
  step: number;
  len: number;
}

/**
 * The next model turn of session `id`, shaped like the backend bench's: one `click` call, its
 * history entry, the previous call done with its result entry, a trace, a context line and a
 * stored response. Advances `at`. `o` overrides parts of it (a stop guard, a lease, usage).
 */
export function nextTurn(
  id: string,
  at: TurnPosition,
  o: { owner?: string; stopGuard?: boolean; leaseUntil?: Date | null; usage?: { input: number; output: number; cached: number; cost: number } } = {},
): TurnWrite {
  const step = at.step + 1;
  const call = `call_${step}_0`;
  const message = JSON.stringify({ id: `msg_${step}_1`, functionCall: { toolcallId: call, call: { click: { ref: "e1" } } } });
  const history = [
    ...(step > 1 ? [{ step: step - 1, entry: JSON.stringify({ step: step - 1, toolcallResult: { toolcallId: `call_${step - 1}_0`, result: { click: {} } } }) }] : []),
    { step, entry: `{"step":${step},"agentMessage":${message}}` },
  ];
  const w: TurnWrite = {
    sessionId: id,
    expectLen: at.len,
    owner: o.owner ?? "bench",
    done: step > 1 ? [{ id: `call_${step - 1}_0`, step: step - 1, output: '{"click":{}}' }] : [],
    calls: [{ toolcallId: call, step, ord: 0, name: "click", arguments: '{"ref":"e1"}', side: "client", state: "pending", message, output: null }],
    history,
    trace: { step, model: "script", latencyMs: 1000, usage: o.usage ?? { input: 500, output: 20, cached: 0, cost: 0.25 }, toolCalls: ["click"], errors: [] },
    lines: [{ seq: step - 1, line: `step ${step}: click({"ref":"e1"}) → {}` }],
    session: {
      step,
      context: JSON.stringify({ goal: `bench ${id}`, isTask: true, macro: [], latest: { step, text: "", calls: [{ id: call, name: "click", arguments: '{"ref":"e1"}' }] }, user: [], pendingUser: null }),
      contextFrom: 0,
      trim: false,
      goal: `bench ${id}`,
      status: SessionStatus.AWAITING_TOOLS,
      stopGuard: o.stopGuard ?? true,
      leaseUntil: o.leaseUntil ?? null,
      leaseOwner: o.leaseUntil ? (o.owner ?? "bench") : undefined,
    },
    response: { key: `res:r:call_${step - 1}_0`, body: new Uint8Array([10, 3, 0x6d, 0x73, step % 256]) },
  };
  at.step = step;
  at.len += history.length;
  return w;
}

/** Inserts `n` sessions of user `userId` (which must exist) named `${prefix}0`…; returns their ids. */
export async function benchSessions(q: Queryable, userId: string, n: number, prefix = "ses_"): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = await insertSession(q, { id: `${prefix}${i}`, userId, task: `bench ${i}`, model: "script", maxSteps: 1e6, playbook: "", playbookInstructions: "", context: emptyContext(`bench ${i}`) });
    ids.push(s.id);
  }
  return ids;
}
