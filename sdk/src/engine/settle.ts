import { delay } from "../cdp/timeouts.js";
import type { PageSession } from "./page-session.js";

/** Caps for settling after an action. */
export interface SettleOptions {
  /** Cap for a navigation the action started to reach its load event (default 10 s). */
  loadTimeoutMs?: number;
  /** Cap for network and DOM to go quiet (default 2 s). */
  quietTimeoutMs?: number;
  /** How long network and DOM must stay quiet (default 60 ms). */
  quietWindowMs?: number;
}

/** What settling observed, for evidence notes. */
export interface SettleReport {
  readonly notes: string[];
}

/**
 * Waits until the page is done reacting to an action: any navigation it started has loaded,
 * no young requests are in flight and the DOM stopped mutating — each wait capped, each a
 * condition rather than a blind sleep.
 */
export async function settle(page: PageSession, loadsBefore: number, options: SettleOptions = {}): Promise<SettleReport> {
  const notes: string[] = [];
  const loadCap = options.loadTimeoutMs ?? 10_000;
  const quietCap = options.quietTimeoutMs ?? 2_000;
  const quiet = options.quietWindowMs ?? 60;
  if (page.gone) return { notes };
  // Let the page's own handlers and the next frame run, so a started navigation is visible.
  await nextFrames(page).catch(() => undefined);
  if (page.loadsStarted > loadsBefore) {
    const loaded = await waitUntil(page, () => page.loadsFinished >= page.loadsStarted, loadCap);
    if (!loaded) notes.push(`page still loading after ${Math.round(loadCap / 1000)} s`);
  }
  const started = Date.now();
  let quietSince = Date.now();
  while (!page.gone && Date.now() - started < quietCap) {
    if (page.inflightRequests() > 0) quietSince = Date.now();
    if (Date.now() - quietSince >= quiet) break;
    await delay(15);
  }
  if (page.inflightRequests() > 0) notes.push("network still busy");
  const remaining = Math.max(100, quietCap - (Date.now() - started));
  const domQuiet = await domQuietWindow(page, quiet, remaining).catch(() => true);
  if (!domQuiet) notes.push("page still changing");
  return { notes };
}

/** Two animation frames in the main frame: handlers have run and layout is fresh. */
async function nextFrames(page: PageSession): Promise<void> {
  await page.send(
    "Runtime.evaluate",
    {
      expression: "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))",
      awaitPromise: true,
      returnByValue: true,
    },
    page.rootId,
    1000,
  );
}

/** Resolves true once the main document sees no mutation for `windowMs`, false at the cap. */
async function domQuietWindow(page: PageSession, windowMs: number, capMs: number): Promise<boolean> {
  const expression = `new Promise((resolve) => {
    let timer; const cap = setTimeout(() => { mo.disconnect(); resolve(false); }, ${capMs});
    const done = () => { mo.disconnect(); clearTimeout(cap); resolve(true); };
    const mo = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, ${windowMs}); });
    mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    timer = setTimeout(done, ${windowMs});
  })`;
  const r = await page.send<{ result: { value?: boolean } }>(
    "Runtime.evaluate",
    { expression, awaitPromise: true, returnByValue: true },
    page.rootId,
    capMs + 1000,
  );
  return r.result.value !== false;
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
