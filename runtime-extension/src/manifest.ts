/**
 * The extension's manifest (MV3), written by the build as `dist/manifest.json`. Each
 * permission is explained in README.md ("What each permission is for"); a test holds the two
 * to each other.
 */
export const permissions = {
  sidePanel: "shows Baton in Chrome's side panel, opened from the toolbar button",
  debugger:
    "lets the agent read pages and act with real clicks and keys through the Chrome DevTools Protocol; attached only to the tab a task started in and the tabs the agent opened",
  scripting:
    "injects the mask, the highlight and the DOM fallback into the agent's tabs (only those), where the debugger cannot attach",
  tabGroups: "groups the agent's tabs as Task(<id>), so you see which tabs it may touch",
  storage:
    "keeps your settings, your secrets (never synced, never sent to the backend), the run in progress and its call journal (so a reopened panel never repeats a step) in this browser, readable by the extension's own pages and worker only",
  offscreen: "keeps the service worker awake while a task runs",
  alarms: "checks your sign-in token periodically",
  declarativeNetRequest:
    "holds the agent's tabs (only those) to your site policy in the network: their frames, images, scripts and WebSockets from a blocked site, or one off your allowed list, are blocked while a task holds the tabs (session rules for their tab ids, lifted when it lets them go)",
} as const;

/**
 * Host permission: the agent works on whatever site you start a task on; the debugger and
 * scripting need it. It also lets the panel call the model's API in standalone mode (the
 * provider or base URL the user chose) without that server having to allow the extension's origin.
 */
export const hostPermissions = ["<all_urls>"] as const;

/**
 * The extension pages' content security policy: Chrome's default plus `'wasm-unsafe-eval'`, which
 * the standalone mode's embedded database (PGlite, WebAssembly) needs to compile in the panel.
 * Scripts still come from the extension only.
 */
export const extensionPagesCsp = "script-src 'self' 'wasm-unsafe-eval'; object-src 'self';";

/** The manifest for a given version. */
export function manifest(version: string): chrome.runtime.ManifestV3 {
  return {
    manifest_version: 3,
    name: "Baton",
    short_name: "Baton",
    description: "An AI agent that works in your own browser tabs, in plain sight, and asks before anything irreversible.",
    version,
    // Closing chrome.storage.local to content scripts (storage-access.ts) needs 140; the
    // debugger's flat sessions (out-of-process iframes) 125, the side panel API 116.
    minimum_chrome_version: "140",
    action: { default_title: "Open Baton", default_icon: { "16": "icons/16.png", "32": "icons/32.png" } },
    icons: { "16": "icons/16.png", "32": "icons/32.png", "48": "icons/48.png", "128": "icons/128.png" },
    side_panel: { default_path: "panel.html" },
    background: { service_worker: "service-worker.js", type: "module" },
    permissions: Object.keys(permissions) as chrome.runtime.ManifestPermission[],
    host_permissions: [...hostPermissions],
    content_security_policy: { extension_pages: extensionPagesCsp },
  };
}
