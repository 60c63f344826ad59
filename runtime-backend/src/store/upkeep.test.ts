import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../log/logger.js";
import { churn, dead } from "../testing/churn.js";
import { eventually } from "../testing/eventually.js";
import { checkpointDue, walSinceCheckpoint } from "./checkpoint.js";
import type { Db } from "./db.js";
import { openDb } from "./open.js";
import { startUpkeep } from "./upkeep.js";

const mb = 2 ** 20;

describe("the embedded store's upkeep (it has no autovacuum and no checkpointer)", () => {
  let db: Db;
  const dir = mkdtempSync(join(tmpdir(), "baton-upkeep-"));
  /** WAL segment files on disk. */
  const segments = () => readdirSync(join(dir, "pg_wal")).filter((f) => /^[0-9A-F]{24}$/.test(f)).length;
  beforeAll(async () => {
    db = await openDb({ dataDir: dir });
    await db.exec("create table churned (id int primary key, v int not null, pad text not null)");
    await db.exec("insert into churned select g, 0, repeat('x', 400) from generate_series(1, 20000) g");
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("checkpoints once enough WAL was written since the last checkpoint, which keeps the WAL's files bounded", async () => {
    await db.exec("checkpoint");
    expect(await checkpointDue(db, 8 * mb)).toMatchObject({ checkpointed: false });
    let total = 0;
    const after: number[] = [];
    for (let round = 0; round < 3; round++) {
      // Left alone, the engine never checkpoints: the WAL only grows.
      await churn(db, "churned", 8);
      const written = await walSinceCheckpoint(db);
      expect(written).toBeGreaterThan(32 * mb);
      total += written;
      const pass = await checkpointDue(db, 8 * mb);
      expect(pass.checkpointed).toBe(true);
      expect(pass.walBytes).toBeGreaterThanOrEqual(written);
      expect(await walSinceCheckpoint(db)).toBeLessThan(mb);
      after.push(segments());
    }
    // Old segments are removed or recycled: the files stay at what one interval needs, while
    // the WAL written adds up.
    expect(after[2]).toBeLessThanOrEqual((after[0] ?? 0) + 1);
    expect((after[2] ?? 0) * 16 * mb).toBeLessThan(total / 2);
  });

  it("vacuums and checkpoints on a timer, and stops cleanly", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", destination: { write: (l: string) => void lines.push(l) } });
    const timer = startUpkeep(db, { intervalMs: 100, maxWalBytes: 4 * mb, logger });
    try {
      await churn(db, "churned", 3);
      await eventually(() => lines.some((l) => l.includes("embedded store vacuumed") && l.includes('"churned"')), 10_000);
      await eventually(() => lines.some((l) => l.includes("embedded store checkpointed")), 10_000);
      // A pass may run between rewrites, whose statistics arrive later: the timer's next passes take them.
      await eventually(async () => (await dead(db, "churned")) === 0, 10_000);
      await eventually(async () => (await walSinceCheckpoint(db)) < 4 * mb, 10_000);
      // The dead versions' space is reused: more rewrites fit without growing the table.
      const size = async () => Number((await db.query<{ b: string }>("select pg_relation_size('churned') as b"))[0]?.b);
      const before = await size();
      await churn(db, "churned", 1);
      expect(await size()).toBe(before);
    } finally {
      await timer.stop();
    }
  });
});
