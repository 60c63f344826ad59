import { describe, expect, it } from "vitest";
import { decideUrl, openUrlPolicy, type UrlKind, urlPolicyFromLists } from "./url-policy.js";

const names = { allowed: "--allowed-origins", blocked: "--blocked-origins" };
const policy = (allowed?: string, blocked?: string) => urlPolicyFromLists({ allowed, blocked }, names);
const verdict = (p: ReturnType<typeof policy>, url: string, kind: UrlKind = "page") => {
  const d = decideUrl(p, url, kind);
  return d.allow ? "allow" : d.rule;
};

describe("decideUrl: schemes", () => {
  it.each([
    ["https://example.com/", "page", "allow"],
    ["http://127.0.0.1:3000/x", "page", "allow"],
    ["about:blank", "page", "allow"],
    ["about:srcdoc", "page", "scheme"],
    ["file:///etc/", "page", "scheme"],
    ["FILE:///etc/passwd", "page", "scheme"],
    ["chrome://version", "page", "scheme"],
    ["chrome-untrusted://terminal/", "page", "scheme"],
    ["devtools://devtools/bundled/inspector.html", "page", "scheme"],
    ["view-source:https://example.com/", "page", "scheme"],
    ["javascript:alert(1)", "page", "scheme"],
    ["data:text/html,<h1>x</h1>", "page", "scheme"],
    ["blob:https://example.com/1", "page", "scheme"],
    ["ws://example.com/", "page", "scheme"],
    ["not a url", "page", "invalid"],
    ["/relative", "page", "invalid"],
    ["data:text/html,x", "tab", "allow"],
    ["blob:https://example.com/1", "frame", "allow"],
    ["about:srcdoc", "frame", "allow"],
    ["chrome-error://chromewebdata/", "tab", "allow"],
    ["file:///etc/passwd", "tab", "scheme"],
    ["file:///etc/passwd", "frame", "scheme"],
    ["filesystem:https://example.com/temporary/x", "resource", "scheme"],
    ["chrome://settings", "tab", "scheme"],
    ["ws://example.com/s", "resource", "allow"],
    ["wss://example.com/s", "websocket", "allow"],
    ["https://example.com/s", "websocket", "scheme"],
  ] as const)("%s as %s: %s", (url, kind, expected) => {
    expect(verdict(openUrlPolicy, url, kind)).toBe(expected);
  });

  it("says why, in a sentence the model can act on", () => {
    const d = decideUrl(openUrlPolicy, "file:///etc/", "page");
    expect(d).toEqual({ allow: false, rule: "scheme", reason: "Only http and https pages (and about:blank) can be opened, not file: URLs. Open a web page instead." });
  });
});

