/**
 * The activity tracker that runs in the page (see `installTracker`), and the page functions that
 * read it (`readTracker`, `awaitQuiet`), which the engine sends by their source
 * (`base/page-function.ts`) and which therefore use nothing from outside their bodies.
 */

/** What the tracker of one document reports. */
export interface DocActivity {
  /** The tracker's random id: a different id means a different document. */
  readonly id: string;
  readonly changes: number;
  /**
   * Mutations and the events that are the page's reaction rather than the pointer's passing:
   * input, change, toggle, scroll, loads, resize (not hover, focus moving or animations).
   */
  readonly effects: number;
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
  /** From `quiet`: true when it ended early because nothing mutated since the given time. */
  readonly untouched?: boolean;
}

/** The tracker object the page script keeps on its world's global. */
interface Tracker {
  id: string;
  changes: number;
  effects: number;
  last: number;
  read(): DocActivity;
  /** `Date.now()` of the last mutation. */
  lastAt: number;
  quiet(win: number, cap: number, frames: boolean, fromAgo: number, untouchedSince: number): Promise<DocActivity>;
}

/** `quiet`'s `untouchedSince` for "since the start of the document's load event". */
export const sinceLoadEvent = -2;

/**
 * Installs the activity tracker (false when the world already has one). Installed in an isolated
 * world of every document (page scripts cannot see or fake it) before the page's own scripts
 * run, as the bundle `trackerSource` (`gen/in-page-source.ts`, entry `tracker-entry.ts`), it keeps:
 * - `last`: when the DOM last mutated (a MutationObserver on the document and on every open
 *   shadow root it finds, subtree/childList/attributes/characterData);
 * - `changes`: a counter bumped by every mutation and by every event that can change what a
 *   snapshot shows without a mutation: scroll, resize, input/change, focusin/focusout, load
 *   and error (capture: images, iframes), toggle, animation/transition start and end, font
 *   loads, and pointer/mouse over/out (hover, e.g. a real user's pointer in the extension).
 * `read()` returns those plus live facts that move before their events fire (scroll position,
 * viewport size) and whether any animation or transition is running. `quiet(win, cap, frames,
 * fromAgo, untouchedSince)` resolves once the DOM has been quiet for `win` ms, measured from the
 * last mutation or from `fromAgo` ms before the call, whichever is later (after two animation
 * frames when `frames`), or at `cap`; and as soon as the frames have passed if nothing has
 * mutated since `untouchedSince` (`untouched`): a `Date.now()` time (the engine's clock is the
 * machine's, as the page's is; a relative time would be off by the call's own latency), or
 * `sinceLoadEvent` (-2) for the start of the document's load event; -1 for never.
 */
export function installTracker(): boolean {
  const host = globalThis as { __batonActivity?: Tracker };
  if (host.__batonActivity) return false;
  const t: Tracker = {
    id: Math.random().toString(36).slice(2),
    changes: 0,
    effects: 0,
    last: performance.now(),
    lastAt: Date.now(),
    read: () => ({ id: t.id, changes: t.changes, effects: t.effects, idle: performance.now() - t.last, animating: running(), sx: scrollX, sy: scrollY, w: innerWidth, h: innerHeight }),
    quiet: (win, cap, frames, fromAgo, untouchedSince) =>
      new Promise((resolve) => {
        const start = performance.now();
        const from = start - Math.max(0, fromAgo);
        let framed = !frames;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const check = (): void => {
          clearTimeout(timer);
          const now = performance.now();
          const idle = now - Math.max(t.last, from);
          if (framed && untouched(untouchedSince)) return resolve({ ...t.read(), quiet: true, untouched: true });
          if (framed && idle >= win) return resolve({ ...t.read(), quiet: true });
          if (now - start >= cap) return resolve({ ...t.read(), quiet: false });
          timer = setTimeout(check, Math.max(1, Math.min(framed ? win - idle : 20, cap - (now - start))));
        };
        if (frames) {
          const framesDone = (): void => {
            if (!framed) {
              framed = true;
              check();
            }
          };
          requestAnimationFrame(() => requestAnimationFrame(framesDone));
          // A hidden document renders no frames; do not wait for them there.
          setTimeout(framesDone, document.visibilityState === "hidden" ? 0 : 200);
        }
        check();
      }),
  };
  // Whether nothing has mutated since `since` (a Date.now() time, or sinceLoadEvent: the load event's start).
  const untouched = (since: number): boolean => {
    if (since !== sinceLoadEvent) return since >= 0 && t.lastAt < since;
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    return nav !== undefined && nav.loadEventStart > 0 && t.last < nav.loadEventStart;
  };
  const roots = new WeakSet<Node>();
  const passing = new Set(["pointerover", "pointerout", "mouseover", "mouseout", "focusin", "focusout", "animationstart", "animationend", "animationcancel", "transitionrun", "transitionend", "transitioncancel"]);
  const bump = (e: Event): void => {
    t.changes++;
    if (!passing.has(e.type)) t.effects++;
  };
  const scan = (root: Node): void => {
    if (root instanceof Element && root.shadowRoot) watch(root.shadowRoot);
    if (!(root instanceof Element || root instanceof Document || root instanceof DocumentFragment)) return;
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) watch(el.shadowRoot);
  };
  const mo = new MutationObserver((records) => {
    t.changes++;
    t.effects++;
    t.last = performance.now();
    t.lastAt = Date.now();
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) scan(n);
  });
  const events = ["scroll", "input", "change", "focusin", "focusout", "load", "error", "toggle",
    "animationstart", "animationend", "animationcancel", "transitionrun", "transitionend", "transitioncancel",
    "pointerover", "pointerout", "mouseover", "mouseout"];
  const watch = (root: Document | ShadowRoot): void => {
    if (roots.has(root)) return;
    roots.add(root);
    mo.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    // The document's events are caught on the window (capture sees every target's, bubbling
    // or not), which keeps the document's own listener list to what the page added: the
    // snapshot reads that list. A shadow root keeps its own, for events that stay inside it.
    const on: EventTarget = root === document ? window : root;
    for (const e of events) on.addEventListener(e, bump, { capture: true, passive: true });
    if (root !== document) scan(root);
  };
  const running = (): boolean => {
    try {
      return document.getAnimations().some((a) => a.playState === "running");
    } catch {
      return true;
    }
  };
  watch(document);
  scan(document);
  addEventListener("resize", bump, { capture: true, passive: true });
  try {
    document.fonts.addEventListener("loadingdone", bump);
  } catch {
    // No font loading API in this document.
  }
  host.__batonActivity = t;
  return true;
}

/** Reads the document's tracker (runs in the page); null when the world has none. */
export function readTracker(): DocActivity | null {
  return (globalThis as { __batonActivity?: Tracker }).__batonActivity?.read() ?? null;
}

/**
 * Resolves once the document's DOM has been quiet for `win` ms (runs in the page; see
 * `Tracker.quiet`); null when the world has no tracker.
 */
export function awaitQuiet(win: number, cap: number, frames: boolean, fromAgo: number, untouchedSince: number): Promise<DocActivity> | null {
  return (globalThis as { __batonActivity?: Tracker }).__batonActivity?.quiet(win, cap, frames, fromAgo, untouchedSince) ?? null;
}
