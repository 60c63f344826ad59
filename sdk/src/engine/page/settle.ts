import { delay } from "../../cdp/timeouts.js";
import { type DocActivity, type QuietFrom, readDoc, trackedDocs, waitDocQuiet } from "./activity-tracker.js";
import type { FrameInfo, PageSession } from "./page-session.js";
import { urlOrigin } from "../base/sanitize.js";

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

/**
 * Which frames' activity an action waits for: the top document, frames of its origin, and a
 * cross-origin frame the action targeted, with the frames inside it and around it. Other
 * cross-origin frames are the page's background — ads, trackers, chat widgets — which fetch
 * and animate on their own schedule; waiting for them to be quiet cost every action on such a
 * page the whole 2 s cap ("network still busy"). Requests outside any frame (workers) and
 * frames not known yet count, and so does a frame's document request, for its parent (the
 * frame appearing).
 */
export function settleScope(page: PageSession, actionFrameId?: string): (frameId: string | undefined) => boolean {
  return (frameId) => {
    if (!frameId) return true;
    const top = page.mainFrame();
    const frame = page.frames.get(frameId);
    if (!top || !frame || frame === top) return true;
    const origin = originOf(page, top);
    if (originOf(page, frame) === origin) return true;
    // A cross-origin frame the action targeted: it, what it contains, and what contains it.
    const action = actionFrameId ? page.frames.get(actionFrameId) : undefined;
    if (!action || originOf(page, action) === origin) return false;
    return isWithin(page, frameId, action.id) || isWithin(page, action.id, frameId);
  };
}

/** A frame, then its parent, and so on up to the top (bounded, in case of a cycle). */
function* selfAndAncestors(page: PageSession, frame: FrameInfo | undefined): Generator<FrameInfo> {
  for (let f = frame, hops = 0; f && hops < 50; f = f.parentId ? page.frames.get(f.parentId) : undefined, hops++) yield f;
}

/** Whether `frameId` is `ancestorId` or inside it. */
function isWithin(page: PageSession, frameId: string, ancestorId: string): boolean {
  for (const f of selfAndAncestors(page, page.frames.get(frameId))) if (f.id === ancestorId) return true;
  return false;
}

/** A frame's origin; `about:` documents (blank, srcdoc) have their parent's. */
function originOf(page: PageSession, frame: FrameInfo): string {
  for (const f of selfAndAncestors(page, frame)) if (f.url !== "" && !f.url.startsWith("about:")) return urlOrigin(f.url);
  return "";
}

/** What settling observed, for evidence notes. */
export interface SettleReport {
  readonly notes: string[];
  /** Ended after the frames: nothing changed since the action (or since the load's end). */
  readonly early?: boolean;
  /** A load the action started did not end within the cap: the page cannot be read until it does. */
  readonly stalled?: boolean;
}

/**
 * Waits until the page is done reacting to an action: any navigation it started has loaded,
 * at least two frames have passed, every tracked document's DOM has been quiet for the window
 * and so has the network. The DOM and network conditions are checked concurrently (the DOM
 * wait runs inside each document, off the tracker's last-mutation time), each capped; no step
 * is a blind sleep.
 *
 * With `actionAt` (`Date.now()` when the action began), an action the page did not react to at
 * all ends after the two frames: no DOM mutation in any document, no request started or ended
 * and no load since `actionAt` (docs/engine.md, "Ending early"). After a load the windows run
 * from the load's end, and a page untouched since then ends after its two frames too;
 * `onLoaded` is called as soon as that load has ended (the evidence snapshot starts there).
 */
