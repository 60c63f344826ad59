import { describe, expect, it } from "vitest";
import { hostResolverRules } from "./host-resolver-rules.js";
import { openUrlPolicy, urlPolicyFromLists } from "./url-policy.js";

const rules = (allowed?: string, blocked?: string) =>
  hostResolverRules(urlPolicyFromLists({ allowed, blocked }, { allowed: "allowed", blocked: "blocked" }))?.split(", ");

describe("hostResolverRules", () => {
  it("is nothing without site lists", () => {
    expect(hostResolverRules(openUrlPolicy)).toBeUndefined();
  });

  it("resolves nothing for a blocked host, in each of its spellings", () => {
    expect(rules(undefined, "example.com;*.ads.example")).toEqual([
      "MAP example.com ~NOTFOUND",
      "MAP example.com. ~NOTFOUND",
      "MAP ads.example ~NOTFOUND",
      "MAP ads.example. ~NOTFOUND",
      "MAP *.ads.example ~NOTFOUND",
      "MAP *.ads.example. ~NOTFOUND",
    ]);
  });

  it("blocks every spelling of this machine for a blocked loopback entry, on the entry's port for an origin", () => {
    expect(rules(undefined, "localhost")).toEqual([
      "MAP localhost ~NOTFOUND",
      "MAP localhost. ~NOTFOUND",
      "MAP *.localhost ~NOTFOUND",
      "MAP *.localhost. ~NOTFOUND",
      "MAP 127.* ~NOTFOUND",
      "MAP 0.0.0.0 ~NOTFOUND",
      "MAP ::1 ~NOTFOUND",
      "MAP :: ~NOTFOUND",
      "MAP ::ffff:7f* ~NOTFOUND",
      "MAP ::7f* ~NOTFOUND",
      "MAP ::ffff:0:0 ~NOTFOUND",
    ]);
    expect(rules(undefined, "http://[::1]:3000")).toContain("MAP [::ffff:7f*]:3000 ~NOTFOUND");
    expect(rules(undefined, "http://[::1]:3000")).toContain("MAP 127.*:3000 ~NOTFOUND");
  });

  it("lets only the allowed hosts resolve, blocked ones first", () => {
    expect(rules("http://127.0.0.1:3000;https://example.com;*.cdn.example", "evil.cdn.example")).toEqual([
      "MAP evil.cdn.example ~NOTFOUND",
      "MAP evil.cdn.example. ~NOTFOUND",
      "MAP localhost:3000 localhost:3000",
      "MAP 127.0.0.1:3000 127.0.0.1:3000",
      "MAP [::1]:3000 [::1]:3000",
      "MAP example.com:443 example.com:443",
      "MAP example.com.:443 example.com.:443",
      "MAP cdn.example cdn.example",
      "MAP cdn.example. cdn.example.",
      "EXCLUDE *.cdn.example",
      "EXCLUDE *.cdn.example.",
      "MAP * ~NOTFOUND",
    ]);
    expect(rules("[2001:db8::1]")).toEqual(["MAP 2001:db8::1 [2001:db8::1]", "MAP * ~NOTFOUND"]);
  });
});
