import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./db.js";
import { createLogger } from "../log/logger.js";
import { eventually } from "../testing/eventually.js";
import { openDb } from "./open.js";
import { startEmbeddedVacuum, vacuumDue } from "./vacuum.js";

/** Dead row versions of a table, as the engine's statistics report them. */
async function dead(db: Db, table: string): Promise<number> {
  const [r] = await db.query<{ n: string | number }>("select n_dead_tup as n from pg_stat_user_tables where relname = $1", [table]);
  return Number(r?.n ?? -1);
}

/** Rewrites every row of `table` `times` times: each rewrite leaves one dead version per row. */
async function churn(db: Db, table: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await db.exec(`update ${table} set v = v + 1`);
}

describe("vacuuming the embedded store (it has no autovacuum)", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({});
    for (const t of ["churned", "calm"]) {
      await db.exec(`create table ${t} (id int primary key, v int not null)`);
      await db.exec(`insert into ${t} select g, 0 from generate_series(1, 2000) g`);
    }
  });
  afterAll(async () => {
    await db.close();
  });

  it("vacuums the tables past autovacuum's thresholds, and only those", async () => {
    await churn(db, "churned", 3);
    // Each rewrite leaves a dead version per row (a few are pruned on the way).
    // Statistics reach the views within about a second.
    await eventually(async () => (await dead(db, "churned")) >= 5000, 10_000);
    const pass = await vacuumDue(db);
    expect(pass.tables.map((t) => t.name)).toContain("churned");
    expect(pass.tables.map((t) => t.name)).not.toContain("calm");
    expect(pass.tables.find((t) => t.name === "churned")?.dead).toBeGreaterThanOrEqual(5000);
    await eventually(async () => (await dead(db, "churned")) === 0, 10_000);
    // Nothing is due right after a pass.
    expect((await vacuumDue(db)).tables.map((t) => t.name)).not.toContain("churned");
  });

  it("runs on a timer, and stops cleanly", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", destination: { write: (l: string) => void lines.push(l) } });
    const timer = startEmbeddedVacuum(db, { intervalMs: 100, logger });
    try {
      await churn(db, "churned", 10);
      await eventually(() => lines.some((l) => l.includes("embedded store vacuumed") && l.includes('"churned"')), 10_000);
      // A pass may run between rewrites, whose statistics arrive later: the timer's next passes take them.
      await eventually(async () => (await dead(db, "churned")) === 0, 10_000);
      // The dead versions' space is reused: more rewrites fit without growing the table.
      const size = async () => Number((await db.query<{ b: string }>("select pg_relation_size('churned') as b"))[0]?.b);
      const before = await size();
      await churn(db, "churned", 3);
      expect(await size()).toBe(before);
    } finally {
      await timer.stop();
    }
  });
});
