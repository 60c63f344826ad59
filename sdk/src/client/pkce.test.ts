import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createPkce, s256Challenge } from "./pkce.js";

describe("PKCE", () => {
  it("matches RFC 7636 appendix B's example", async () => {
    expect(await s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("makes fresh 43-character verifiers whose challenge is node's SHA-256 of them", async () => {
    const a = await createPkce();
    const b = await createPkce();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.verifier).not.toBe(b.verifier);
    expect(a.challenge).toBe(createHash("sha256").update(a.verifier).digest("base64url"));
  });
});
