import { invocation, type PageArgument, type PageFunction } from "../base/page-function.js";
import { trackerSource } from "../gen/in-page-source.js";
import { awaitQuiet, type DocActivity, readTracker, sinceLoadEvent } from "../in-page/tracker.js";
import type { PageSession } from "./page-session.js";
import { activityWorld } from "./tracker-script.js";

export type { DocActivity } from "../in-page/tracker.js";

/** One document the engine tracks: a frame in the session that renders it. */
export interface TrackedDoc {
  readonly frameId: string;
  readonly sessionId: string;
  readonly loaderId: string;
  /** The top-level document of the page. */
  readonly top: boolean;
}

/** Every document of the page: the main frame, same-process frames and out-of-process frames. */
export function trackedDocs(page: PageSession): TrackedDoc[] {
  const main = page.mainFrame();
  const docs: TrackedDoc[] = [];
  for (const f of page.frames.values()) {
    if (!page.sessions.has(f.sessionId)) continue;
    docs.push({ frameId: f.id, sessionId: f.sessionId, loaderId: f.loaderId, top: f === main });
  }
  return docs;
}

interface World {
  readonly loaderId: string;
  readonly contextId: Promise<number>;
}

const worlds = new WeakMap<PageSession, Map<string, World>>();

/** The execution context of the tracker's world in a frame, made (or found) once per document. */
function worldOf(page: PageSession, doc: TrackedDoc): Promise<number> {
  let byFrame = worlds.get(page);
  if (!byFrame) worlds.set(page, (byFrame = new Map()));
  const known = byFrame.get(doc.frameId);
  if (known && known.loaderId === doc.loaderId) return known.contextId;
  const world: World = {
    loaderId: doc.loaderId,
    // With the same world name, Chromium returns the world the new-document script ran in.
    contextId: page
      .send<{ executionContextId: number }>("Page.createIsolatedWorld", { frameId: doc.frameId, worldName: activityWorld }, doc.sessionId, 2000)
      .then((r) => r.executionContextId),
  };
  world.contextId.catch(() => {
    if (byFrame.get(doc.frameId) === world) byFrame.delete(doc.frameId);
  });
  byFrame.set(doc.frameId, world);
  return world.contextId;
}

/**
 * Calls `fn` (a page function answering null when the world has no tracker) in a document's
 * tracker world, installing the tracker first when the document has none. Throws when the
 * document is gone.
 */
async function inTracker(page: PageSession, doc: TrackedDoc, timeoutMs: number, fn: PageFunction, args: PageArgument[], mayInstall = true): Promise<DocActivity> {
  const expression = invocation(fn, ...args);
  let r: { result: { value?: DocActivity | null }; exceptionDetails?: { text: string } } | undefined;
  let contextId = 0;
  for (let attempt = 0; attempt < 2 && !r; attempt++) {
    try {
      contextId = await worldOf(page, doc);
      r = await page.send("Runtime.evaluate", { expression, contextId, awaitPromise: true, returnByValue: true }, doc.sessionId, timeoutMs);
    } catch (e) {
      // The context died with its document (reload, document.open): find the world again once.
      worlds.get(page)?.delete(doc.frameId);
      if (attempt > 0 || page.gone) throw e;
    }
  }
  if (!r) throw new Error("activity tracker unreachable");
  if (r.exceptionDetails) throw new Error(r.exceptionDetails.text);
  if (r.result.value) return r.result.value;
  if (!mayInstall) throw new Error("activity tracker missing");
  // A document that was there before the engine attached and did not get the tracker.
  await page.send("Runtime.evaluate", { expression: trackerSource, contextId, returnByValue: true }, doc.sessionId, timeoutMs);
  return { ...(await inTracker(page, doc, timeoutMs, fn, args, false)), installedNow: true };
}

/** Reads one document's tracker; throws when the document is gone. */
export function readDoc(page: PageSession, doc: TrackedDoc, timeoutMs = 500): Promise<DocActivity> {
  return inTracker(page, doc, timeoutMs, readTracker, []);
}

/** When a document's quiet window starts, and when it may end early (`Date.now()` values). */
export interface QuietFrom {
  /** The window runs from the last mutation or from this time, whichever is later (default: now). */
  readonly windowFrom?: number;
  /**
   * End as soon as the frames have passed when nothing has mutated since this `Date.now()` time,
   * or since the start of the document's load event (`"load"`) (`untouched`).
   */
  readonly untouchedSince?: number | "load";
}

/**
 * Waits in the document until its DOM has been quiet for `windowMs` (from the last mutation
 * or from `from.windowFrom`, default now, whichever is later), after two animation frames when
 * `frames`; or only for the frames when nothing has mutated since `from.untouchedSince`.
 * `quiet` is false when `capMs` ran out first. Throws when the document is gone.
 */
export function waitDocQuiet(page: PageSession, doc: TrackedDoc, windowMs: number, capMs: number, frames: boolean, from: QuietFrom = {}): Promise<DocActivity> {
  const cap = Math.max(0, Math.round(capMs));
  const now = Date.now();
  const fromAgo = from.windowFrom === undefined ? 0 : Math.max(0, now - from.windowFrom);
  const since = from.untouchedSince === undefined ? -1 : from.untouchedSince === "load" ? sinceLoadEvent : from.untouchedSince;
  return inTracker(page, doc, cap + 500, awaitQuiet, [Math.max(0, windowMs), cap, frames, fromAgo, since]);
}
