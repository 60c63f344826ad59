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

  it("posts: consecutive ones with different keys run as one statement, behind what came before and before what comes after; a bad one fails alone", async () => {
    await db.exec("create table posted (id int primary key, note text)");
    const insert = `insert into posted (id, note) select x.id, x.note from json_to_recordset($1::json) as x(id int, note text)
      returning id, (select count(*) from json_array_elements($1::json))::int as merged`;
    const post = (rows: unknown[], key = String(Math.random())) => db.post!<{ id: number; merged: number }>("posted_insert", insert, [JSON.stringify(rows)], key);
    // Held behind an open transaction and a statement waiting for it, so that all three queue.
    const held = await holdTransaction(db, "select 1");
    const first = db.query("select 1");
    const a = post([{ id: 1, note: "a" }]);
    const b = post([{ id: 2, note: "b's → ✓" }, { id: 3, note: "c" }], "same");
    const d = post([{ id: 20, note: "d" }]);
    const e = post([{ id: 21, note: "e" }], "same");
    const read = db.query<{ n: number }>("select count(*)::int as n from posted");
    const c = post([]);
    setTimeout(held.end, 50);
    await held.done;
    await first;
    // a, b and d ran as one statement (its rows are each one's reply); e, with b's key, in the
    // next; the read, sent after them, saw all; c, sent after the read, ran on its own.
    const merged = [1, 2, 3, 20].map((id) => [id, 4]);
    for (const r of [await a, await b, await d]) expect(r.map((x) => [x.id, x.merged]).sort((p, q) => p[0]! - q[0]!)).toEqual(merged);
    expect((await e).map((x) => [x.id, x.merged])).toEqual([[21, 1]]);
    expect(await read).toEqual([{ n: 5 }]);
    expect(await c).toEqual([]);
    expect((await db.query<{ note: string }>("select note from posted where id = 2"))[0]?.note).toBe("b's → ✓");

    // A post whose rows break the statement fails alone; the ones merged with it are applied.
    const again = await holdTransaction(db, "select 1");
    const waiting = db.query("select 1");
    const ok1 = post([{ id: 10, note: "x" }]);
    const bad = post([{ id: 1, note: "duplicate key" }]);
    const ok2 = post([{ id: 11, note: "y" }]);
    setTimeout(again.end, 50);
    await again.done;
    await waiting;
    expect((await ok1).map((r) => r.id)).toEqual([10]);
    await expect(bad).rejects.toMatchObject({ code: "23505" });
    expect((await ok2).map((r) => r.id)).toEqual([11]);
    expect((await db.query<{ id: number }>("select id from posted order by id")).map((r) => r.id)).toEqual([1, 2, 3, 10, 11, 20, 21]);
  });
});