export async function settle(
  page: PageSession,
  loadsBefore: number,
  options: SettleOptions = {},
  actionFrameId?: string,
  actionAt?: number,
  onLoaded?: () => void,
): Promise<SettleReport> {
  const notes: string[] = [];
  const scope = settleScope(page, actionFrameId);
  const loadCap = options.loadTimeoutMs ?? 10_000;
  const quietCap = options.quietTimeoutMs ?? 2_000;
  const quiet = options.quietWindowMs ?? defaultQuietWindowMs;
  if (page.gone) return { notes };
  let until = Date.now() + quietCap;
  let net: Promise<number> | undefined;
  let dom: DomState = "quiet";
  // When a round ended early but something did happen (a request), the loop's first DOM wait
  // runs its window from that round's start, as if the round had waited it.
  let windowFrom: number | undefined;
  // First round: two frames and the DOM window (the page's own handlers have run, so a
  // navigation the action started is visible), with the network window alongside. Skipped
  // when a load is already under way (navigate): the old document's quiet says nothing.
  if (page.loadsStarted === loadsBefore) {
    net = networkQuiet(page, scope, quiet, until);
    const roundAt = Date.now();
    dom = await domQuiet(page, scope, quiet, until, true, actionAt === undefined ? {} : { untouchedSince: actionAt }, actionFrameId);
    if (dom === "untouched" && actionAt !== undefined && page.loadsStarted === loadsBefore && networkUntouched(page, scope, actionAt)) return { notes, early: true };
    if (dom === "untouched" || dom === "recheck") windowFrom = roundAt;
  }
  if (page.loadsStarted > loadsBefore) {
    const loaded = await waitUntil(page, () => page.loadsFinished >= page.loadsStarted, loadCap);
    if (!loaded) {
      // While a navigation waits for its response, the browser holds DevTools commands to the
      // page until it commits: waiting for quiet would only wait out each command's cap.
      notes.push(stalledNote(page, loadCap));
      return { notes, stalled: true };
    }
    const loadedAt = loaded && page.loadFinishedAt > 0 ? Math.min(page.loadFinishedAt, Date.now()) : Date.now();
    if (loaded) onLoaded?.();
    until = Date.now() + quietCap;
    net = networkQuiet(page, scope, quiet, until);
    windowFrom = undefined;
    dom = await domQuiet(page, scope, quiet, until, true, { windowFrom: loadedAt, untouchedSince: "load" }, actionFrameId);
    if (dom === "untouched" && page.loadsFinished >= page.loadsStarted && networkUntouched(page, scope, loadedAt)) return { notes, early: true };
    if (dom === "untouched" || dom === "recheck") windowFrom = loadedAt;
  }
  net ??= networkQuiet(page, scope, quiet, until);
  // Until both hold at once: a response that lands after the DOM went quiet may render.
  for (let retries = 0; ; ) {
    const domAt = Date.now();
    const netAt = await net;
    if (page.gone || Date.now() >= until) break;
    // A document that stays unreadable (being replaced, or one the tracker cannot enter) is
    // waited for a few times, then left out rather than costing every action the whole cap.
    if (dom === "retry" && ++retries > 3) dom = "quiet";
    if (dom === "quiet" && netAt <= domAt && networkIsQuiet(page, scope, quiet)) break;
    if (dom === "retry") await delay(10);
    net = networkQuiet(page, scope, quiet, until);
    dom = await domQuiet(page, scope, quiet, until, false, windowFrom === undefined ? {} : { windowFrom });
    windowFrom = undefined;
  }
  if (page.inflightRequests(scope) > 0) notes.push("network still busy");
  if (dom === "busy") notes.push("page still changing");
  return { notes };
}

/**
 * What a load that did not end within the cap is waiting for: when the page's request has had
 * no response at all, say so, with the requests open to the same host (a browser opens six
 * connections to one host: open event streams or long polls of other pages can use them up),
 * so the model (and a person reading the run) knows the load is stalled, not slow.
 */
