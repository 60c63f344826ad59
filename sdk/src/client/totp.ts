/**
 * One-time codes from TOTP seeds, on otplib. A separate entry (`@baton/sdk/totp`) so that the
 * browser client carries no hash library unless one-time codes are used: `totpSecret` gives a
 * secret its code generator, and the secrets layer calls it.
 */
import { createGuardrails, generateSync } from "otplib";
import type { Secret } from "./secrets.js";
import { parseTotpSeed, type TotpSeed } from "./totp-seed.js";

export { parseTotpSeed, type TotpSeed };

/**
 * RFC 4226 asks for keys of 128 bits and more, but sites still hand out 80-bit ones (16 Base32
 * letters, what authenticator apps show as JBSWY3DPEHPK3PXP): a person must be able to use them.
 */
const guardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });

/** The code of a seed at a time (milliseconds since the epoch; now by default). */
export function totpCode(seed: TotpSeed, at: number = Date.now()): string {
  return generateSync({
    strategy: "totp",
    secret: seed.secret,
    algorithm: seed.algorithm,
    digits: seed.digits,
    period: seed.period,
    epoch: Math.floor(at / 1000),
    guardrails,
  });
}

/**
 * A secret whose value is a TOTP seed (a Base32 key or an `otpauth://totp/…` link): what is
 * typed in its place is the seed's current code. Throws an Error saying what is wrong with the seed.
 */
export function totpSecret(s: Omit<Secret, "kind" | "code">): Secret {
  let seed: TotpSeed;
  try {
    seed = parseTotpSeed(s.value);
  } catch (e) {
    throw new Error(`secret "${s.name}": ${e instanceof Error ? e.message : String(e)}`);
  }
  return { ...s, kind: "totp", code: (at?: number) => totpCode(seed, at) };
}
