/** Attribute keys whose values are secrets wherever they appear. */
export const secretKeyPattern = /pass(word|wd)?|secret|token|authori[sz]ation|api[-_]?key|cookie|session[-_]?id|card|cvv|otp/i;

/** Values that look like credentials even under an innocent key. */
const secretValuePattern = /\b(sk-[A-Za-z0-9_-]{8,}|bt_[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{20,}|Bearer\s+[A-Za-z0-9._~+/-]+=*)/g;

/** Replaces credential-looking substrings of free text. */
export function redactText(text: string): string {
  return text.replace(secretValuePattern, "[REDACTED]");
}

/** A copy of string attributes with secret keys blanked and secret-looking values masked. */
export function redactAttributes(attrs: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(attrs)) {
    out[k] = secretKeyPattern.test(k) ? "[REDACTED]" : redactText(String(v)).slice(0, 4000);
  }
  return out;
}
