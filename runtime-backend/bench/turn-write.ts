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
import { openDb } from "../src/store/open.js";
import { commitTurn } from "../src/store/turns.js";
import { ensureUser } from "../src/store/users.js";
import { benchSessions, nextTurn, type TurnPosition } from "../src/testing/turn-writes.js";

const counts = process.argv.slice(2).map(Number).filter((n) => n > 0);
const groups = [1, 4, 16, 50];
const rounds = 400;

for (const sessions of counts.length ? counts : [1300, 5000]) {
  const dir = mkdtempSync(join(tmpdir(), "baton-turn-write-"));
  const db = await openDb({ dataDir: dir, embeddedThread: "inline" });
  try {
    await ensureUser(db, "bench");
    const ids = await benchSessions(db, "bench", sessions);
    const at = new Map<string, TurnPosition>(ids.map((id) => [id, { step: 0, len: 0 }]));
    const out: string[] = [];
    for (const size of groups) {
      let next = 0;
      const t0 = performance.now();
      for (let r = 0; r < rounds; r++) {
        const batch = Array.from({ length: size }, () => ids[next++ % ids.length] as string);
        const rows = await Promise.all(
          batch.map((id) => commitTurn(db, nextTurn(id, at.get(id) ?? { step: 0, len: 0 }))),
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
