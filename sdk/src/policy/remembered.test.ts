import { describe, expect, it } from "vitest";
import { type RememberedDecision, rememberedFor, siteOf, withDecision } from "./remembered.js";

const d = (o: Partial<RememberedDecision>): RememberedDecision => ({ id: "r1", site: "https://shop.example", risk: "irreversible", allow: true, tool: "click", createdAt: 0, ...o });

describe("remembered decisions", () => {
  it("key a page by its canonical origin", () => {
    expect(siteOf("https://Shop.Example./cart?x=1")).toBe("https://shop.example");
    expect(siteOf("http://127.0.0.1:4000/a")).toBe("http://127.0.0.1:4000");
    expect(siteOf("about:blank")).toBeUndefined();
    expect(siteOf(undefined)).toBeUndefined();
  });

  it("answer a call of the same class on the same site, until they expire", () => {
    const ds = [d({ expiresAt: 1000 })];
    expect(rememberedFor(ds, "https://shop.example/checkout", "irreversible", 999)?.id).toBe("r1");
    expect(rememberedFor(ds, "https://shop.example/checkout", "irreversible", 1000)).toBeUndefined();
    expect(rememberedFor(ds, "https://shop.example/checkout", "mutating", 0)).toBeUndefined();
    expect(rememberedFor(ds, "https://other.example/", "irreversible", 0)).toBeUndefined();
    expect(rememberedFor(ds, "http://shop.example/", "irreversible", 0)).toBeUndefined();
    expect(rememberedFor(ds, undefined, "irreversible", 0)).toBeUndefined();
  });

  it("treat every spelling of this machine as one host, the port counted", () => {
    const ds = [d({ site: "http://127.0.0.1:4000" })];
    expect(rememberedFor(ds, "http://localhost:4000/x", "irreversible", 0)).toBeDefined();
    expect(rememberedFor(ds, "http://localhost:4001/x", "irreversible", 0)).toBeUndefined();
  });

  it("let a refusal win over a permission", () => {
    const ds = [d({ id: "yes" }), d({ id: "no", allow: false })];
    expect(rememberedFor(ds, "https://shop.example/", "irreversible", 0)?.id).toBe("no");
  });

  it("replace an earlier decision on the same site and class, and drop expired ones", () => {
    const ds = [d({ id: "old" }), d({ id: "other", risk: "mutating" }), d({ id: "gone", site: "https://x.example", expiresAt: 5 })];
    expect(withDecision(ds, d({ id: "new", allow: false }), 10).map((x) => x.id)).toEqual(["other", "new"]);
  });
});
