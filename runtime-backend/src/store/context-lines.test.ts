import { describe, expect, it } from "vitest";
import { microDelta } from "./context-lines.js";
import { migrate } from "./migrations.js";
import { openPgliteDb } from "./pglite-db.js";
import { getSessionRow } from "./sessions.js";

describe("microDelta", () => {
  it("appends after the stored lines", () => {
    expect(microDelta(0, [], ["a"])).toEqual({ from: 0, lines: [{ seq: 0, line: "a" }], trim: false });
    expect(microDelta(4, ["a", "b"], ["a", "b", "c"])).toEqual({ from: 4, lines: [{ seq: 6, line: "c" }], trim: false });
  });

  it("moves the start past lines the budget dropped", () => {
    expect(microDelta(4, ["a", "b", "c"], ["b", "c", "d"])).toEqual({ from: 5, lines: [{ seq: 7, line: "d" }], trim: true });
    expect(microDelta(4, ["a", "b", "c"], ["c"])).toEqual({ from: 6, lines: [], trim: true });
  });

  it("keeps no old line after a fold, and numbers the new ones above every stored line", () => {
    expect(microDelta(4, ["a", "b"], ["folded"])).toEqual({ from: 6, lines: [{ seq: 6, line: "folded" }], trim: true });
    expect(microDelta(4, ["a", "b"], [])).toEqual({ from: 6, lines: [], trim: true });
  });

  it("keeps the longest matching overlap when lines repeat", () => {
    expect(microDelta(0, ["x", "x"], ["x", "x", "y"])).toEqual({ from: 0, lines: [{ seq: 2, line: "y" }], trim: false });
    expect(microDelta(0, ["x", "x"], ["x", "y"])).toEqual({ from: 1, lines: [{ seq: 2, line: "y" }], trim: true });
  });

  it("rewrites everything when a kept line changed", () => {
    expect(microDelta(0, ["a", "b"], ["a", "B"])).toEqual({
      from: 2,
      lines: [
        { seq: 2, line: "a" },
        { seq: 3, line: "B" },
      ],
      trim: true,
    });
  });
});

describe("migration 5", () => {
  it("moves the summaries of existing sessions out of the session row into lines", async () => {
    const db = await openPgliteDb();
    try {
      expect(await migrate(db, 4)).toBe(4);
      await db.query("insert into users (id, name) values ('u', 'u')");
      const legacy = { goal: "g", isTask: true, macro: ["m"], micro: ["one", 'two "2"'], latest: null, user: [], pendingUser: null };
      await db.query("insert into sessions (id, user_id, status, model, max_steps, context) values ('s1', 'u', 1, 'x', 10, $1), ('s2', 'u', 1, 'x', 10, '{}')", [JSON.stringify(legacy)]);
      expect(await migrate(db)).toBeGreaterThanOrEqual(5);
      const s1 = await getSessionRow(db, "s1");
      expect(s1?.context).toEqual(legacy);
      expect(s1?.contextFrom).toBe(0);
      expect((await getSessionRow(db, "s2"))?.context.micro).toEqual([]);
      const [raw] = await db.query<{ context: string }>("select context from sessions where id = 's1'");
      expect(JSON.parse(String(raw?.context))).not.toHaveProperty("micro");
    } finally {
      await db.close();
    }
  });
});
