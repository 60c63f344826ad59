/**
 * Keeps the service worker alive while a panel runs a turn (Chrome stops an idle worker, and
 * with it the relay the panel's turn depends on): each panel in a run
 * holds a port open to the worker; while at least one is open, an offscreen document pings the
 * worker every 20 s, which resets its idle timer (an idle worker is stopped after 30 s). The
 * count is the set of open ports itself, so it cannot drift: a worker that restarts has lost its
 * ports too, and each panel reconnects (and so re-acquires) when its port drops.
 */

const offscreenUrl = "offscreen.html";

/** Reference-counted keepalive over the open ports. */
export class Keepalive {
  readonly #ports = new Set<chrome.runtime.Port>();
  #pending: Promise<void> = Promise.resolve();

  /** How many panels hold the worker alive. */
  get holders(): number {
    return this.#ports.size;
  }

  /** A panel's port opened. */
  acquire(port: chrome.runtime.Port): Promise<void> {
    this.#ports.add(port);
    return this.#sync();
  }

  /** A panel's port closed (released or the panel went away). */
  release(port: chrome.runtime.Port): Promise<void> {
    this.#ports.delete(port);
    return this.#sync();
  }

  /** Creates or closes the offscreen document to match the count, one change at a time. */
  #sync(): Promise<void> {
    this.#pending = this.#pending.then(async () => {
      const open = (await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT] })).length > 0;
      if (this.#ports.size > 0 && !open) {
        await chrome.offscreen.createDocument({
          url: offscreenUrl,
          reasons: [chrome.offscreen.Reason.WORKERS],
          justification: "Keeps the extension's service worker awake while an agent turn runs.",
        });
      } else if (this.#ports.size === 0 && open) {
        await chrome.offscreen.closeDocument();
      }
    }).catch(() => undefined);
    return this.#pending;
  }
}
