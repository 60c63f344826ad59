/**
 * `--policy FILE` and the origin flags as one site policy: JSON and YAML files, flags merged in
 * without loosening the file, and errors that name the file or flag and what is wrong.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decideAction, decideUrl } from "@baton/sdk/policy";
import { afterAll, describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "./args.js";
import { policyFromArgs, readPolicyFile } from "./policy-args.js";

const dir = mkdtempSync(join(tmpdir(), "baton-policy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("policy files", () => {
  it("reads YAML and JSON into the same policy", () => {
    const yaml = readPolicyFile(file("p.yaml", "allowed: [bank.example, shop.example]\nblocked:\n  - https://ads.shop.example\nread_only:\n  - bank.example\n"));
    const json = readPolicyFile(file("p.json", JSON.stringify({ allowed: ["bank.example", "shop.example"], blocked: ["https://ads.shop.example"], read_only: ["bank.example"] })));
    for (const p of [yaml, json]) {
      expect(decideUrl(p, "https://shop.example/", "page").allow).toBe(true);
      expect(decideUrl(p, "https://ads.shop.example/", "frame")).toMatchObject({ allow: false, rule: "blocked" });
      expect(decideUrl(p, "https://other.example/", "resource")).toMatchObject({ allow: false, rule: "not-allowed" });
      expect(decideAction(p, "https://bank.example/pay", "mutating")).toMatchObject({ allow: false, rule: "read-only" });
      expect(decideAction(p, "https://bank.example/pay", "read_only").allow).toBe(true);
      expect(decideAction(p, "https://shop.example/", "irreversible").allow).toBe(true);
    }
    // An empty file is an empty policy, not an error.
    expect(readPolicyFile(file("empty.yaml", "")).allowed).toEqual([]);
  });

  it("says which file and what is wrong", () => {
    const err = (path: string) => {
      try {
        readPolicyFile(path);
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return (e as Error).message;
      }
      throw new Error("no error");
    };
    expect(err(join(dir, "missing.yaml"))).toBe(`--policy ${join(dir, "missing.yaml")}: cannot read it (ENOENT)`);
    expect(err(file("bad.json", "{ allowed: [] }"))).toMatch(/: not valid JSON: /);
    expect(err(file("bad.yaml", "allowed: [a\n"))).toMatch(/: not valid YAML: /);
    expect(err(file("list.yaml", "- example.com\n"))).toContain('a site policy is an object with "allowed", "blocked" and "read_only" lists');
    expect(err(file("key.yaml", "readonly: [example.com]\n"))).toContain('unknown key "readonly"');
    expect(err(file("entry.yaml", "blocked: [https://example.com/path]\n"))).toContain("https://example.com/path");
  });
});

describe("policyFromArgs", () => {
  it("merges the file with the flags: blocked and read-only add up, the allow lists intersect, refusals name their source", () => {
    const path = file("team.yaml", "allowed: [shop.example, bank.example]\nblocked: [tracker.example]\n");
    const p = policyFromArgs(parseArgs(["--policy", path, "--allowed-origins", "shop.example;news.example", "--read-only-origins", "https://shop.example"]));
    expect(decideUrl(p, "https://shop.example/", "page").allow).toBe(true);
    // news.example is not in the file's allow list, bank.example not in the flag's: neither loads.
    expect(decideUrl(p, "https://news.example/", "page").allow).toBe(false);
    expect(decideUrl(p, "https://bank.example/", "page").allow).toBe(false);
    expect(decideUrl(p, "https://tracker.example/", "page")).toMatchObject({ allow: false, reason: expect.stringContaining(`--policy ${path}`) });
    expect(decideAction(p, "https://shop.example/cart", "mutating")).toMatchObject({ allow: false, reason: expect.stringContaining("--read-only-origins: read-only https://shop.example") });
  });

  it("takes the flags alone, and rejects a flag without a value", () => {
    expect(policyFromArgs(parseArgs([])).allowed).toEqual([]);
    expect(decideUrl(policyFromArgs(parseArgs(["--blocked-origins", "a.example"])), "https://a.example/", "page").allow).toBe(false);
    expect(() => policyFromArgs(parseArgs(["--policy"]))).toThrow("--policy needs a value");
    expect(() => policyFromArgs(parseArgs(["--read-only-origins", "not a host"]))).toThrow(UsageError);
  });
});
