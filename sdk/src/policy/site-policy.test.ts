import { describe, expect, it } from "vitest";
import { hostResolverRules } from "./host-resolver-rules.js";
import { decideAction, decideFrame, mergeUrlPolicies, refuseUnlessAllowed, siteListsOf, sitePolicyFromObject } from "./site-policy.js";
import { decideUrl, urlPolicyFromLists } from "./url-policy.js";

const file = (o: unknown) => sitePolicyFromObject(o, "--policy trust.yaml");
const loads = (p: ReturnType<typeof file>, url: string) => decideUrl(p, url, "page").allow;

describe("sitePolicyFromObject", () => {
  it("reads allowed, blocked and read_only lists, as lists or ;-strings", () => {
    const p = file({ allowed: ["https://shop.example", "*.docs.example"], blocked: "ads.example;tracker.example", read_only: ["https://bank.example"] });
    expect(siteListsOf(p)).toEqual({ allowed: ["https://shop.example", "*.docs.example"], blocked: ["ads.example", "tracker.example"], readOnly: ["https://bank.example"] });
    expect(p.blocked[0]?.from).toBe("--policy trust.yaml");
  });

  it.each([
    [[], "a site policy is an object"],
    [{ allow: [] }, 'unknown key "allow" (known: allowed, blocked, read_only)'],
    [{ blocked: [3] }, '"blocked" must be a list of origins or hosts'],
    [{ read_only: ["https://bank.example/login"] }, '"https://bank.example/login" is neither an origin'],
  ])("refuses %j, saying what is wrong", (o, message) => {
    expect(() => file(o)).toThrow(message);
    expect(() => file(o)).toThrow("--policy trust.yaml");
  });
});

describe("decideAction", () => {
  const p = file({ read_only: ["https://bank.example", "http://localhost:4000"], blocked: ["ads.example"] });

  it("refuses a mutating or irreversible call on a read-only site, naming the site and the rule", () => {
    const d = decideAction(p, "https://bank.example/transfer", "mutating");
    expect(d).toMatchObject({ allow: false, rule: "read-only", site: "https://bank.example" });
    expect(d.allow || d.reason).toContain("https://bank.example is a read-only site (--policy trust.yaml: read-only https://bank.example)");
    expect(decideAction(p, "https://bank.example/", "irreversible").allow).toBe(false);
  });

  it("lets reading calls, calls elsewhere and calls on no known page through", () => {
    expect(decideAction(p, "https://bank.example/", "read_only").allow).toBe(true);
    expect(decideAction(p, "https://bank.example/", undefined).allow).toBe(true);
    expect(decideAction(p, "http://bank.example/", "mutating").allow).toBe(true);
    expect(decideAction(p, "https://shop.example/", "mutating").allow).toBe(true);
    expect(decideAction(p, undefined, "mutating").allow).toBe(true);
    expect(decideAction(p, "about:blank", "mutating").allow).toBe(true);
  });

  it("holds every spelling of this machine to a loopback entry, port counted", () => {
    expect(decideAction(p, "http://127.0.0.1:4000/form", "mutating").allow).toBe(false);
    expect(decideAction(p, "http://[::ffff:127.0.0.1]:4000/", "mutating").allow).toBe(false);
    expect(decideAction(p, "http://127.0.0.1:4001/form", "mutating").allow).toBe(true);
  });

  it("refuses acting on a page the policy would not load, and reading it", () => {
    expect(decideAction(p, "https://ads.example/", "mutating")).toMatchObject({ allow: false, rule: "blocked" });
    const read = decideAction(p, "https://ads.example/inbox", "read_only");
    expect(read).toMatchObject({ allow: false, rule: "blocked", site: "https://ads.example" });
    expect(read.allow || read.reason).toContain("This page may not be read: https://ads.example is blocked (--policy trust.yaml)");
    const only = file({ allowed: ["shop.example"] });
    expect(decideAction(only, "https://mail.example/", "read_only")).toMatchObject({ allow: false, rule: "not-allowed" });
    expect(decideAction(only, "https://shop.example/", "read_only").allow).toBe(true);
    // A call in no page (navigation, tabs) is how the agent leaves it.
    expect(decideAction(p, "https://ads.example/", undefined).allow).toBe(true);
  });

  it("leaves loading a read-only site allowed", () => {
    expect(loads(p, "https://bank.example/")).toBe(true);
  });
});

