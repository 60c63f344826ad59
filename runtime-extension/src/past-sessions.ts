import type { TaskOutcome } from "@baton/sdk/client";

/**
 * The sessions this browser ran, newest first, kept in `chrome.storage.local` so the panel can
 * list them and reopen one (its timeline comes from the backend's GetSession).
 */

/** One past session. */
export interface PastSession {
  readonly sessionId: string;
  readonly task: string;
  readonly status: TaskOutcome["status"] | "running";
  readonly answer: string;
  /** When it started (ms since the epoch). */
  readonly at: number;
}

const key = "sessions";
const max = 50;

/** The past sessions, newest first. */
export async function loadPastSessions(): Promise<PastSession[]> {
  return ((await chrome.storage.local.get(key))[key] as PastSession[] | undefined) ?? [];
}

/** Adds or updates a session (by id), keeping the newest `max`. */
export async function rememberSession(s: PastSession): Promise<void> {
  const list = (await loadPastSessions()).filter((x) => x.sessionId !== s.sessionId);
  const at = list.findIndex((x) => x.at < s.at);
  list.splice(at < 0 ? list.length : at, 0, s);
  await chrome.storage.local.set({ [key]: list.slice(0, max) });
}
