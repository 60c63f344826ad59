import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** A token `baton login` saved for one backend. */
export interface SavedLogin {
  readonly token: string;
  readonly userId: string;
  readonly tokenId: string;
  readonly savedAt: string;
}

/** Where `baton login` keeps tokens: `$XDG_CONFIG_HOME/baton/credentials.json` (~/.config/…), mode 0600. */
export function credentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "baton", "credentials.json");
}

/** A backend's address as the key it is saved under (no trailing slash). */
export function backendKey(url: string): string {
  return url.replace(/\/+$/, "");
}

function readAll(file: string): Record<string, SavedLogin> {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, SavedLogin>;
  } catch {
    return {};
  }
}

/** The token saved for a backend, if any. */
export function savedLogin(url: string, env: NodeJS.ProcessEnv = process.env): SavedLogin | undefined {
  return readAll(credentialsFile(env))[backendKey(url)];
}

/** Saves a backend's token (the file and its directory private to this user). */
export function saveLogin(url: string, login: SavedLogin, env: NodeJS.ProcessEnv = process.env): string {
  const file = credentialsFile(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const all = { ...readAll(file), [backendKey(url)]: login };
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}
