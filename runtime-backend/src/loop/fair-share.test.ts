import { describe, expect, it } from "vitest";
import { FairShare } from "./fair-share.js";

describe("FairShare", () => {
  it("releases callers in arrival order, a batch per event-loop turn, with timers and I/O served in between", async () => {
    const gate = new FairShare(3);
    const log: number[] = [];
    const busy = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    // 200 callers of ~0.2 ms each: 40 ms of work that, released at once, would hold the loop.
    const passes = Array.from({ length: 200 }, (_, i) =>
      gate.pass().then(() => {
        busy(0.2);
        log.push(i);
      }),
    );
    let timerAt = -1;
    setTimeout(() => (timerAt = log.length), 5);
    await Promise.all(passes);
    expect(log).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(timerAt).toBeGreaterThan(0);
    expect(timerAt).toBeLessThan(200);
  });

  it("lets no more than its batch through per turn", async () => {
    const gate = new FairShare(2);
    const released: number[] = [];
    let tick = 0;
    const ticker = setInterval(() => undefined, 1);
    const counter = () => {
      tick++;
      if (tick < 20) setImmediate(counter);
    };
    setImmediate(counter);
    await Promise.all(Array.from({ length: 6 }, () => gate.pass().then(() => released.push(tick))));
    clearInterval(ticker);
    const perTick = new Map<number, number>();
    for (const t of released) perTick.set(t, (perTick.get(t) ?? 0) + 1);
    expect(Math.max(...perTick.values())).toBeLessThanOrEqual(2);
    expect(perTick.size).toBe(3);
  });

  it("an idle gate lets a single caller through on the next turn", async () => {
    const gate = new FairShare(8);
    const t0 = performance.now();
    await gate.pass();
    expect(performance.now() - t0).toBeLessThan(50);
  });
});
