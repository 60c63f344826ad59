/** Masks secrets in a text. */
export type Redact = (text: string) => string;

/** Attribute keys whose values are secrets wherever they appear. */
export const secretKeyPattern = /pass(word|wd)?|secret|token|authori[sz]ation|api[-_]?key|cookie|session[-_]?id|card|cvv|otp/i;

/** Values that look like credentials even under an innocent key. */
const secretValuePattern = /\b(sk-[A-Za-z0-9_-]{8,}|bt_[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{20,}|Bearer\s+[A-Za-z0-9._~+/-]+=*)/g;

/** Names of environment variables that hold a secret (OPENAI_API_KEY, BATON_API_TOKEN, …). */
const secretEnvName = /(^|_)(API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD)$/i;

/** Shorter values are not masked: they would match ordinary words. */
const minSecretLength = 8;

/**
 * The operator's secrets in an environment: every variable named like one (…_API_KEY, …_TOKEN,
 * …_SECRET, …_PASSWORD), and the password of any database URL. A provider or proxy that echoes
 * its key in an error would otherwise hand it to every user who reads that session.
 */
export function envSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (secretEnvName.test(name)) out.push(value);
    if (/_URL$/i.test(name) && value.includes("@")) {
      try {
        const password = decodeURIComponent(new URL(value).password);
        if (password) out.push(password);
      } catch {
        // Not a URL.
      }
    }
  }
  return out.filter((v) => v.length >= minSecretLength);
}

/**
 * A redactor: each of `secrets` is masked wherever it appears (longest first, so a key that
 * contains another is masked whole), then anything credential-shaped (sk-…, bt_…, AIza…,
 * Bearer …).
 */
export function createRedactor(secrets: readonly string[] = []): Redact {
  const known = [...new Set(secrets.filter((s) => s.length >= minSecretLength))].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const s of known) if (out.includes(s)) out = out.split(s).join("[REDACTED]");
    return out.replace(secretValuePattern, "[REDACTED]");
  };
}

/** Masks credential-shaped substrings of free text (no known secrets). */
export const redactText: Redact = createRedactor();

/** A copy of string attributes with secret keys blanked and the values redacted. */
export function redactAttributes(attrs: Readonly<Record<string, string>>, redact: Redact = redactText): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(attrs)) out[redact(k)] = secretKeyPattern.test(k) ? "[REDACTED]" : redact(String(v));
  return out;
}
