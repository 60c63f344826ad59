/**
 * `npm run bench:turn-write -- [sessions…]`: the embedded store's grouped turn
 * write (`commitTurn`) on its own, on the calling thread, in a store holding `sessions`
 * sessions (default 1300 and 5000): milliseconds per group of 1, 4, 16 and 50 turns, each turn
 * shaped like the bench's (one click call, its history entry, the previous call done, a trace,
 * a context line, a stored response). What one group costs the store's worker, without HTTP,
 * the loop or the worker's messaging.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { emptyContext } from "../src/context/state.js";
import { openDb } from "../src/store/open.js";
import { insertSession } from "../src/store/sessions.js";
import { commitTurn, type TurnWrite } from "../src/store/turns.js";
import { ensureUser } from "../src/store/users.js";

const counts = process.argv.slice(2).map(Number).filter((n) => n > 0);
const groups = [1, 4, 16, 50];
const rounds = 400;

/** The next turn of session `id`, given how far it got. */
function turn(id: string, at: { step: number; len: number }): TurnWrite {
  const step = at.step + 1;
  const call = `call_${id}_${step}`;
  const message = JSON.stringify({ id: `m_${id}_${step}`, functionCall: { toolcallId: call, name: "click", arguments: '{"ref":"e1"}' } });
  const history = [
    ...(step > 1 ? [{ step: step - 1, entry: JSON.stringify({ toolcallResult: { toolcallId: `call_${id}_${step - 1}`, result: { click: {} } } }) }] : []),
    { step, entry: JSON.stringify({ step, agentMessage: JSON.parse(message) }) },
  ];
  return {
    sessionId: id,
    expectLen: at.len,
    owner: "bench",
    done: step > 1 ? [{ id: `call_${id}_${step - 1}`, step: step - 1, output: '{"click":{}}' }] : [],
    calls: [{ toolcallId: call, step, ord: 0, name: "click", arguments: '{"ref":"e1"}', side: "client", state: "pending", message, output: null }],
    history,
    trace: { step, model: "script", latencyMs: 1000, usage: { input: 500, output: 20, cached: 0, cost: 0 }, toolCalls: ["click"], errors: [] },
    lines: [{ seq: step - 1, line: `step ${step}: click({"ref":"e1"}) → {}` }],
    session: {
      step,
      context: JSON.stringify({ goal: `bench ${id}`, macro: [] }),
      contextFrom: 0,
      trim: false,
      goal: `bench ${id}`,
      status: SessionStatus.AWAITING_TOOLS,
      stopGuard: true,
      leaseUntil: null,
      leaseOwner: undefined,
    },
    response: { key: `k_${step}`, json: JSON.stringify({ messages: [JSON.parse(message)] }) },
  };
}

for (const sessions of counts.length ? counts : [1300, 5000]) {
  const dir = mkdtempSync(join(tmpdir(), "baton-turn-write-"));
  const db = await openDb({ dataDir: dir, embeddedThread: "inline" });
  try {
    await ensureUser(db, "bench");
    const ids: string[] = [];
    for (let i = 0; i < sessions; i++) {
      const s = await insertSession(db, { id: `ses_${i}`, userId: "bench", task: `bench ${i}`, model: "script", maxSteps: 1e6, playbook: "", playbookInstructions: "", context: emptyContext(`bench ${i}`) });
      ids.push(s.id);
    }
    const at = new Map(ids.map((id) => [id, { step: 0, len: 0 }]));
    const out: string[] = [];
    for (const size of groups) {
      let next = 0;
      const t0 = performance.now();
      for (let r = 0; r < rounds; r++) {
        const batch = Array.from({ length: size }, () => ids[next++ % ids.length] as string);
        const rows = await Promise.all(
          batch.map((id) => {
            const cur = at.get(id) ?? { step: 0, len: 0 };
            const w = turn(id, cur);
            at.set(id, { step: cur.step + 1, len: cur.len + w.history.length });
            return commitTurn(db, w);
          }),
        );
        if (rows.some((row) => !row)) throw new Error("a turn lost its version guard");
      }
      out.push(`group of ${size}: ${((performance.now() - t0) / rounds).toFixed(2)} ms`);
    }
    console.log(`${sessions} sessions: ${out.join(", ")}`);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
