/**
 * The user's settings, kept in `chrome.storage.local` (readable by this extension's pages and
 * worker, not by its content script: `storage-access.ts`): the backend, the sign-in token, the
 * model (and, with no backend, the user's own model key and base URL), the approval policy and
 * whether diagnostics are collected. One reader and one writer for every context.
 */

import type { TaskBudget } from "@baton/sdk/client";

/** Which calls the panel asks the user about before they run. */
export type ApprovalPolicy =
  /** Only what the backend holds for approval (by default, irreversible actions: an order, a payment, a send). */
  | "irreversible"
  /** Also every call that changes a page (click, type, select…), asked in the panel before it runs. */
  | "every-change";

/** The settings. */
export interface Settings {
  /** The backend's base URL; empty for the standalone mode (the agent runs in the panel). */
  readonly backendUrl: string;
  /** The API token: pasted, or from the web console's device link ("Sign in with the console"). */
  readonly token: string;
  /** "provider:model"; empty for the backend's default (standalone mode needs one). */
  readonly model: string;
  /** Standalone mode: the user's own API key for the model's provider (never sent anywhere else). */
  readonly modelKey: string;
  /** Standalone mode: the provider's base URL when not its own (an OpenAI-compatible server, a proxy); empty for the default. */
  readonly modelBaseUrl: string;
  /** Most steps a new task may take (1–10000); 0 for the backend's default (50 in standalone mode). */
  readonly maxSteps: number;
  readonly approval: ApprovalPolicy;
  /**
   * The ceiling each new task may spend (tokens, US dollars, seconds; 0 in a field: none on it),
   * sent as CreateSession's budget. All 0: the backend's default budget for the user, if any.
   */
  readonly budget: Required<TaskBudget>;
  /** Collect per-provider, per-phase counts and latencies (off by default). */
  readonly diagnostics: boolean;
}

/** A fresh install's settings: a backend on this machine, as `npm start` serves it. */
export const defaultSettings: Settings = {
  backendUrl: "http://127.0.0.1:8787",
  token: "",
  model: "",
  modelKey: "",
  modelBaseUrl: "",
  maxSteps: 0,
  approval: "irreversible",
  budget: { tokens: 0, costUsd: 0, seconds: 0 },
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

/** The budget a new task asks for, or undefined when the settings set no ceiling (the backend's default then applies). */
export function taskBudgetOf(s: Settings): TaskBudget | undefined {
  const { tokens, costUsd, seconds } = s.budget;
  return tokens > 0 || costUsd > 0 || seconds > 0 ? { tokens, costUsd, seconds } : undefined;
}

/** Connected (a backend URL is set: the team's backend runs the agent) or standalone (the agent runs in the panel). */
export function modeOf(s: Settings): "connected" | "standalone" {
  return s.backendUrl.trim() ? "connected" : "standalone";
}

/**
 * What the user still has to fill in before a task can run, in words; "" when nothing. Connected
 * mode needs a token; standalone mode a model ("provider:model") and, except for a local Ollama,
 * its API key.
 */
export function missingSetup(s: Settings): string {
  if (modeOf(s) === "connected") return s.token ? "" : "Sign in: paste the backend's API token, or sign in with the console.";
  const model = s.model.trim();
  if (!model && !s.modelKey) return "No backend and no model key: enter a backend URL, or a model and your API key to run Baton without a backend.";
  const at = model.indexOf(":");
  if (at <= 0 || at === model.length - 1) return 'Choose a model as "provider:model", such as openai:gpt-5-mini or gemini:gemini-2.5-flash.';
  if (!s.modelKey && !model.startsWith("ollama:")) return `Add your ${model.slice(0, at)} API key: without a backend, Baton calls the model with your own key.`;
  return "";
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
