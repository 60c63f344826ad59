/**
 * The user's settings, kept in `chrome.storage.local` (readable by this extension only): the
 * backend, the sign-in token, the model, the approval policy and whether diagnostics are
 * collected. One reader and one writer for every context.
 */

/** Which calls the panel asks the user about before they run. */
export type ApprovalPolicy =
  /** Only what the backend holds for approval (by default, irreversible actions: an order, a payment, a send). */
  | "irreversible"
  /** Also every call that changes a page (click, type, select…), asked in the panel before it runs. */
  | "every-change";

/** The settings. */
export interface Settings {
  /** The backend's base URL. */
  readonly backendUrl: string;
  /** The API token: pasted, or from the web console's device link ("Sign in with the console"). */
  readonly token: string;
  /** "provider:model"; empty for the backend's default. */
  readonly model: string;
  readonly approval: ApprovalPolicy;
  /** Collect per-provider, per-phase counts and latencies (off by default). */
  readonly diagnostics: boolean;
}

/** A fresh install's settings: a backend on this machine, as `npm start` serves it. */
export const defaultSettings: Settings = {
  backendUrl: "http://127.0.0.1:8787",
  token: "",
  model: "",
  approval: "irreversible",
  diagnostics: false,
};

const key = "settings";

/** Reads the settings, filling in defaults for anything missing. */
export async function loadSettings(): Promise<Settings> {
  const got = (await chrome.storage.local.get(key))[key] as Partial<Settings> | undefined;
  return { ...defaultSettings, ...(got ?? {}) };
}

/** Saves a change to the settings and returns the result. */
export async function saveSettings(change: Partial<Settings>): Promise<Settings> {
  const next = { ...(await loadSettings()), ...change };
  await chrome.storage.local.set({ [key]: next });
  return next;
}

/** Where sign-in stands, as the service worker's token check last saw it. */
export interface AuthState {
  readonly state: "unknown" | "ok" | "rejected";
  /** When it was checked (ms since the epoch). */
  readonly at: number;
  /** What the backend said, for a refused token. */
  readonly detail?: string;
}

const authKey = "auth";

/** The last token check. */
export async function loadAuth(): Promise<AuthState> {
  return ((await chrome.storage.local.get(authKey))[authKey] as AuthState | undefined) ?? { state: "unknown", at: 0 };
}

/** Records a token check. */
export async function saveAuth(auth: AuthState): Promise<void> {
  await chrome.storage.local.set({ [authKey]: auth });
}
