/**
 * The standalone mode (no backend): the AgentService runs in the side panel's own page, on PGlite
 * over IndexedDB (`idb://baton`), served through Connect's in-memory router transport
 * (`@baton/backend/standalone`), and calls the model with the user's own key from the settings.
 *
 * The loop lives in the panel page because the panel's client drives it: every `Step` runs the
 * model turn in this page and returns the calls for the panel to run in the tab. Closing the panel
 * ends the page, and the step with it; the store on IndexedDB keeps every committed step, and the
 * next start clears the lease the closed page left, so the reopened panel's next `Step` resumes the
 * session where it stood. An offscreen document would keep the model call alive after the panel
 * closed, but nothing could run its calls until the panel came back, and it would hold the store
 * beside the panel: two owners of one IndexedDB database.
 */
import type { Transport } from "@connectrpc/connect";
import { type Standalone, startStandalone, userModelResolver } from "@baton/backend/standalone";
import { missingSetup, type Settings } from "../settings.js";
import { loadSitePolicy } from "../site-policy-store.js";

/** The IndexedDB database the store lives in. */
export const standaloneDataDir = "idb://baton";

/** The Web Lock a page holds while it owns the store: PGlite on IndexedDB has one writer. */
const storeLock = "baton-standalone-store";

let owner: Promise<void> | undefined;

/** Takes the store's lock for the rest of this page's life; fails when another panel holds it. */
function ownStore(): Promise<void> {
  owner ??= new Promise<void>((resolve, reject) => {
    void navigator.locks.request(storeLock, { ifAvailable: true }, (lock) => {
      if (!lock) {
        owner = undefined;
        reject(new Error("Baton's own store is open in a Baton panel in another window: close that panel to run tasks here."));
        return;
      }
      resolve();
      // Held until the page closes.
      return new Promise<void>(() => undefined);
    });
  });
  return owner;
}

let running: { readonly id: string; readonly started: Promise<Standalone> } | undefined;

/**
 * The AgentService in this page for the user's model key, started on first use (and again when the
 * key or base URL changes). Fails with what to fill in when the settings lack a model or key.
 */
export function standaloneService(s: Settings): Promise<Standalone> {
  const missing = missingSetup(s);
  if (missing) return Promise.reject(new Error(missing));
  const id = JSON.stringify([s.modelKey, s.modelBaseUrl.trim()]);
  if (running?.id === id) return running.started;
  const previous = running?.started;
  const started = (async () => {
    await ownStore();
    await previous?.then((p) => p.close()).catch(() => undefined);
    return startStandalone({
      dataDir: standaloneDataDir,
      resolveModel: userModelResolver({ apiKey: s.modelKey, baseUrl: s.modelBaseUrl }),
      // The key is masked in every provider error before it is stored or shown.
      secrets: s.modelKey ? [s.modelKey] : [],
      // The loop refuses a call on a read-only or blocked site of the settings before the panel
      // runs it (read again at each turn, so a saved change holds from the next one).
      sitePolicy: loadSitePolicy,
    });
  })();
  const mine = { id, started };
  running = mine;
  started.catch(() => {
    if (running === mine) running = undefined;
  });
  return started;
}

/** The in-memory transport to this page's AgentService. */
export async function standaloneTransport(s: Settings): Promise<Transport> {
  return (await standaloneService(s)).transport;
}
