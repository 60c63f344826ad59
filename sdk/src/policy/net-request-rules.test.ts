import { describe, expect, it } from "vitest";
import { declarativeNetRequestRules, type NetRule } from "./net-request-rules.js";
import { sitePolicyFromObject } from "./site-policy.js";

/** What the rules do to a request of tab 7: the action of the matching rule of highest priority. */
function verdict(rules: NetRule[], url: string): string {
  const hits = rules.filter((r) => new RegExp(r.condition.regexFilter).test(url)).sort((a, b) => b.priority - a.priority);
  return hits[0]?.action.type ?? "none";
}

describe("declarativeNetRequestRules", () => {
  it("blocks a blocked site's pages, frames and WebSockets in the given tabs only", () => {
    const rules = declarativeNetRequestRules(sitePolicyFromObject({ blocked: ["http://127.0.0.1:4100", "*.ads.example"] }, "settings"), [7, 9], 100);
    // One rule per spelling of this machine: Chrome refuses a regular expression over 2 KB compiled.
    expect(rules.map((r) => r.id)).toEqual([100, 101, 102, 103, 104, 105, 106, 107]);
    expect(rules.filter((r) => r.condition.regexFilter.endsWith(":4100/"))).toHaveLength(7);
    expect(rules[0]?.condition.tabIds).toEqual([7, 9]);
    expect(rules[0]?.condition.resourceTypes).toEqual(expect.arrayContaining(["main_frame", "sub_frame", "websocket", "script", "xmlhttprequest"]));
    expect(verdict(rules, "http://127.0.0.1:4100/widget.html")).toBe("block");
    expect(verdict(rules, "http://localhost:4100/widget.html")).toBe("block");
    expect(verdict(rules, "http://[::1]:4100/")).toBe("block");
    expect(verdict(rules, "ws://127.0.0.1:4100/live")).toBe("block");
    expect(verdict(rules, "http://127.0.0.1:4101/")).toBe("none");
    expect(verdict(rules, "https://ads.example/x.js")).toBe("block");
    expect(verdict(rules, "https://a.b.ads.example./x.js")).toBe("block");
    expect(verdict(rules, "https://badads.example/")).toBe("none");
  });

  it("with an allow list, blocks everything else on the network, the blocked sites first", () => {
    const rules = declarativeNetRequestRules(sitePolicyFromObject({ allowed: ["https://shop.example", "docs.example"], blocked: ["https://docs.example"] }, "settings"), [1], 1);
    expect(verdict(rules, "https://shop.example/")).toBe("allow");
    expect(verdict(rules, "https://shop.example:443/")).toBe("allow");
    expect(verdict(rules, "https://shop.example:8443/")).toBe("block");
    expect(verdict(rules, "http://shop.example/")).toBe("block");
    expect(verdict(rules, "wss://shop.example/socket")).toBe("allow");
    expect(verdict(rules, "http://docs.example:8080/")).toBe("allow");
    expect(verdict(rules, "https://docs.example/")).toBe("block");
    expect(verdict(rules, "https://elsewhere.example/")).toBe("block");
  });

  it("is nothing without lists that limit loading, or without tabs", () => {
    expect(declarativeNetRequestRules(sitePolicyFromObject({ read_only: ["bank.example"] }, "s"), [1], 1)).toEqual([]);
    expect(declarativeNetRequestRules(sitePolicyFromObject({ blocked: ["x.example"] }, "s"), [], 1)).toEqual([]);
  });
});
