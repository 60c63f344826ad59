/**
 * Run as a child process by `turn-journal.test.ts`: opens the embedded store in `dir` with the
 * journal's applying held back (10 minutes), commits `turns` turns to each of `sessions`
 * sessions, prints one JSON line (what it committed, what the worker had applied), and then
 * kills itself with SIGKILL, leaving journaled turns that only the journal holds.
 */
import { join } from "node:path";
import { migrate } from "../store/migrations.js";
import { commitTurn } from "../store/turns.js";
import { ensureUser } from "../store/users.js";
import { openWorkerDb } from "../store/worker-db.js";
import { benchSessions, nextTurn, type TurnPosition } from "./turn-writes.js";

const [dir = "", sessionsArg = "4", turnsArg = "3"] = process.argv.slice(2);
const db = await openWorkerDb(join(dir, "pg"));
await migrate(db);
await db.startJournal({ dir: join(dir, "journal"), delayMs: 600_000, maxBatch: 1_000_000 });
await ensureUser(db, "u");
const ids = await benchSessions(db, "u", Number(sessionsArg));
const at = new Map<string, TurnPosition>(ids.map((id) => [id, { step: 0, len: 0 }]));
let committed = 0;
for (let t = 0; t < Number(turnsArg); t++) {
  for (const id of ids) {
    if (!(await commitTurn(db, nextTurn(id, at.get(id)!)))) throw new Error(`turn ${t} of ${id} was refused`);
    committed++;
  }
}
const stats = db.turnJournal?.stats();
process.stdout.write(`${JSON.stringify({ committed, applied: stats?.appliedSeq, last: stats?.lastSeq })}\n`, () => process.kill(process.pid, "SIGKILL"));
