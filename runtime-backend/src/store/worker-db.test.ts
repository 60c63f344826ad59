import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./db.js";
import { openWorkerDb } from "./worker-db.js";

describe("the embedded engine in a worker thread", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openWorkerDb();
    await db.exec("create table t (id int primary key, v text, at timestamptz default now())");
  });
  afterAll(async () => {
    await db.close();
  });

  it("runs queries and scripts, with typed rows", async () => {
    await db.query("insert into t (id, v) values ($1, $2)", [1, "it's"]);
    const [row] = await db.query<{ id: number; v: string; at: Date }>("select * from t where id = $1", [1]);
    expect(row).toMatchObject({ id: 1, v: "it's" });
    expect(row?.at).toBeInstanceOf(Date);
    await db.exec("insert into t (id, v) values (2, 'b')");
    expect(await db.query("select count(*)::int as n from t")).toEqual([{ n: 2 }]);
  });

  // Each row says how many items its run held, so the grouping itself is visible.
  const groupSql = `select x.id, x.v, (select count(*) from json_to_recordset($1::json) as y(id text))::int as run_size
    from json_to_recordset($1::json) as x(id text, v int) where x.v >= 0`;
  const item = (id: string, v: unknown) => ({ key: id, rows: [JSON.stringify({ id, v })] });

  it("groups statements in the worker: items that arrive while a run is in flight go in the next one, each answered with its own row", async () => {
    // A transaction holds the one connection, so the first run waits and the next items queue behind it.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tx = db.transaction(() => gate);
    const blocked = db.grouped("g", groupSql, item("first", 0));
    await new Promise((r) => setTimeout(r, 50));
    const queued = Promise.all([db.grouped("g", groupSql, item("a", 1)), db.grouped("g", groupSql, item("b", 2)), db.grouped("g", groupSql, item("c", -1))]);
    await new Promise((r) => setTimeout(r, 50));
    release();
    await tx;
    expect(await blocked).toEqual({ id: "first", v: 0, run_size: 1 });
    const [a, b, none] = await queued;
    expect(a).toEqual({ id: "a", v: 1, run_size: 3 });
    expect(b).toEqual({ id: "b", v: 2, run_size: 3 });
    expect(none).toBeUndefined();
    // Two items with one key never share a run: the second goes in the next.
    const [first, second] = await Promise.all([db.grouped("g", groupSql, item("a", 1)), db.grouped("g", groupSql, item("a", 2))]);
    expect([first?.v, first?.run_size, second?.v, second?.run_size]).toEqual([1, 1, 2, 1]);
  });

  it("rejects only the item whose share fails the statement; the rest of its run still commits", async () => {
    const out = await Promise.allSettled([db.grouped("g", groupSql, item("ok", 1)), db.grouped("g", groupSql, item("bad", "x")), db.grouped("g", groupSql, item("ok2", 2))]);
    expect(out[0]).toMatchObject({ status: "fulfilled", value: { id: "ok", run_size: 1 } });
    expect(out[1]).toMatchObject({ status: "rejected", reason: { code: "22P02" } });
    expect(out[2]).toMatchObject({ status: "fulfilled", value: { id: "ok2", run_size: 1 } });
  });

  it("commits a transaction, rolls one back on a throw, and reports SQL errors with their code", async () => {
    await db.transaction(async (tx) => {
      await tx.query("insert into t (id, v) values (10, 'kept')");
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into t (id, v) values (11, 'dropped')");
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    const ids = (await db.query<{ id: number }>("select id from t where id >= 10 order by id")).map((r) => r.id);
    expect(ids).toEqual([10]);
    const e = await db.query("insert into t (id, v) values (10, 'again')").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ code: "23505" });
    // A failed script leaves nothing behind (one implicit transaction).
    await expect(db.exec("insert into t (id) values (20); select 1 / 0")).rejects.toThrow(/division by zero/);
    expect(await db.query("select id from t where id = 20")).toEqual([]);
  });

  it("keeps statements in order while a transaction is open (one connection)", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (q) => {
      await q.query("insert into t (id, v) values (30, 'in tx')");
      await gate;
    });
    const outside = db.query<{ n: number }>("select count(*)::int as n from t where id = 30");
    setTimeout(release, 50);
    await tx;
    expect(await outside).toEqual([{ n: 1 }]);
  });
});
