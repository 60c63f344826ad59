import { describe, expect, it } from "vitest";
import { hostGuard, isLoopbackListener, linkBase, parseHostList } from "./allowed-hosts.js";

describe("which hosts may call our servers", () => {
  const loopback = hostGuard({ listenHost: "127.0.0.1", port: 8787 });

  it("answers the listen address and the loopback names on the listen port only", () => {
    for (const h of ["127.0.0.1:8787", "localhost:8787", "LOCALHOST:8787", "localhost.:8787", "[::1]:8787", "2130706433:8787"]) {
      expect(loopback.refuseHost(h), h).toBeUndefined();
    }
    for (const h of ["evil.example", "evil.example:8787", "rebind.example:8787", "127.0.0.1:8788", "localhost", "127.0.0.2:8787", "[::ffff:127.0.0.1]:8787"]) {
      expect(loopback.refuseHost(h), h).toMatch(/does not answer/);
    }
    for (const h of [undefined, "", "a b", "evil.example/x", "user@127.0.0.1:8787", "127.0.0.1:8787?x"]) {
      expect(loopback.refuseHost(h), String(h)).toBeDefined();
    }
  });

  it("answers any IP literal on the port of a wildcard listener, and never a name it was not given", () => {
    const any = hostGuard({ listenHost: "0.0.0.0", port: 8787 });
    for (const h of ["192.168.1.20:8787", "127.0.0.2:8787", "[fe80::1]:8787", "localhost:8787"]) expect(any.refuseHost(h), h).toBeUndefined();
    for (const h of ["192.168.1.20:8788", "baton.lan:8787", "rebind.example:8787"]) expect(any.refuseHost(h), h).toBeDefined();
  });

  it("answers the public URL's host (with or without its port) and the operator's allow-list", () => {
    const g = hostGuard({ listenHost: "127.0.0.1", port: 8787, publicUrl: "https://baton.example.com", allowed: ["baton.lan", "other.lan:9000"] });
    for (const h of ["baton.example.com", "baton.example.com:443", "baton.lan", "baton.lan:1234", "other.lan:9000"]) expect(g.refuseHost(h), h).toBeUndefined();
    for (const h of ["baton.example.com:8443", "other.lan", "other.lan:9001", "evil.baton.lan"]) expect(g.refuseHost(h), h).toBeDefined();
  });

  it("takes an Origin only when it names this server, and no Origin at all (not a browser)", () => {
    expect(loopback.refuseOrigin(undefined)).toBeUndefined();
    for (const o of ["http://127.0.0.1:8787", "http://localhost:8787"]) expect(loopback.refuseOrigin(o), o).toBeUndefined();
    for (const o of ["null", "http://127.0.0.1:9", "http://evil.example", "chrome-extension://abc", "http://127.0.0.1:8787/path"]) {
      expect(loopback.refuseOrigin(o), o).toBeDefined();
    }
  });

  it("reads an allow-list and refuses a URL in it", () => {
    expect(parseHostList(" Baton.LAN , x.lan:8443,", "--allowed-hosts")).toEqual(["baton.lan", "x.lan:8443"]);
    expect(() => parseHostList("https://baton.lan", "--allowed-hosts")).toThrow(/--allowed-hosts: "https:\/\/baton\.lan" is not a host name/);
    expect(parseHostList(undefined, "x")).toEqual([]);
  });

  it("builds links from the public URL or the listen address, never from a request", () => {
    expect(linkBase({ listenHost: "127.0.0.1", port: 8787 })).toBe("http://127.0.0.1:8787");
    expect(linkBase({ listenHost: "0.0.0.0", port: 8787 })).toBe("http://127.0.0.1:8787");
    expect(linkBase({ listenHost: "::1", port: 1 })).toBe("http://[::1]:1");
    expect(linkBase({ listenHost: "0.0.0.0", port: 8787, publicUrl: "https://baton.example.com/" })).toBe("https://baton.example.com");
  });

  it("counts only the loopback names as a loopback listener", () => {
    expect(["127.0.0.1", "localhost", "::1", "[::1]"].map(isLoopbackListener)).toEqual([true, true, true, true]);
    expect(["0.0.0.0", "::", "127.0.0.2", "192.168.1.2"].map(isLoopbackListener)).toEqual([false, false, false, false]);
  });
});
