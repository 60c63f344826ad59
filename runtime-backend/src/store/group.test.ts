import { describe, expect, it } from "vitest";
import { Grouper } from "./group.js";

/** A run that records its groups and finishes when told to. */
function controlledRun() {
  const groups: number[][] = [];
  const finish: (() => void)[] = [];
  const run = (items: number[]): Promise<number[]> => {
    groups.push(items);
    return new Promise((resolve) => finish.push(() => resolve(items.map((i) => i * 10))));
  };
  return { groups, finish, run };
}

const turn = () => new Promise<void>((r) => setImmediate(r));

describe("Grouper", () => {
  it("runs the first item alone and groups everything that arrived while it ran", async () => {
    const c = controlledRun();
    const g = new Grouper(c.run);
    const first = g.submit(1);
    await turn();
    const rest = [g.submit(2), g.submit(3), g.submit(4)];
    expect(c.groups).toEqual([[1]]);
    c.finish[0]!();
    expect(await first).toBe(10);
    await turn();
    expect(c.groups).toEqual([[1], [2, 3, 4]]);
    c.finish[1]!();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  it("keeps items with the same key in different groups", async () => {
    const c = controlledRun();
    const g = new Grouper(c.run, 1, 256, (i: number) => String(i % 2));
    const all = [1, 2, 3, 4].map((i) => g.submit(i));
    await turn();
    expect(c.groups).toEqual([[1, 2]]);
    c.finish[0]!();
    await turn();
    expect(c.groups).toEqual([[1, 2], [3, 4]]);
    c.finish[1]!();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40]);
  });

  it("starts the next group before the previous group's callers hear back", async () => {
    const c = controlledRun();
    const g = new Grouper(c.run);
    const order: string[] = [];
    const first = g.submit(1).then(() => order.push(`answered 1 (groups run: ${c.groups.length})`));
    await turn();
    void g.submit(2);
    c.finish[0]!();
    await first;
    // The second group was handed to the engine before the first one's caller went on.
    expect(order).toEqual(["answered 1 (groups run: 2)"]);
    c.finish[1]!();
  });

  it("attributes a failed group's error by running each item alone", async () => {
    const calls: number[][] = [];
    const g = new Grouper(async (items: number[]) => {
      calls.push(items);
      if (items.includes(2)) throw new Error(`bad item in [${items.join(",")}]`);
      return items.map((i) => i * 10);
    });
    const [a, b, c] = [g.submit(1), g.submit(2), g.submit(3)];
    expect(await a).toBe(10);
    await expect(b).rejects.toThrow("bad item in [2]");
    expect(await c).toBe(30);
    expect(calls).toEqual([[1, 2, 3], [1], [2], [3]]);
  });
});
