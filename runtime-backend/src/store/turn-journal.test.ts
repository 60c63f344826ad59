import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { afterAll, describe, expect, it } from "vitest";
import { benchSessions, nextTurn, type TurnPosition } from "../testing/turn-writes.js";
import { eventually } from "../testing/eventually.js";
import { tempDirs } from "../testing/temp-dirs.js";
import type { Db, Row } from "./db.js";
import { migrate } from "./migrations.js";
import { openDb } from "./open.js";
import { requestStop } from "./sessions.js";
import { commitTurn } from "./turns.js";
import { ensureUser } from "./users.js";
import { openWorkerDb, type WorkerDb } from "./worker-db.js";

const run = promisify(execFile);
const child = fileURLToPath(new URL("../testing/journal-child.ts", import.meta.url));
const { fresh, removeAll } = tempDirs("baton-turn-journal-");
afterAll(removeAll);

/** The embedded store in a worker with its journal started by hand (to hold applying back). */
async function journaled(dir: string | undefined, delayMs: number): Promise<{ db: WorkerDb; recovered: number; logged: string[] }> {
  const db = await openWorkerDb(dir && join(dir, "pg"));
  await migrate(db);
  const logged: string[] = [];
  const logger = {
    error: (o: object, msg: string) => logged.push(`error ${msg} ${JSON.stringify(o)}`),
    warn: (o: object, msg: string) => logged.push(`warn ${msg} ${JSON.stringify(o)}`),
    info: (o: object, msg: string) => logged.push(`info ${msg} ${JSON.stringify(o)}`),
  };
  const recovered = await db.startJournal({ dir: dir && join(dir, "journal"), delayMs, logger: logger as never });
  return { db, recovered, logged };
}

/** Everything a turn writes, in a comparable form (timestamps left out). */
async function tables(db: Db, ids: readonly string[]): Promise<Record<string, Row[]>> {
  const args = [JSON.stringify(ids)];
  const where = "session_id in (select json_array_elements_text($1::json))";
  return {
    sessions: await db.query(
      `select id, status, step, context, context_from, goal, history_len, lease_owner, input_tokens::text, output_tokens::text, cached_tokens::text, cost_usd, stop_requested
         from sessions where id in (select json_array_elements_text($1::json)) order by id`,
      args,
    ),
    calls: await db.query(`select session_id, toolcall_id, step, ord, name, arguments, side, state, message, output from calls where ${where} order by 1, 2`, args),
    history: await db.query(`select session_id, seq, step, entry from history where ${where} order by 1, 2`, args),
    traces: await db.query(`select session_id, step, model, latency_ms, input_tokens::text, cost_usd, tool_calls, errors from traces where ${where} order by 1, 2`, args),
    lines: await db.query(`select session_id, seq, line from context_lines where ${where} order by 1, 2`, args),
    responses: await db.query(`select session_id, input_key, response from responses where ${where} order by 1, 2`, args),
  };
}

