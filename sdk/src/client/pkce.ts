/**
 * PKCE (RFC 7636) for the console's device link, with Web Crypto only, so the same code runs
 * in the extension and in Node (`baton login`).
 */

/** A PKCE pair: the secret verifier the device keeps and the S256 challenge it sends. */
export interface Pkce {
  /** 43 characters of BASE64URL (32 random bytes): RFC 7636 §4.1. */
  readonly verifier: string;
  /** BASE64URL(SHA-256(ASCII(verifier))), no padding: RFC 7636 §4.2. */
  readonly challenge: string;
}

function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The S256 challenge of a verifier. */
export async function s256Challenge(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

/** A fresh verifier and its S256 challenge. */
export async function createPkce(): Promise<Pkce> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  return { verifier, challenge: await s256Challenge(verifier) };
}
