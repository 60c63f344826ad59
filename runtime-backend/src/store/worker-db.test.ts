import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdTransaction } from "../testing/hold-transaction.js";
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

  it("runs queries, scripts and prepared statements, with typed rows", async () => {
    await db.query("insert into t (id, v) values ($1, $2)", [1, "it's"]);
    const [row] = await db.query<{ id: number; v: string; at: Date }>("select * from t where id = $1", [1]);
    expect(row).toMatchObject({ id: 1, v: "it's" });
    expect(row?.at).toBeInstanceOf(Date);
    await db.exec("insert into t (id, v) values (2, 'b')");
    expect(await db.query("select count(*)::int as n from t")).toEqual([{ n: 2 }]);
    for (const id of [1, 2]) {
      const params = [JSON.stringify({ id, note: "it's → ✓" })];
      expect(await db.prepared("t_by_id", "select v, $1::json->>'note' as note from t where id = ($1::json->>'id')::int", params)).toEqual([
        { v: id === 1 ? "it's" : "b", note: "it's → ✓" },
      ]);
    }
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
    const tx = await holdTransaction(db, "insert into t (id, v) values (30, 'in tx')");
    const outside = db.query<{ n: number }>("select count(*)::int as n from t where id = 30");
    setTimeout(tx.end, 50);
    await tx.done;
    expect(await outside).toEqual([{ n: 1 }]);
  });

  it("runs a prepared statement after a transaction in progress, never inside it, prepares it once, and recovers from its errors", async () => {
    const count = "select count(*)::int as n from t where id = ($1::json->>'id')::int";
    await db.prepared("t_count", count, [JSON.stringify({ id: 40 })]); // prepared before the transaction opens
    const tx = await holdTransaction(db, "insert into t (id, v) values (40, 'rolled back')", true);
    const outside = db.prepared<{ n: number }>("t_count", count, [JSON.stringify({ id: 40 })]);
    setTimeout(tx.end, 50);
    await expect(tx.done).rejects.toThrow("roll back");
    // Inside the transaction it would have counted the row the rollback removed.
    expect(await outside).toEqual([{ n: 0 }]);
    // Two first runs of a statement at once, both held behind an open transaction so that the
    // second starts while the first is still preparing: it is prepared once, both get their rows.
    const held = await holdTransaction(db, "select 1");
    const both = Promise.all([1, 2].map((id) => db.prepared("t_new", "select ($1::json->>'id')::int as id", [JSON.stringify({ id })])));
    setTimeout(held.end, 50);
    await held.done;
    expect(await both).toEqual([[{ id: 1 }], [{ id: 2 }]]);
    const e = await db.prepared("t_div", "select 1 / ($1::json->>'d')::int as q", [JSON.stringify({ d: 0 })]).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "22012" });
    expect(await db.prepared("t_div", "select 1 / ($1::json->>'d')::int as q", [JSON.stringify({ d: 1 })])).toEqual([{ q: 1 }]);
  });
});