describe("the turn journal (write-behind for the embedded store)", () => {
  it("answers a turn before the worker applies it, and every later read sees it", async () => {
    const { db } = await journaled(undefined, 600_000);
    try {
      await ensureUser(db, "u");
      const [id] = await benchSessions(db, "u", 1);
      const at: TurnPosition = { step: 0, len: 0 };
      for (let i = 0; i < 3; i++) expect(await commitTurn(db, nextTurn(id!, at))).toMatchObject({ id, status: SessionStatus.AWAITING_TOOLS });
      const before = db.turnJournal!.stats();
      expect(before.lastSeq - before.appliedSeq).toBeGreaterThanOrEqual(2);
      // Any statement goes to the database behind the journaled turns.
      const [row] = await db.query<{ n: number }>("select count(*)::int as n from history where session_id = $1", [id]);
      expect(row?.n).toBe(5);
      await eventually(() => db.turnJournal!.stats().appliedSeq === before.lastSeq);
    } finally {
      await db.close();
    }
  });

  it("decides every turn as the SQL statement does: guard, lease, stop flag, totals — and stores the same rows", async () => {
    const sql = await openDb({ embeddedThread: "inline" });
    const { db: jnl } = await journaled(undefined, 5);
    try {
      const outcomes: unknown[][] = [[], []];
      for (const [i, db] of [sql, jnl].entries()) {
        await ensureUser(db, "u");
        const [a, b] = await benchSessions(db, "u", 2, "cmp_");
        const pa: TurnPosition = { step: 0, len: 0 };
        const pb: TurnPosition = { step: 0, len: 0 };
        const out = outcomes[i]!;
        const keep = (r: Row | undefined) => r && { ...r, updated_at: undefined, lease_until: r.lease_until ? "set" : null, input_tokens: Number(r.input_tokens), output_tokens: Number(r.output_tokens), cached_tokens: Number(r.cached_tokens) };
        out.push(keep(await commitTurn(db, nextTurn(a!, pa))));
        // A turn computed from a stale history length is refused, and changes nothing.
        out.push(keep(await commitTurn(db, nextTurn(a!, { step: 5, len: 0 }))));
        // A live lease of another instance refuses a turn; its holder commits.
        out.push(keep(await commitTurn(db, nextTurn(b!, pb, { owner: "x", leaseUntil: new Date(Date.now() + 60_000), stopGuard: false }))));
        const refused = nextTurn(b!, { ...pb }, { owner: "y" });
        out.push(keep(await commitTurn(db, refused)));
        out.push(keep(await commitTurn(db, nextTurn(b!, pb, { owner: "x", usage: { input: 7, output: 3, cached: 1, cost: 0.125 } }))));
        // The stop flag, set by another statement, makes a guarded turn STOPPED and keeps its response.
        await requestStop(db, a!, "user pressed stop");
        out.push(keep(await commitTurn(db, nextTurn(a!, pa))));
        out.push(keep(await commitTurn(db, nextTurn(a!, pa, { stopGuard: false }))));
        out.push(await tables(db, [a!, b!]));
      }
      expect(outcomes[1]).toEqual(outcomes[0]);
      const [, , , refused, , stopped] = outcomes[0] as (Row | undefined)[];
      expect(refused).toBeUndefined();
      expect(stopped).toMatchObject({ status: SessionStatus.STOPPED, stop_requested: true, reason: "user pressed stop" });
    } finally {
      await sql.close();
      await jnl.close();
    }
  });

  it("applies, on the next start, the turns a killed process journaled but never applied — once", async () => {
    const dir = fresh();
    const { stdout } = await run(process.execPath, ["--import", "tsx", child, dir, "6", "4"], { timeout: 60_000 }).catch((e: { stdout: string; code: unknown; signal: unknown }) => {
      // The child ends by killing itself; its report is on stdout all the same.
      if (e.signal !== "SIGKILL") throw e;
      return e;
    });
    const report = JSON.parse(stdout.trim()) as { committed: number; applied: number; last: number };
    expect(report.committed).toBe(24);
    expect(report.last - report.applied).toBeGreaterThanOrEqual(18);
    const first = await journaled(dir, 5);
    expect(first.recovered).toBe(report.last - report.applied);
    expect(first.logged.some((l) => l.startsWith("info turn journal: applied"))).toBe(true);
    const ids = Array.from({ length: 6 }, (_, i) => `ses_${i}`);
    const rows = await tables(first.db, ids);
    // 4 turns each: 7 history entries (the first turn has no result before it), 4 calls, 4 traces.
    expect(rows.sessions!.map((s) => [s.id, s.step, s.history_len])).toEqual(ids.map((id) => [id, 4, 7]));
    expect(rows.history).toHaveLength(6 * 7);
    expect(rows.calls!.filter((c) => c.state === "done")).toHaveLength(6 * 3);
    expect(rows.traces).toHaveLength(24);
    await first.db.close();
    expect(readdirSync(join(dir, "journal"))).toEqual([]);
    const second = await journaled(dir, 5);
    expect(second.recovered).toBe(0);
    expect(await tables(second.db, ids)).toEqual(rows);
    await second.db.close();
  });

  it("reports a turn the store refuses (and applies the others of its batch) instead of stopping", async () => {
    const { db, logged } = await journaled(undefined, 600_000);
    try {
      await ensureUser(db, "u");
      const [a, b] = await benchSessions(db, "u", 2, "err_");
      const pa: TurnPosition = { step: 0, len: 0 };
      const pb: TurnPosition = { step: 0, len: 0 };
      await commitTurn(db, nextTurn(a!, pa));
      await commitTurn(db, nextTurn(b!, pb));
      // A row where a's next turn writes its history: that turn is acknowledged (the journal
      // decided it), then cannot be applied. b's turn in the same batch still is.
      await db.query("insert into history (session_id, seq, step, entry) values ($1, $2, 0, '{}')", [a, pa.len]);
      expect(await commitTurn(db, nextTurn(a!, pa))).toBeDefined();
      expect(await commitTurn(db, nextTurn(b!, pb))).toBeDefined();
      const [n] = await db.query<{ n: number }>("select count(*)::int as n from history where session_id = $1", [b]);
      expect(n?.n).toBe(3);
      await eventually(() => db.turnJournal!.stats().applyErrors === 1);
      expect(logged.find((l) => l.startsWith("error turn journal"))).toMatch(/duplicate key/);
      // The session's header was dropped: its next turn is checked against the store again.
      expect(await commitTurn(db, nextTurn(a!, pa))).toBeUndefined();
    } finally {
      await db.close();
    }
  });
});
