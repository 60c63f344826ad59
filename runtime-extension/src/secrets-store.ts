/**
 * The user's named secrets, kept in `chrome.storage.local` only (closed to the content script:
 * `storage-access.ts`): never synced, never sent to the backend. The panel hands them to `runTask({ secrets })`, which types a value where the model
 * wrote `<secret>name</secret>` and masks it in everything that leaves the browser. A one-time
 * code secret keeps its TOTP seed here; its code generator (`totpSecret` from `@baton/sdk/totp`) is
 * made again from the seed when the secrets are loaded for a run.
 */
import { checkSecrets, type Secret } from "@baton/sdk/client";

const key = "secrets";

/** A secret as kept: a {@link Secret} without its code generator (a function, which storage cannot hold). */
export type StoredSecret = Omit<Secret, "code">;

/** The secrets as kept, seeds and values included; the settings view shows only names, kinds and origins. */
export async function storedSecrets(): Promise<StoredSecret[]> {
  return ((await chrome.storage.local.get(key))[key] as StoredSecret[] | undefined) ?? [];
}

/**
 * Kept secrets made ready to type: a one-time code gets its code generator. The TOTP module is
 * loaded only when there is one, so a panel without one-time codes never loads a hash library.
 * Throws an Error naming the secret whose seed is not one.
 */
async function ready(kept: readonly StoredSecret[]): Promise<Secret[]> {
  if (!kept.some((s) => s.kind === "totp")) return [...kept];
  const { totpSecret } = await import("@baton/sdk/totp");
  return kept.map((s) => (s.kind === "totp" ? totpSecret(s) : s));
}

/** The secrets, values and one-time code generators included (for the run only). */
export async function loadSecrets(): Promise<Secret[]> {
  return ready(await storedSecrets());
}

/**
 * Adds or replaces the secret `secret.name`; throws an Error saying what is wrong (a bad name,
 * an empty value, a one-time code's seed that is not one, an origin that is not a URL) and then
 * saves nothing.
 */
export async function saveSecret(secret: StoredSecret): Promise<StoredSecret[]> {
  const next = [...(await storedSecrets()).filter((s) => s.name !== secret.name), secret];
  checkSecrets(await ready(next), { url: async () => "" });
  await chrome.storage.local.set({ [key]: next });
  return next;
}

/** Deletes the secret called `name`. */
export async function deleteSecret(name: string): Promise<StoredSecret[]> {
  const next = (await storedSecrets()).filter((s) => s.name !== name);
  await chrome.storage.local.set({ [key]: next });
  return next;
}
