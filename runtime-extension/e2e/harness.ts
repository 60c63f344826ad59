/**
 * The world the extension's end-to-end tests run in: the extension built with rollup into
 * `dist/` and loaded unpacked into headless Chromium, a real `baton serve` with its script
 * files in one directory (`BATON_SCRIPT_DIR`), and the fixture shop on 127.0.0.1. The panel is
 * Chrome's real side panel, opened beside the page with `chrome.sidePanel.open` from a real
 * (CDP) click, and driven with the engine itself: real clicks and keys, targets found by role
 * and name in a snapshot of the panel, so the panel's accessibility is tested on the way.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BackendProcess, startBackendProcess } from "@baton/backend";
import { buildExtension, type ExtensionBrowser, launchExtensionBrowser } from "../driver/extension-browser.js";
import { type Shop, startShop } from "./fixture-shop.js";

export { artefactDir, buildExtension, distDir, Panel, Target, type TimelineEntry, until, WebTab } from "../driver/extension-browser.js";

/** Everything a test needs. */
export interface World extends ExtensionBrowser {
  readonly shop: Shop;
  readonly backend: BackendProcess;
  readonly token: string;
  readonly scriptDir: string;
  /** Writes a script file into the backend's script directory; returns the model name for it. */
  script(name: string, script: unknown): string;
  /** Saves the settings as if the user had signed in. */
  signIn(model: string, extra?: Record<string, unknown>): Promise<void>;
}

/** Builds the extension and starts the backend, the shop and Chromium with the extension loaded. */
export async function startWorld(): Promise<World> {
  const work = mkdtempSync(join(tmpdir(), "baton-ext-e2e-"));
  const scriptDir = join(work, "scripts");
  mkdirSync(scriptDir);
  const token = "bt_extension_e2e_token_0123456789";
  const [shop, backend] = await Promise.all([
    startShop(),
    startBackendProcess(["--data-dir", join(work, "data"), "--script-dir", scriptDir], { BATON_API_TOKEN: token }, 90_000),
    buildExtension(),
  ]).then(([s, b]) => [s, b] as const);
  const eb = await launchExtensionBrowser();
  const world: World = {
    ...eb,
    shop,
    backend,
    token,
    scriptDir,
    script(name, script) {
      writeFileSync(join(scriptDir, name), JSON.stringify(script, null, 2));
      return `script:${name}`;
    },
    async signIn(model, extra = {}) {
      await eb.saveSettings({ backendUrl: backend.url, token, model, approval: "irreversible", diagnostics: false, ...extra });
    },
    async close() {
      await eb.close();
      await backend.kill();
      await shop.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
  return world;
}
