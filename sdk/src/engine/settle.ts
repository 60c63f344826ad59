import { delay } from "../cdp/timeouts.js";
import { type DocActivity, trackedDocs, waitDocQuiet } from "./activity-tracker.js";
import type { PageSession } from "./page-session.js";

/** Caps and window for settling after an action. */
export interface SettleOptions {
  /** Cap for a navigation the action started to reach its load event (default 10 s). */
  loadTimeoutMs?: number;
  /** Cap for network and DOM to go quiet (default 2 s). */
  quietTimeoutMs?: number;
  /**
   * How long network and DOM must have been quiet (default 50 ms; see docs/engine.md). The DOM
   * window runs from the last mutation or the action, whichever is later; the network window
   * from the last request start or end.
   */
  quietWindowMs?: number;
}

/** The default quiet window: just over two frames at 60 Hz plus timer slack (docs/engine.md). */
export const defaultQuietWindowMs = 50;

/** What settling observed, for evidence notes. */
export interface SettleReport {
  readonly notes: string[];
}

/**
 * Waits until the page is done reacting to an action: any navigation it started has loaded,
 * at least two frames have passed, every tracked document's DOM has been quiet for the window
 * and so has the network. The DOM and network conditions are checked concurrently (the DOM
 * wait runs inside each document, off the tracker's last-mutation time), each capped; no step
 * is a blind sleep.
 */
export async function settle(page: PageSession, loadsBefore: number, options: SettleOptions = {}): Promise<SettleReport> {
  const notes: string[] = [];
  const loadCap = options.loadTimeoutMs ?? 10_000;
  const quietCap = options.quietTimeoutMs ?? 2_000;
  const quiet = options.quietWindowMs ?? defaultQuietWindowMs;
  if (page.gone) return { notes };
  let until = Date.now() + quietCap;
  // First round: two frames and the DOM window (the page's own handlers have run, so a
  // navigation the action started is visible), with the network window alongside.
  let net = networkQuiet(page, quiet, until);
  let dom = await domQuiet(page, quiet, until, true);
  if (page.loadsStarted > loadsBefore) {
    const loaded = await waitUntil(page, () => page.loadsFinished >= page.loadsStarted, loadCap);
    if (!loaded) notes.push(`page still loading after ${Math.round(loadCap / 1000)} s`);
    until = Date.now() + quietCap;
    net = networkQuiet(page, quiet, until);
    dom = await domQuiet(page, quiet, until, true);
  }
  // Until both hold at once: a response that lands after the DOM went quiet may render.
  for (let retries = 0; ; ) {
    const domAt = Date.now();
    const netAt = await net;
    if (page.gone || Date.now() >= until) break;
    // A document that stays unreadable (being replaced, or one the tracker cannot enter) is
    // waited for a few times, then left out rather than costing every action the whole cap.
    if (dom === "retry" && ++retries > 3) dom = "quiet";
    if (dom === "quiet" && netAt <= domAt && networkIsQuiet(page, quiet)) break;
    if (dom === "retry") await delay(10);
    net = networkQuiet(page, quiet, until);
    dom = await domQuiet(page, quiet, until, false);
  }
  if (page.inflightRequests() > 0) notes.push("network still busy");
  if (dom === "busy") notes.push("page still changing");
  return { notes };
}

type DomState = "quiet" | "busy" | "retry";

/**
 * Waits in every tracked document, in parallel, for its DOM to be quiet for `windowMs`;
 * "busy" when one hit the cap, "retry" when one could not be read (it is being replaced).
 */
async function domQuiet(page: PageSession, windowMs: number, until: number, frames: boolean): Promise<DomState> {
  const cap = Math.max(0, until - Date.now());
  const docs = trackedDocs(page);
  const results = await Promise.all(
    docs.map((d) => waitDocQuiet(page, d, windowMs, cap, frames && d.top).catch((): DocActivity | undefined => undefined)),
  );
  if (results.some((r) => r && r.quiet === false)) return "busy";
  if (results.some((r) => !r) && !page.gone && Date.now() < until) return "retry";
  return "quiet";
}

/** Whether no young request is in flight and none started or ended within `windowMs`. */
function networkIsQuiet(page: PageSession, windowMs: number): boolean {
  return page.inflightRequests() === 0 && Date.now() - page.lastNetworkActivity >= windowMs;
}

/** Resolves (with the time) once the network is quiet for `windowMs`, or at `until`. */
function networkQuiet(page: PageSession, windowMs: number, until: number): Promise<number> {
  return new Promise<number>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = (): void => {
      clearTimeout(timer);
      const now = Date.now();
      if (page.gone || now >= until || networkIsQuiet(page, windowMs)) {
        stop();
        resolve(now);
        return;
      }
      // Re-check when the window would end, or every 50 ms while requests are in flight
      // (they stop counting once older than the in-flight age limit).
      const wait = page.inflightRequests() === 0 ? windowMs - (now - page.lastNetworkActivity) : 50;
      timer = setTimeout(check, Math.max(1, Math.min(wait, until - now)));
    };
    const stop = page.watch(check);
    check();
  });
}

/** Waits for a condition re-checked on every page event and every 50 ms; false at the cap. */
export function waitUntil(page: PageSession, check: () => boolean, capMs: number): Promise<boolean> {
  if (check()) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const finish = (): void => {
      clearInterval(poll);
      clearTimeout(cap);
      stop();
      resolve(check());
    };
    const poll = setInterval(() => {
      if (check() || page.gone) finish();
    }, 50);
    const cap = setTimeout(finish, capMs);
    const stop = page.watch(() => {
      if (check() || page.gone) finish();
    });
  });
}