function stalledNote(page: PageSession, capMs: number): string {
  const base = `page still loading after ${Math.round(capMs / 1000)} s`;
  const stalled = page.stalledLoad();
  if (!stalled || stalled.waitedMs < capMs / 2) return base;
  const open = stalled.openToHost > 0 ? `; ${stalled.openToHost} other request${stalled.openToHost === 1 ? "" : "s"} open to ${stalled.host}${stalled.streams ? ` (${stalled.streams} of them event streams)` : ""}, and a browser opens at most 6 connections to one host` : "";
  return `${base}: no response to the page's request for ${Math.round(stalled.waitedMs / 1000)} s${open}`;
}

type DomState = "quiet" | "untouched" | "recheck" | "busy" | "retry";

/**
 * Waits in every tracked document, in parallel, for its DOM to be quiet for `windowMs`, and with
 * `frames` for two rendered frames in the top document and in the action's own document (a
 * cross-origin frame has a renderer of its own, which may handle the action's input events after
 * the top document's frames have passed: its own frames come after its handlers);
 * "busy" when one hit the cap, "retry" when one could not be read (it is being replaced),
 * "untouched" when every document ended early, nothing having mutated since
 * `from.untouchedSince`, and "recheck" when one ended early but another frame's document (which
 * does not wait for frames) mutated while the top document waited for its frames.
 */
async function domQuiet(page: PageSession, scope: Scope, windowMs: number, until: number, frames: boolean, from: QuietFrom = {}, actionFrameId?: string): Promise<DomState> {
  const cap = Math.max(0, until - Date.now());
  const docs = trackedDocs(page).filter((d) => scope(d.frameId));
  const results = await Promise.all(
    docs.map((d) => waitDocQuiet(page, d, windowMs, cap, frames && (d.top || d.frameId === actionFrameId), from).catch((): DocActivity | undefined => undefined)),
  );
  if (results.some((r) => r && r.quiet === false)) return "busy";
  if (results.some((r) => !r) && !page.gone && Date.now() < until) return "retry";
  if (results.some((r) => r?.untouched)) {
    if (!results.every((r) => r?.untouched) || from.untouchedSince === undefined) return "recheck";
    // Frames' documents answered at once: read them again now that the top one's frames passed.
    const others = docs.filter((d) => !d.top);
    const reads = await Promise.all(others.map((d) => readDoc(page, d).catch((): DocActivity | undefined => undefined)));
    // `idle` is read in the page before `ago` here, so a mutation at the edge counts as after.
    // After a load, the engine hears of it late: a frame's mutation within a window of it counts.
    const ago = Date.now() - (from.untouchedSince === "load" ? (page.loadFinishedAt || Date.now()) - windowMs : from.untouchedSince);
    return reads.every((r) => r && r.idle >= ago) ? "untouched" : "recheck";
  }
  return "quiet";
}

/** Whether no request of the scope is in flight and none started or ended since `since`. */
function networkUntouched(page: PageSession, scope: Scope, since: number): boolean {
  return page.inflightRequests(scope) === 0 && page.lastNetworkActivityOf(scope) < since;
}

type Scope = (frameId: string | undefined) => boolean;

/** Whether no young request of the scope is in flight and none started or ended within `windowMs`. */
function networkIsQuiet(page: PageSession, scope: Scope, windowMs: number): boolean {
  return page.inflightRequests(scope) === 0 && Date.now() - page.lastNetworkActivityOf(scope) >= windowMs;
}

/** Resolves (with the time) once the scope's network is quiet for `windowMs`, or at `until`. */
function networkQuiet(page: PageSession, scope: Scope, windowMs: number, until: number): Promise<number> {
  return new Promise<number>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = (): void => {
      clearTimeout(timer);
      const now = Date.now();
      if (page.gone || now >= until || networkIsQuiet(page, scope, windowMs)) {
        stop();
        resolve(now);
        return;
      }
      // Re-check when the window would end, or every 50 ms while requests are in flight
      // (they stop counting once older than the in-flight age limit).
      const wait = page.inflightRequests(scope) === 0 ? windowMs - (now - page.lastNetworkActivityOf(scope)) : 50;
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
