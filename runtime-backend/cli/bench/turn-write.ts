/**
 * `npm run bench:turn-write -- [sessions…]`: the embedded store's grouped commit statement
 * (`SessionStore.commit`) on its own, on the calling thread, in a store holding `sessions`
 * sessions (default 1300 and 5000): milliseconds per group of 1, 4, 16 and 50 turns, each turn
 * shaped like the bench's (one click call, its history entries, the previous call done, a
 * trace, a context line, a stored response). What one group costs the store, without HTTP,
 * the loop or the worker's messaging.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb, SessionStore, ensureUser } from "@baton/backend/store";
import { benchSessions, nextTurn } from "@baton/backend/testing/turn-writes";

const counts = process.argv.slice(2).map(Number).filter((n) => n > 0);
const groups = [1, 4, 16, 50];
const rounds = 400;

for (const sessions of counts.length ? counts : [1300, 5000]) {
  const dir = mkdtempSync(join(tmpdir(), "baton-turn-write-"));
  const db = await openDb({ dataDir: dir, embeddedThread: "inline" });
  const store = new SessionStore(db);
  try {
    await ensureUser(db, "bench");
    const all = await benchSessions(db, "bench", sessions);
    const out: string[] = [];
    for (const size of groups) {
      let next = 0;
      const t0 = performance.now();
      for (let r = 0; r < rounds; r++) {
        const picked = Array.from({ length: size }, () => next++ % all.length);
        // One group: the store's grouper sends the commits queued together as one statement.
        await Promise.all(picked.map(async (i) => (all[i] = await store.commit(nextTurn(all[i]!)))));
      }
      out.push(`group of ${size}: ${((performance.now() - t0) / rounds).toFixed(2)} ms`);
    }
    console.log(`${sessions} sessions: ${out.join(", ")}`);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
