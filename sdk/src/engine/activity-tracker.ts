import type { PageSession } from "./page-session.js";

/** The isolated world the activity tracker lives in, one per document. */
export const activityWorld = "baton-activity";

/**
 * Page-side source of the activity tracker. Installed in an isolated world of every document
 * (page scripts cannot see or fake it) before the page's own scripts run, it keeps:
 * - `last`: when the DOM last mutated (a MutationObserver on the document and on every open
 *   shadow root it finds, subtree/childList/attributes/characterData);
 * - `changes`: a counter bumped by every mutation and by every event that can change what a
 *   snapshot shows without a mutation: scroll, resize, input/change, focusin/focusout, load
 *   and error (capture: images, iframes), toggle, animation/transition start and end, font
 *   loads, and pointer/mouse over/out (hover, e.g. a real user's pointer in the extension).
 * `read()` returns those plus live facts that move before their events fire (scroll position,
 * viewport size) and whether any animation or transition is running. `quiet(win, cap, frames)`
 * resolves once the DOM has been quiet for `win` ms, measured from the last mutation or from
 * the call, whichever is later (after two animation frames when `frames`), or at `cap`.
 */
export const trackerSource = `(() => {
  if (globalThis.__batonActivity) return false;
  const t = { id: Math.random().toString(36).slice(2), changes: 0, last: performance.now() };
  const roots = new WeakSet();
  const bump = () => { t.changes++; };
  const scan = (root) => {
    if (root.nodeType === 1 && root.shadowRoot) watch(root.shadowRoot);
    if (!root.querySelectorAll) return;
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) watch(el.shadowRoot);
  };
  const mo = new MutationObserver((records) => {
    t.changes++;
    t.last = performance.now();
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) scan(n);
  });
  const events = ["scroll", "input", "change", "focusin", "focusout", "load", "error", "toggle",
    "animationstart", "animationend", "animationcancel", "transitionrun", "transitionend", "transitioncancel",
    "pointerover", "pointerout", "mouseover", "mouseout"];
  const watch = (root) => {
    if (roots.has(root)) return;
    roots.add(root);
    mo.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    for (const e of events) root.addEventListener(e, bump, { capture: true, passive: true });
    if (root !== document) scan(root);
  };
  watch(document);
  scan(document);
  addEventListener("resize", bump, { capture: true, passive: true });
  try { document.fonts.addEventListener("loadingdone", bump); } catch {}
  const running = () => { try { return document.getAnimations().some((a) => a.playState === "running"); } catch { return true; } };
  t.read = () => ({ id: t.id, changes: t.changes, idle: performance.now() - t.last, animating: running(),
    sx: scrollX, sy: scrollY, w: innerWidth, h: innerHeight });
  t.quiet = (win, cap, frames) => new Promise((resolve) => {
    const start = performance.now();
    let framed = !frames;
    let timer;
    const check = () => {
      clearTimeout(timer);
      const now = performance.now();
      const idle = now - Math.max(t.last, start);
      if (framed && idle >= win) return resolve({ ...t.read(), quiet: true });
      if (now - start >= cap) return resolve({ ...t.read(), quiet: false });
      timer = setTimeout(check, Math.max(1, Math.min(framed ? win - idle : 20, cap - (now - start))));
    };
    if (frames) {
      const framesDone = () => { if (!framed) { framed = true; check(); } };
      requestAnimationFrame(() => requestAnimationFrame(framesDone));
      // A hidden document renders no frames; do not wait for them there.
      setTimeout(framesDone, document.visibilityState === "hidden" ? 0 : 200);
    }
    check();
  });
  globalThis.__batonActivity = t;
  return true;
})()`;

/** What the tracker of one document reports. */
export interface DocActivity {
  /** The tracker's random id: a different id means a different document. */
  readonly id: string;
  readonly changes: number;
  /** Milliseconds since the last DOM mutation. */
  readonly idle: number;
  readonly animating: boolean;
  readonly sx: number;
  readonly sy: number;
  readonly w: number;
  readonly h: number;
  /** From `quiet`: true when the window was reached before the cap. */
  readonly quiet?: boolean;
  /** True when the tracker was only installed by this call: its history is unknown. */
  readonly installedNow?: boolean;
}

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
 * Evaluates `call` (an expression over `t`, the tracker) in a document's tracker world,
 * installing the tracker first when the document has none. Throws when the document is gone.
 */
async function inTracker(page: PageSession, doc: TrackedDoc, call: string, timeoutMs: number, mayInstall = true): Promise<DocActivity> {
  const expression = `(() => { const t = globalThis.__batonActivity; if (!t) return null; return ${call}; })()`;
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
  return { ...(await inTracker(page, doc, call, timeoutMs, false)), installedNow: true };
}

/** Reads one document's tracker; throws when the document is gone. */
export function readDoc(page: PageSession, doc: TrackedDoc, timeoutMs = 500): Promise<DocActivity> {
  return inTracker(page, doc, "t.read()", timeoutMs);
}

/**
 * Waits in the document until its DOM has been quiet for `windowMs` (from the last mutation
 * or from now, whichever is later), after two animation frames when `frames`; `quiet` is false
 * when `capMs` ran out first. Throws when the document is gone.
 */
export function waitDocQuiet(page: PageSession, doc: TrackedDoc, windowMs: number, capMs: number, frames: boolean): Promise<DocActivity> {
  const cap = Math.max(0, Math.round(capMs));
  return inTracker(page, doc, `t.quiet(${Math.max(0, windowMs)}, ${cap}, ${frames})`, cap + 500);
}

/**
 * Installs the tracker in a session: for every new document (before its scripts run), and
 * right away in the documents it already has.
 */
export async function installTracker(page: PageSession, sessionId: string): Promise<void> {
  await page.send(
    "Page.addScriptToEvaluateOnNewDocument",
    { source: trackerSource, worldName: activityWorld, runImmediately: true },
    sessionId,
  );
}