describe("decideFrame", () => {
  const p = file({ read_only: ["https://bank.example"], blocked: ["ads.example"] });
  const readOnlyOnly = file({ read_only: ["https://bank.example"] });

  it("answers as decideAction for a frame whose address is known", () => {
    expect(decideFrame(p, "https://ads.example/", "read_only")).toMatchObject({ allow: false, rule: "blocked" });
    expect(decideFrame(p, "https://bank.example/", "mutating")).toMatchObject({ allow: false, rule: "read-only" });
    expect(decideFrame(p, "https://bank.example/", "read_only").allow).toBe(true);
    expect(decideFrame(p, "about:srcdoc", "mutating").allow).toBe(true);
  });

  it("refuses a frame not known yet whenever the policy would refuse the call on some site", () => {
    const read = decideFrame(p, "", "read_only");
    expect(read.allow).toBe(false);
    expect(read.allow || read.reason).toContain("A frame whose address is not known yet may not be read");
    expect(decideFrame(p, "", "mutating").allow).toBe(false);
    // Read-only sites may be read, so only a change is refused in an unknown frame.
    expect(decideFrame(readOnlyOnly, "", "read_only").allow).toBe(true);
    const change = decideFrame(readOnlyOnly, "", "irreversible");
    expect(change).toMatchObject({ allow: false, rule: "read-only" });
    expect(change.allow || change.reason).toContain("may not be acted on while the site policy keeps some sites read-only");
    // No policy, or a call in no page: nothing to refuse.
    expect(decideFrame(file({}), "", "mutating").allow).toBe(true);
    expect(decideFrame(p, "", undefined).allow).toBe(true);
  });

  it("is what refuseUnlessAllowed asks for every frame a call acts in", () => {
    expect(() => refuseUnlessAllowed(p, "https://shop.example/", "mutating")).not.toThrow();
    expect(() => refuseUnlessAllowed(p, "https://shop.example/", "mutating", ["https://shop.example/frame"])).not.toThrow();
    expect(() => refuseUnlessAllowed(p, "https://shop.example/", "mutating", [""])).toThrow("Refused, nothing was done: A frame whose address is not known yet");
    expect(() => refuseUnlessAllowed(p, "https://shop.example/", "mutating", ["https://bank.example/pay"])).toThrow("read-only site");
    // The top document is decideAction's: a tab with no address yet is not refused.
    expect(() => refuseUnlessAllowed(p, "", "mutating")).not.toThrow();
  });
});

describe("mergeUrlPolicies", () => {
  const team = file({ allowed: ["*.example.com", "https://partner.example"], blocked: ["pay.example.com"], read_only: ["crm.example.com"] });

  it("keeps every blocked and read-only site, and only what every allow list allows", () => {
    const user = sitePolicyFromObject({ allowed: ["https://app.example.com", "other.example"], read_only: ["https://partner.example"] }, "your policy");
    const m = mergeUrlPolicies(team, user);
    expect(siteListsOf(m).allowed).toEqual(["https://app.example.com"]);
    expect(loads(m, "https://app.example.com/")).toBe(true);
    expect(loads(m, "https://www.example.com/")).toBe(false);
    expect(loads(m, "https://other.example/")).toBe(false);
    expect(loads(m, "https://pay.example.com/")).toBe(false);
    expect(decideAction(m, "https://crm.example.com/", "mutating").allow).toBe(false);
    expect(decideAction(m, "https://partner.example/", "mutating").allow).toBe(false);
  });

  it("does not let a policy without an allow list lift another's", () => {
    const m = mergeUrlPolicies(team, file({ blocked: ["x.example"] }));
    expect(loads(m, "https://unlisted.example/")).toBe(false);
    expect(loads(m, "https://a.example.com/")).toBe(true);
  });

  it("allows nothing when the allow lists share no site (not everything)", () => {
    const m = mergeUrlPolicies(file({ allowed: ["a.example"] }), file({ allowed: ["b.example"] }));
    expect(loads(m, "https://a.example/")).toBe(false);
    expect(loads(m, "https://b.example/")).toBe(false);
    const d = decideUrl(m, "https://a.example/", "page");
    expect(d.allow || d.reason).toContain("have none in common");
    expect(hostResolverRules(m)).toBe("MAP * ~NOTFOUND");
    expect(siteListsOf(m).allowed).toEqual([]);
  });

  it("takes the flags as one more input: --allowed-origins and a file narrow each other", () => {
    const flags = urlPolicyFromLists({ allowed: "https://shop.example;https://bank.example" }, { allowed: "--allowed-origins", blocked: "--blocked-origins" });
    const m = mergeUrlPolicies(file({ allowed: ["*.example", "shop.example"], read_only: ["https://bank.example"] }), flags);
    expect(loads(m, "https://shop.example/")).toBe(true);
    expect(loads(m, "https://bank.example/")).toBe(true);
    expect(loads(m, "https://docs.example/")).toBe(false);
    expect(decideAction(m, "https://bank.example/", "mutating").allow).toBe(false);
  });
});
