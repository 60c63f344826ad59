import { createHash, randomBytes } from "node:crypto";

/** A random, URL-safe id with a readable prefix ("ses_…", "mem_…"). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("base64url")}`;
}

/** A new API token. Only its hash is stored, so it is shown once. */
export function newToken(): string {
  return `bt_${randomBytes(24).toString("base64url")}`;
}

/** The stored form of an API token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
