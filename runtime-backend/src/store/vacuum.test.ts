import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./db.js";
import { eventually } from "../testing/eventually.js";
import { churn, dead } from "../testing/churn.js";
import { openDb } from "./open.js";
import { vacuumDue } from "./vacuum.js";

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
});
