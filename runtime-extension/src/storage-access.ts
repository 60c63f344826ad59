/**
 * Who may read the extension's storage. The content script runs in every tab the agent works
 * on, in a world the page shares a renderer with, and by default `chrome.storage.local` is open
 * to it: the model key, the backend token and the user's secrets with it. Restricted to trusted
 * contexts (the panel, the service worker, the offscreen document), a content script's
 * `chrome.storage.local` call fails instead. Chrome keeps the setting, but every trusted entry
 * point sets it again before anything injects a script, so no start order can skip it; it
 * needs Chrome 140 (`minimum_chrome_version`). `chrome.storage.session` is trusted-only already.
 */

/** Closes `chrome.storage.local` to content scripts. */
export function restrictStorage(): Promise<void> {
  return chrome.storage.local.setAccessLevel({ accessLevel: "TRUSTED_CONTEXTS" });
}
