import { describe, expect, it } from "vitest";
import { parseTotpSeed, totpCode } from "./totp.js";

/** RFC 6238, Appendix B: the keys (ASCII "1234567890…" of 20, 32 and 64 bytes) in Base32. */
const keys = {
  sha1: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
  sha256: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA====",
  sha512: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA=",
} as const;

/** RFC 6238, Appendix B: time (s) → the 8-digit codes of SHA1, SHA256 and SHA512. */
const vectors: [number, string, string, string][] = [
  [59, "94287082", "46119246", "90693936"],
  [1111111109, "07081804", "68084774", "25091201"],
  [1111111111, "14050471", "67062674", "99943326"],
  [1234567890, "89005924", "91819424", "93441116"],
  [2000000000, "69279037", "90698825", "38618901"],
  [20000000000, "65353130", "77737706", "47863826"],
];

describe("TOTP", () => {
  it.each(vectors)("gives RFC 6238's codes at %i s", (t, sha1, sha256, sha512) => {
    const at = t * 1000;
    expect(totpCode(parseTotpSeed(`otpauth://totp/RFC?secret=${keys.sha1}&digits=8`), at)).toBe(sha1);
    expect(totpCode(parseTotpSeed(`otpauth://totp/RFC?secret=${keys.sha256}&digits=8&algorithm=SHA256`), at)).toBe(sha256);
    expect(totpCode(parseTotpSeed(`otpauth://totp/RFC?secret=${keys.sha512}&digits=8&algorithm=SHA512`), at)).toBe(sha512);
  });

  it("reads a Base32 key as sites print it: grouped, lower case, padded; 6 digits every 30 s by default", () => {
    const seed = parseTotpSeed("gezd gnbv gy3t qojq gezd gnbv gy3t qojq\n");
    expect(seed).toEqual({ secret: keys.sha1, algorithm: "sha1", digits: 6, period: 30 });
    // The last six digits of the 8-digit vector: the same truncation.
    expect(totpCode(seed, 59_000)).toBe("287082");
    expect(totpCode(seed, 59_000)).not.toBe(totpCode(seed, 61_000));
  });

  it.each([
    ["", /empty/],
    ["not a key!", /not Base32/],
    ["JBSWY3DP", /too short/],
    ["otpauth://hotp/x?secret=JBSWY3DPEHPK3PXP", /not time-based/],
    ["otpauth://totp/x", /no secret=/],
    ["otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&algorithm=MD5", /not SHA1, SHA256 or SHA512/],
    ["otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&digits=4", /not 6, 7 or 8/],
  ])("refuses %j, saying what a key looks like", (text, why) => {
    expect(() => parseTotpSeed(text)).toThrow(why);
    expect(() => parseTotpSeed(text)).toThrow(/Base32, such as JBSWY3DPEHPK3PXP/);
  });
});
