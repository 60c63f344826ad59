import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { extensionPagesCsp, hostPermissions, manifest, permissions } from "./manifest.js";

describe("the manifest", () => {
  it("asks for exactly the permissions the README explains, with the same reason", () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");
    const section = readme.split("## What each permission is for")[1]?.split("\n## ")[0] ?? "";
    const rows = new Map([...section.matchAll(/^\| `([\w]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]));
    expect([...rows.keys()].sort()).toEqual(Object.keys(permissions).sort());
    for (const [name, why] of Object.entries(permissions)) expect(rows.get(name)).toBe(why);
    for (const host of hostPermissions) expect(section).toContain(`host access \`${host}\``);
    const m = manifest("1.2.3");
    expect(m.permissions).toEqual(Object.keys(permissions));
    expect(m.host_permissions).toEqual([...hostPermissions]);
    expect(m.version).toBe("1.2.3");
  });

  it("lets extension pages compile WebAssembly (the standalone store) and nothing else beyond Chrome's default", () => {
    const m = manifest("1.2.3");
    expect(m.content_security_policy?.extension_pages).toBe(extensionPagesCsp);
    const directives = new Map(extensionPagesCsp.split(";").map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map((d) => [d[0], d.slice(1)]));
    expect(directives.get("script-src")).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives.get("object-src")).toEqual(["'self'"]);
    // The README says why.
    const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");
    expect(readme).toContain("`'wasm-unsafe-eval'`");
  });
});
