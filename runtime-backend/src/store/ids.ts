/**
 * Ids and tokens, with the Web Crypto API (Node ≥ 20 and browsers alike): the store runs in
 * a server and in an extension page.
 */
import { hexOf } from "../base/hex.js";

function base64url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function randomText(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A random, URL-safe id with a readable prefix ("ses_…", "mem_…"). */
export function newId(prefix: string): string {
  return `${prefix}_${randomText(12)}`;
}

/** A random secret with a readable prefix, 32 bytes of entropy. */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomText(32)}`;
}

/** A new API token. Only its hash is stored, so it is shown once. */
export function newToken(): string {
  return `bt_${randomText(24)}`;
}

/** The stored form of an API token: its SHA-256, in hex. */
export async function hashToken(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  return hexOf(digest);
}
