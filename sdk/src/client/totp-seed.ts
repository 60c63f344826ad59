/** TOTP seeds (RFC 6238) as sites hand them out, read without the code generator (`totp.ts`). */
/** A TOTP seed (RFC 6238) as an authenticator app holds it. */
export interface TotpSeed {
  /** The shared key, Base32 (upper case, no spaces or padding). */
  readonly secret: string;
  readonly algorithm: "sha1" | "sha256" | "sha512";
  /** Digits of a code (6 to 8). */
  readonly digits: number;
  /** Seconds a code lasts. */
  readonly period: number;
}

const algorithms = new Set(["sha1", "sha256", "sha512"]);

function bad(why: string): never {
  throw new Error(`${why}: give the key a site shows when it sets up an authenticator app (Base32, such as JBSWY3DPEHPK3PXP), or its otpauth://totp/… link`);
}

/**
 * Reads a TOTP seed: a Base32 key (spaces, dashes, padding and letter case as sites print them
 * are fine), or an `otpauth://totp/…?secret=…` link (its `algorithm`, `digits` and `period`
 * are kept). Throws an Error saying what is wrong.
 */
export function parseTotpSeed(text: string): TotpSeed {
  const t = text.trim();
  let secret = t;
  let algorithm = "sha1";
  let digits = 6;
  let period = 30;
  if (/^otpauth:/i.test(t)) {
    let url: URL;
    try {
      url = new URL(t);
    } catch {
      bad("the one-time code's link is not a URL");
    }
    if (url.host.toLowerCase() !== "totp") bad(`the link is for ${url.host || "no"} codes, not time-based ones (otpauth://totp/…)`);
    secret = url.searchParams.get("secret") ?? bad("the link has no secret= parameter");
    algorithm = (url.searchParams.get("algorithm") ?? "sha1").toLowerCase();
    digits = Number(url.searchParams.get("digits") ?? 6);
    period = Number(url.searchParams.get("period") ?? 30);
  }
  secret = secret.replace(/[\s-]+/g, "").replace(/=+$/, "").toUpperCase();
  if (!secret) bad("the one-time code's key is empty");
  if (!/^[A-Z2-7]+$/.test(secret)) bad("the one-time code's key is not Base32 (letters A–Z and digits 2–7)");
  if (secret.length < 16) bad("the one-time code's key is too short (under 80 bits)");
  if (!algorithms.has(algorithm)) bad(`the link's algorithm ${JSON.stringify(algorithm)} is not SHA1, SHA256 or SHA512`);
  if (!Number.isInteger(digits) || digits < 6 || digits > 8) bad(`the link's digits=${digits} is not 6, 7 or 8`);
  if (!Number.isInteger(period) || period < 1 || period > 3600) bad(`the link's period=${period} is not a number of seconds`);
  return { secret, algorithm: algorithm as TotpSeed["algorithm"], digits, period };
}
