/**
 * The user's named secrets, kept in `chrome.storage.local` only (closed to the content script:
 * `storage-access.ts`): never synced, never sent to the backend. The panel hands them to `runTask({ secrets })`, which types a value where the model
 * wrote `<secret>name</secret>` and masks it in everything that leaves the browser.
 */
import { checkSecrets, type Secret } from "@baton/sdk/client";

const key = "secrets";

/** The secrets, values included (for the run only; the settings view shows names and origins). */
export async function loadSecrets(): Promise<Secret[]> {
  return ((await chrome.storage.local.get(key))[key] as Secret[] | undefined) ?? [];
}

/**
 * Adds or replaces the secret `secret.name`; throws an Error saying what is wrong (a bad name,
 * an empty value, an origin that is not a URL) and then saves nothing.
 */
export async function saveSecret(secret: Secret): Promise<Secret[]> {
  const next = [...(await loadSecrets()).filter((s) => s.name !== secret.name), secret];
  checkSecrets(next, { url: async () => "" });
  await chrome.storage.local.set({ [key]: next });
  return next;
}

/** Deletes the secret called `name`. */
export async function deleteSecret(name: string): Promise<Secret[]> {
  const next = (await loadSecrets()).filter((s) => s.name !== name);
  await chrome.storage.local.set({ [key]: next });
  return next;
}