describe("decideUrl: site lists", () => {
  it("holds every kind of URL to an allow list: origins by scheme, host and port; hosts by name", () => {
    const p = policy("http://127.0.0.1:3000;https://example.com;docs.example.org;*.shop.example");
    expect(verdict(p, "http://127.0.0.1:3000/a")).toBe("allow");
    expect(verdict(p, "http://127.0.0.1:3001/a")).toBe("not-allowed");
    expect(verdict(p, "https://127.0.0.1:3000/a")).toBe("not-allowed");
    expect(verdict(p, "https://example.com:443/")).toBe("allow");
    expect(verdict(p, "http://example.com/")).toBe("not-allowed");
    expect(verdict(p, "http://docs.example.org:8080/")).toBe("allow");
    expect(verdict(p, "https://a.docs.example.org/")).toBe("not-allowed");
    expect(verdict(p, "https://shop.example/")).toBe("allow");
    expect(verdict(p, "https://a.b.shop.example/")).toBe("allow");
    expect(verdict(p, "https://evilshop.example/")).toBe("not-allowed");
    // A WebSocket belongs to its http(s) twin's origin.
    expect(verdict(p, "ws://127.0.0.1:3000/live", "websocket")).toBe("allow");
    expect(verdict(p, "ws://127.0.0.2:4000/live", "websocket")).toBe("not-allowed");
    expect(verdict(p, "wss://example.com/live", "websocket")).toBe("allow");
    // Content without a network origin is not a site.
    expect(verdict(p, "about:blank")).toBe("allow");
    expect(verdict(p, "data:text/plain,x", "frame")).toBe("allow");
    expect(verdict(p, "file:///etc/", "page")).toBe("scheme");
  });

  it("lets blocked entries win over allowed ones", () => {
    const p = policy("*.example.com", "pay.example.com");
    expect(verdict(p, "https://www.example.com/")).toBe("allow");
    expect(verdict(p, "https://pay.example.com/")).toBe("blocked");
    expect(verdict(p, "wss://pay.example.com/", "websocket")).toBe("blocked");
  });

  it.each([
    "http://localhost:8080/",
    "http://LOCALHOST:8080/",
    "http://localhost.:8080/",
    "http://app.localhost/",
    "http://127.0.0.1/",
    "http://127.0.0.1./",
    "http://127.1/",
    "http://2130706433/",
    "http://127.9.8.7/",
    "http://0.0.0.0:8080/",
    "http://[::1]/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[0:0:0:0:0:ffff:7f00:1]/",
    "http://[::ffff:0.0.0.0]/",
    "ws://localhost.:9000/",
    "ws://[::ffff:127.0.0.1]:9000/",
  ])("--blocked-origins localhost also blocks %s", (url) => {
    const d = decideUrl(policy(undefined, "localhost"), url, url.startsWith("ws") ? "websocket" : "page");
    expect(d.allow).toBe(false);
    expect(d.allow || d.reason).toMatch(/is blocked \(--blocked-origins\)/);
  });

  it("treats every spelling of this machine as one site, port still counted for origins", () => {
    const p = policy("http://localhost:3000");
    expect(verdict(p, "http://127.0.0.1:3000/")).toBe("allow");
    expect(verdict(p, "http://[::ffff:127.0.0.1]:3000/")).toBe("allow");
    expect(verdict(p, "http://localhost.:3001/")).toBe("not-allowed");
    expect(verdict(p, "http://example.com:3000/")).toBe("not-allowed");
    expect(verdict(policy(undefined, "127.0.0.1"), "http://localhost/")).toBe("blocked");
    expect(verdict(policy(undefined, "[::1]"), "http://0.0.0.0/")).toBe("blocked");
  });

  it("normalises listed hosts like URL hosts: case, trailing dots, IDN", () => {
    expect(verdict(policy(undefined, "Example.COM."), "https://example.com/")).toBe("blocked");
    expect(verdict(policy(undefined, "example.com"), "https://EXAMPLE.com./")).toBe("blocked");
    expect(verdict(policy(undefined, "bücher.example"), "https://xn--bcher-kva.example/")).toBe("blocked");
    expect(verdict(policy(undefined, "*.example.com"), "https://a.example.com./")).toBe("blocked");
    expect(verdict(policy(undefined, "example.com"), "https://notexample.com/")).toBe("allow");
  });

  it("names the list and its entries in a refusal", () => {
    const d = decideUrl(policy("https://example.com;docs.example.org"), "http://127.0.0.1:4000/x", "page");
    expect(d.allow || d.reason).toBe(
      "http://127.0.0.1:4000 is not an allowed site (--allowed-origins https://example.com;docs.example.org). Use a page on an allowed site, or ask the user.",
    );
  });

  it.each(["localhost:3000", "example.com/path", "https://example.com/path", "ftp://example.com", "user@example.com", "exa mple.com", "https://", "*."])(
    "refuses the list entry %s, naming the flag",
    (entry) => {
      expect(() => policy(entry)).toThrow(`--allowed-origins: ${JSON.stringify(entry)} is neither an origin`);
    },
  );
});
