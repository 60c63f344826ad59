import { describe, expect, it } from "vitest";
import { type CachedState, SessionCache } from "./session-cache.js";

const state = (id: string) => ({ session: { id }, calls: [] }) as unknown as CachedState;

describe("SessionCache", () => {
  it("hands an entry out once", () => {
    const c = new SessionCache();
    c.set("a", state("a"));
    expect(c.take("a")?.session.id).toBe("a");
    expect(c.take("a")).toBeUndefined();
  });

  it("keeps at most maxEntries, dropping the oldest", () => {
    const c = new SessionCache({ maxEntries: 2 });
    c.set("a", state("a"));
    c.set("b", state("b"));
    c.set("a", state("a"));
    c.set("c", state("c"));
    expect(c.size).toBe(2);
    expect(c.take("b")).toBeUndefined();
    expect(c.take("a")).toBeDefined();
    expect(c.take("c")).toBeDefined();
  });

  it("lets entries older than maxAgeMs go: a session whose client left does not hold memory", () => {
    let now = 0;
    const c = new SessionCache({ maxAgeMs: 1000, now: () => now });
    c.set("left", state("left"));
    c.set("kept", state("kept"));
    now = 900;
    c.set("kept", state("kept"));
    now = 1500;
    // Any later write sweeps the expired ones from the front.
    c.set("new", state("new"));
    expect(c.size).toBe(2);
    expect(c.take("left")).toBeUndefined();
    expect(c.take("kept")).toBeDefined();
    // An expired entry is a miss even before a sweep.
    now = 3000;
    expect(c.take("new")).toBeUndefined();
  });
});
