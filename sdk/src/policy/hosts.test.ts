import { describe, expect, it } from "vitest";
import { canonicalHost } from "./hosts.js";

/** The hostname the URL parser gives for a URL's authority, then canonicalised. */
const host = (authority: string) => canonicalHost(new URL(`http://${authority}/`).hostname);

describe("canonicalHost", () => {
  it.each([
    // [as written in a URL, canonical name, loopback]
    ["Example.COM", "example.com", false],
    ["example.com.", "example.com", false],
    ["example.com..", "example.com", false],
    ["bücher.example", "xn--bcher-kva.example", false],
    ["localhost", "localhost", true],
    ["LOCALHOST.", "localhost", true],
    ["app.localhost", "app.localhost", true],
    ["127.0.0.1", "127.0.0.1", true],
    ["127.0.0.1.", "127.0.0.1", true],
    ["127.1", "127.0.0.1", true],
    ["0x7f.1", "127.0.0.1", true],
    ["2130706433", "127.0.0.1", true],
    ["127.255.0.9", "127.255.0.9", true],
    ["0.0.0.0", "0.0.0.0", true],
    ["0", "0.0.0.0", true],
    ["[::1]", "[::1]", true],
    ["[0:0:0:0:0:0:0:1]", "[::1]", true],
    ["[::]", "[::]", true],
    ["[::ffff:127.0.0.1]", "[::ffff:7f00:1]", true],
    ["[::ffff:7f00:1]", "[::ffff:7f00:1]", true],
    ["[::ffff:0.0.0.0]", "[::ffff:0:0]", true],
    ["[::127.0.0.1]", "[::7f00:1]", true],
    ["128.0.0.1", "128.0.0.1", false],
    ["10.0.0.1", "10.0.0.1", false],
    ["[::ffff:10.0.0.1]", "[::ffff:a00:1]", false],
    ["[2001:db8::1]", "[2001:db8::1]", false],
    ["127.example.com", "127.example.com", false],
    ["localhost.example.com", "localhost.example.com", false],
  ])("%s is %s (loopback: %s)", (authority, name, loopback) => {
    expect(host(authority)).toEqual({ name, loopback });
  });
});
