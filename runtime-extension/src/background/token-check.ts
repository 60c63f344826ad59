import { Code, ConnectError } from "@connectrpc/connect";
import { createBatonClient } from "@baton/sdk/client";
import { loadSettings, saveAuth } from "../settings.js";

/** The alarm that checks the token. */
export const tokenAlarm = "baton-token-check";

/**
 * Checks the saved token against the backend (a cheap per-user call) and records the verdict,
 * so the panel can say "sign in again" before a task fails on it. The panel also runs it when it
 * opens, so a token revoked in the console shows as signed out at once.
 * An unreachable backend changes nothing: only the backend's refusal marks a token rejected.
 */
export async function checkToken(): Promise<void> {
  const settings = await loadSettings();
  if (!settings.token || !settings.backendUrl) return;
  try {
    await createBatonClient({ baseUrl: settings.backendUrl, token: settings.token }).listPlaybooks({});
    await saveAuth({ state: "ok", at: Date.now() });
  } catch (e) {
    const err = ConnectError.from(e);
    if (err.code === Code.Unauthenticated || err.code === Code.PermissionDenied) {
      await saveAuth({ state: "rejected", at: Date.now(), detail: err.rawMessage });
    }
  }
}
