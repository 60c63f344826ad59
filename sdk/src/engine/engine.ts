import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type EvidenceSchema, type TakeSnapshotResult, type ViewportSchema } from "@baton/gen/baton/v1/tools_pb";
import { TakeSnapshotResultSchema } from "@baton/gen/baton/v1/descriptors";
import type { CdpTransport } from "../cdp/transport.js";
import { type ScreenMask, ToolErrorCode, ToolFailure } from "../contract/index.js";
import { topElementBox, topElementHit } from "./hit/batch-occlusion.js";
import { declaration, invocation, type PageFunction } from "./base/page-function.js";
import { intersect, type Point, probePoints, probePointsBeside } from "./base/coordinates.js";
import { toFailure } from "./page/errors.js";
import { deepestActive, fieldValue, isConnected } from "./in-page/element-state.js";
import { readPageLayout } from "./read/frame-layout.js";
import { visibleRect } from "./read/visible-rect.js";
import { filterOccluded } from "./hit/occlusion.js";
import { afterFrames } from "./hit/pointer-check.js";
import { type DialogPolicy, PageSession } from "./page/page-session.js";
import { type RefEntry, RefTable } from "./snapshot/refs.js";
import { paginate } from "./snapshot/render-text.js";
import { diffHeader, pageDiff } from "./snapshot/page-diff.js";
import { textChanges } from "./snapshot/text-diff.js";
import { captureLabelledScreenshot } from "./snapshot/screenshot.js";
import { settle, type SettleOptions } from "./page/settle.js";
import { type ActivityMark, defaultSnapshotMaxAgeMs, markActivity, noEffectsBetween, unchangedBetween } from "./page/snapshot-reuse.js";
import { type PageSnapshot, takePageSnapshot } from "./snapshot/snapshot.js";
import { quoted, sanitizeText, sanitizeUrl } from "./base/sanitize.js";
import { openUrlPolicy, type UrlPolicy } from "../policy/url-policy.js";
import { closeRefusedTabs, leaveRefusedPage } from "./page/url-checks.js";

/** Options of an engine. */
export interface EngineOptions {
  /** How to answer JavaScript dialogs; accepts all by default. */
  dialogPolicy?: DialogPolicy;
  /** Settle caps after actions. */
  settle?: SettleOptions;
  /** Checks that an upload path exists before handing it to the browser (Node: fs.access). */
  fileExists?: (path: string) => Promise<boolean>;
  /** Cap for a single CDP command (default 10 s). */
  commandTimeoutMs?: number;
  /**
   * Reuse the last whole-page snapshot when nothing on the page can have changed since it was
   * taken (same documents, no change counted by any document's activity tracker, no running
   * animation, no dialog, same options, younger than `snapshotMaxAgeMs`). Default true; turn it
   * off to measure real snapshots.
   */
  reuseSnapshots?: boolean;
  /** Maximum age of a reused snapshot (default 1000 ms; see docs/engine.md). */
  snapshotMaxAgeMs?: number;
  /**
   * Which URLs pages may be opened at and tabs may show (default: http(s) and about:blank for
   * what the agent opens, no site lists). navigate and open_tab refuse the rest before
   * anything opens; after an action, a tab a page opened to a refused URL is closed and a
   * page that went to one is left for about:blank, both said in the evidence's notes.
   */
  urlPolicy?: UrlPolicy;
  /**
   * Snapshot diffs: a take_snapshot of the document the model saw last returns only what
   * changed since that snapshot (`pageDiff`), unless it asks for the whole page (`full`), the
   * diff is not smaller, or the page is another document. Default off: only a caller that knows
   * the model still holds its previous snapshot may turn it on.
   */
  snapshotDiffs?: boolean;
}

/** The last snapshot the model was given (take_snapshot), what a diff is taken against. */
interface SeenSnapshot {
  readonly id: number;
  readonly lines: PageSnapshot["lines"];
  /** The main frame's loader then: another document is never diffed. */
  readonly document: string;
  readonly includeOffscreen: boolean;
}

/** A ref resolved to a live element. */
export interface ResolvedElement {
  readonly entry: RefEntry;
  /** Runtime object id of the element in its session. */
  readonly objectId: string;
}

/** Where an action aims at an element (see `Engine.aim`). */
export interface Aim {
  /** The point to act at, in top-level viewport coordinates. */
  readonly point: Point;
  /** Probe points on the element, the aimed one first, to check again after the pointer moved. */
  readonly points: readonly Point[];
  /** The element in the top document's hit world, for checks around a click; undefined elsewhere. */
  readonly hitObject: string | undefined;
}

/** A mark taken before an action, to tell afterwards what it changed. */
export interface ActionMark {
  readonly openedTargets: number;
  readonly navigationCount: number;
  readonly navigationRequests: number;
  readonly loadsStarted: number;
  readonly dialogSeq: number;
  /** `Date.now()` when the action began: settle ends early when the page did nothing since. */
  readonly at: number;
}

/** The focused DOM node, before it is matched to a ref. */
interface FocusedNode {
  readonly targetId: string;
  readonly backendNodeId: number;
  readonly nodeName: string;
  readonly value: string;
}

type EvidenceInit = MessageInitShape<typeof EvidenceSchema>;
type ViewportInit = MessageInitShape<typeof ViewportSchema>;

/**
 * The eyes and hands on one page at a time: snapshots with stable refs, element resolution,
 * settle and evidence. Tool handlers (see `handlers.ts`) are thin layers over it.
 */
export class Engine {
  readonly refs = new RefTable();
  readonly options: EngineOptions;
  #page: PageSession;
  #unsubscribeFrames: () => void;
  #lastRefs = new Set<string>();
  #last: PageSnapshot | undefined;
  /** The page's activity when `#last` was started, and the options it was taken with. */
  #lastMark: ActivityMark | undefined;
  /** The frame of the element the current action resolved: settle waits for it even when it is cross-origin. */
  #actionFrame: string | undefined;
  #lastOffscreen = false;
  #seen: SeenSnapshot | undefined;
  #snapshotIds = 0;

  constructor(page: PageSession, options: EngineOptions = {}) {
    this.#page = page;
    this.options = options;
    this.#unsubscribeFrames = page.onFrameGone((f) => this.refs.killFrame(f));
  }

  /** Opens an engine on a page target over a browser-level connection (Node, CLI, tests). */
  static async attach(transport: CdpTransport, targetId: string, options: EngineOptions = {}): Promise<Engine> {
    const page = await PageSession.attach(transport, targetId, {
      ...(options.dialogPolicy ? { dialogPolicy: options.dialogPolicy } : {}),
      ...(options.commandTimeoutMs ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
    });
    return new Engine(page, options);
  }

  /** Opens an engine on a transport already attached to one tab (`chrome.debugger`). */
  static async forTab(transport: CdpTransport, targetId: string, options: EngineOptions = {}): Promise<Engine> {
    const page = await PageSession.open(transport, "", targetId, {
      ...(options.dialogPolicy ? { dialogPolicy: options.dialogPolicy } : {}),
      ...(options.commandTimeoutMs ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
    });
    return new Engine(page, options);
  }

  /** The page the engine acts on. */
  get page(): PageSession {
    return this.#page;
  }

  /** Moves the engine to another page (tab switch); refs of other pages stay resolvable. */
  usePage(page: PageSession): void {
    this.#unsubscribeFrames();
    this.#page = page;
    this.#unsubscribeFrames = page.onFrameGone((f) => this.refs.killFrame(f));
    this.#lastRefs = new Set();
    this.#last = undefined;
    this.#lastMark = undefined;
    this.#seen = undefined;
  }

  /** Forgets the snapshot the model was last given: the next take_snapshot returns the whole page. */
  forgetSeenSnapshot(): void {
    this.#seen = undefined;
  }

  /** The last whole-page snapshot taken (for the CLI's JSON and for tests). */
  get lastSnapshot(): PageSnapshot | undefined {
    return this.#last;
  }

  /**
   * Takes a whole-page snapshot and remembers its refs for the next evidence diff. A
   * whole-page snapshot is reused (the same object is returned) when nothing on the page can
   * have changed since the last one was taken; `fresh` forces a new one. `onMarked` is called
   * once the activity mark a new snapshot is checked against has been read, as it starts.
   */
  async pageSnapshot(options: { includeOffscreen?: boolean; scope?: RefEntry; fresh?: boolean; onMarked?: () => void } = {}): Promise<PageSnapshot> {
    const { fresh, onMarked, ...snapOptions } = options;
    if (options.scope) return takePageSnapshot(this.#page, this.refs, snapOptions);
    const includeOffscreen = options.includeOffscreen ?? false;
    let mark: ActivityMark | undefined;
    if (this.options.reuseSnapshots !== false) {
      // Read before the snapshot starts: a change after this read is seen by the next check.
      mark = await markActivity(this.#page);
      const last = this.#last;
      const lastMark = this.#lastMark;
      const maxAge = this.options.snapshotMaxAgeMs ?? defaultSnapshotMaxAgeMs;
      if (!fresh && last && lastMark && this.#lastOffscreen === includeOffscreen && mark.at - lastMark.at < maxAge && unchangedBetween(lastMark, mark)) {
        return last;
      }
      onMarked?.();
    }
    const snap = await takePageSnapshot(this.#page, this.refs, snapOptions);
    this.#last = snap;
    this.#lastMark = mark;
    this.#lastOffscreen = includeOffscreen;
    this.#lastRefs = new Set(snap.elements.map((e) => e.ref));
    return snap;
  }

  /** The take_snapshot tool: one page of the snapshot, with an optional labelled screenshot. */
  async snapshot(params: {
    offset?: number;
    maxChars?: number;
    includeScreenshot?: boolean;
    includeOffscreen?: boolean;
    ref?: string;
    /** The whole page even when snapshot diffs are on. */
    full?: boolean;
    /** Never reuse the last snapshot. */
    fresh?: boolean;
    /** Secrets to paint over in the screenshot. */
    screenMask?: ScreenMask;
  }): Promise<MessageInitShape<typeof TakeSnapshotResultSchema>> {
    const whole = !params.ref && !params.offset;
    const seen = this.#seen;
    // Until this one succeeds the model holds no known page here: a failed snapshot leaves the next one whole.
    if (whole) this.#seen = undefined;
    const scope = params.ref ? (await this.resolve(params.ref, "ref")).entry : undefined;
    const snap = await this.pageSnapshot({
      includeOffscreen: params.includeOffscreen ?? false,
      ...(scope ? { scope } : {}),
      ...(params.fresh ? { fresh: true } : {}),
    });
    const maxChars = params.maxChars ?? 12_000;
    const page = paginate(snap.lines, params.offset ?? 0, maxChars);
    const includeOffscreen = params.includeOffscreen ?? false;
    const id = ++this.#snapshotIds;
    // The document, not the URL: a route change within the page keeps its refs and may be diffed.
    const document = this.#page.mainFrame()?.loaderId ?? "";
    const diff =
      whole && !params.full && this.options.snapshotDiffs && seen && seen.document === document && seen.includeOffscreen === includeOffscreen
        ? pageDiff(seen.lines, snap.lines, diffHeader(seen.id))
        : undefined;
    const useDiff = diff !== undefined && diff.text.length < Math.min(page.text.length, maxChars);
    // What the model holds now: the whole page when it got all of it, or the page the diff brings it to.
    if (whole) this.#seen = useDiff || (page.nextOffset === undefined && !page.pageOverflow) ? { id, lines: snap.lines, document, includeOffscreen } : undefined;
    const text = useDiff ? diff.text : page.pageOverflow ? "(max_chars is too small for even one element: call again with a larger max_chars.)" : page.text;
    const result: MessageInitShape<typeof TakeSnapshotResultSchema> = {
      url: snap.url,
      title: snap.title,
      snapshotId: id,
      ...(useDiff ? { diffBase: seen!.id } : {}),
      text,
      refCount: page.refCount,
      totalRefCount: page.totalRefCount,
      pageOverflow: page.pageOverflow,
      viewport: this.viewportOf(snap),
      frameCount: snap.frameCount,
      ...(page.nextOffset !== undefined && !useDiff ? { nextOffset: page.nextOffset } : {}),
    };
    if (params.includeScreenshot) {
      const shown = new Set(text.match(/\[e\d+\]/g)?.map((r) => r.slice(1, -1)) ?? []);
      result.screenshot = await captureLabelledScreenshot(
        this.#page,
        snap.elements.filter((e) => shown.has(e.ref) && !e.offscreen),
        70,
        "jpeg",
        params.screenMask,
      );
    }
    return result;
  }

  /** A fresh first page of the snapshot, attached to errors so the model can retry at once. */
  async freshSnapshot(): Promise<TakeSnapshotResult | undefined> {
    try {
      if (this.#page.gone) return undefined;
      return create(TakeSnapshotResultSchema, await this.snapshot({ fresh: true, full: true }));
    } catch {
      return undefined;
    }
  }

  /** Throws a model-facing failure, with a fresh snapshot attached when the page is alive. */
  async fail(code: ToolErrorCode, message: string, field?: string): Promise<never> {
    const snapshot = await this.freshSnapshot();
    throw new ToolFailure(code, message, { ...(field ? { field } : {}), ...(snapshot ? { snapshot } : {}) });
  }

  /**
   * Resolves a ref to a live element: an unknown ref, a ref of a navigated frame, or a node that
   * left the document all fail with a fresh snapshot attached.
   */
  async resolve(ref: string, field: string): Promise<ResolvedElement> {
    const entry = this.refs.get(ref);
    if (!entry) {
      return this.fail(
        ToolErrorCode.UNKNOWN_REF,
        `There is no element ${quoted(ref, 32)} in the snapshot. Use a ref like "e12" from the latest snapshot (attached).`,
        field,
      );
    }
    const stale = (): Promise<never> => {
      this.refs.kill(entry);
      return this.fail(
        ToolErrorCode.STALE_REF,
        `Element ${entry.ref} (${entry.role} ${quoted(entry.name, 60)}) is gone: the page changed. Use a ref from the fresh snapshot (attached).`,
        field,
      );
    };
    if (!entry.alive || !this.#page.sessions.has(entry.sessionId)) return stale();
    let objectId: string | undefined;
    try {
      const r = await this.#page.send<{ object: { objectId?: string } }>(
        "DOM.resolveNode",
        { backendNodeId: entry.backendNodeId, objectGroup: "baton" },
        entry.sessionId,
      );
      objectId = r.object.objectId;
    } catch (e) {
      const f = toFailure(e);
      if (f.code === ToolErrorCode.STALE_REF) return stale();
      throw f;
    }
    if (!objectId) return stale();
    const connected = await this.call({ entry, objectId }, isConnected);
    if (!connected) return stale();
    this.#actionFrame = entry.frameId;
    return { entry, objectId };
  }

  /**
   * Calls a page function (or a function declaration's source) on an element in its own frame
   * and returns its JSON result.
   */
  async call<F extends PageFunction>(el: ResolvedElement, fn: F, args?: Parameters<F>): Promise<Awaited<ReturnType<F>>>;
  async call<T>(el: ResolvedElement, fn: string, args?: unknown[]): Promise<T>;
  async call<T>(el: ResolvedElement, fn: string | PageFunction, args: readonly unknown[] = []): Promise<T> {
    const r = await this.#page.send<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
      "Runtime.callFunctionOn",
      {
        objectId: el.objectId,
        functionDeclaration: typeof fn === "string" ? fn : declaration(fn),
        arguments: args.map((value) => ({ value })),
        returnByValue: true,
        awaitPromise: true,
      },
      el.entry.sessionId,
    );
    if (r.exceptionDetails) {
      throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
    }
    return r.result.value as T;
  }

  /**
   * Scrolls an element into view and finds a viewport point where a hit test lands on the
   * element itself, through the same layout, coordinates and occlusion code as snapshots.
   */
  async actionPoint(el: ResolvedElement, field: string): Promise<Point> {
    return (await this.aim(el, field)).point;
  }

  /**
   * Where to act on an element (see `actionPoint`), with what a pointer action needs to check
   * it again after the pointer arrives: the other probe points, and the element in the hit
   * world (top-document elements only). An element already in view is not scrolled: scrolling
   * makes lists that render only their visible rows replace them under the pointer.
   */
  async aim(el: ResolvedElement, field: string): Promise<Aim> {
    const { entry } = el;
    const topDocument = entry.sessionId === this.#page.rootId && entry.frameId === this.#page.mainFrame()?.id;
    // A control its row shows only while hovered: the pointer goes over it first (which
    // hovers its row), and it is aimed at as shown; opacity 0 does not stop a hit.
    const hover = topDocument && entry.hoverAnchor !== undefined;
    if (hover) await this.#hoverOver(entry.backendNodeId);
    if (topDocument) {
      const inView = await this.#aimTop(entry, hover);
      if (inView) return inView;
    }
    await this.#page
      .send("DOM.scrollIntoViewIfNeeded", { backendNodeId: entry.backendNodeId }, entry.sessionId)
      .catch(() => undefined);
    if (!(await this.call(el, isConnected).catch(() => true))) {
      this.refs.kill(entry);
      return this.fail(
        ToolErrorCode.STALE_REF,
        `Element ${entry.ref} was replaced when it was scrolled into view (lists that render only their visible rows do this). Use a ref from the fresh snapshot (attached).`,
        field,
      );
    }
    // Fast path: an element of the top document's light tree that is plainly visible and
    // passes a hit test needs no layout read (its own box and the same probe points and rule).
    if (topDocument) {
      if (hover) await this.#hoverOver(entry.backendNodeId);
      const scrolled = await this.#aimTop(entry, hover);
      if (scrolled) return scrolled;
      // Anything else (hidden, off-screen, covered, unreadable) is decided and explained below.
    }
    const layout = await readPageLayout(this.#page, { axTrees: false });
    const l = layout.sessions.get(entry.sessionId);
    const dom = l?.index.nodes.get(entry.backendNodeId);
    const origin = dom && l ? l.docOrigins[dom.doc] : undefined;
    if (!l || !dom || !origin) return this.fail(ToolErrorCode.STALE_REF, `Element ${entry.ref} is gone from the page.`, field);
    if (!dom.box || dom.box.width <= 0 || dom.box.height <= 0 || dom.invisible) {
      return this.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${entry.ref} is not visible on the page (hidden or zero size).`, field);
    }
    const visible = visibleRect(l, dom);
    if (!visible) {
      return this.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${entry.ref} could not be scrolled into view.`, field);
    }
    const [verdict] = await filterOccluded(this.#page, layout, [{ sessionId: entry.sessionId, backendId: entry.backendNodeId, visible }]);
    if (verdict && !verdict.ok) {
      const cover = await this.describeNode(verdict.coveredIn, verdict.coveredBy);
      return this.fail(
        ToolErrorCode.NOT_ACTIONABLE,
        `Element ${entry.ref} is covered by ${cover}. Close or answer that first (see the attached snapshot).`,
        field,
      );
    }
    const point = verdict?.point ?? { x: visible.x + visible.width / 2, y: visible.y + visible.height / 2 };
    return { point, points: [point], hitObject: undefined };
  }

  /**
   * The fast path of `aim` for a top-document light-tree element: its live box and a hit test,
   * at points beside the refs inside it (a clickable row's links and checkboxes, where the row
   * itself listens). With `hover`, a transparent element counts as shown.
   */
  async #aimTop(entry: RefEntry, hover: boolean): Promise<Aim | undefined> {
    const top = await topElementBox(this.#page, entry.backendNodeId);
    const hidden = top && (top.invisible || (top.transparent && !hover));
    const visible = top && !hidden && top.clip ? intersect(top.box, top.clip) : undefined;
    if (!top || !visible) return undefined;
    const inner = entry.inner.map((r) => ({ ...r, x: r.x + top.box.x, y: r.y + top.box.y }));
    const beside = inner.length ? probePointsBeside(visible, inner) : [];
    const points = beside.length ? beside : probePoints(visible);
    const point = await topElementHit(this.#page, top, points);
    return point ? { point, points: [point, ...points.filter((p) => p !== point)], hitObject: top.objectId } : undefined;
  }

  /**
   * Moves the pointer over the middle of an element of the top document (which hovers its row,
   * showing what the row shows only on hover) and lets the hover take effect.
   */
  async #hoverOver(backendNodeId: number): Promise<void> {
    const top = await topElementBox(this.#page, backendNodeId);
    const visible = top?.clip ? intersect(top.box, top.clip) : undefined;
    if (!visible) return;
    await this.#page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: visible.x + visible.width / 2, y: visible.y + visible.height / 2 });
    await afterFrames(this.#page);
  }

  /** A short human description of a DOM node, for error messages. */
  async describeNode(sessionId: string, backendNodeId: number | undefined): Promise<string> {
    if (backendNodeId === undefined) return "another element";
    try {
      const { node } = await this.#page.send<{ node: { localName?: string; nodeName: string; attributes?: string[] } }>(
        "DOM.describeNode",
        { backendNodeId },
        sessionId,
      );
      const attrs = node.attributes ?? [];
      const get = (n: string): string | undefined => {
        const i = attrs.indexOf(n);
        return i >= 0 && i % 2 === 0 ? attrs[i + 1] : undefined;
      };
      const label = get("aria-label") ?? get("id") ?? get("class") ?? "";
      return `<${sanitizeText(node.localName || node.nodeName.toLowerCase(), 20)}${label ? ` ${quoted(label, 40)}` : ""}>`;
    } catch {
      return "another element";
    }
  }

  /** Marks the page state before an action (an action never reuses an older snapshot). */
  mark(): ActionMark {
    const p = this.#page;
    p.inputEpoch++;
    return {
      openedTargets: p.openedTargets.length,
      navigationCount: p.navigationCount,
      navigationRequests: p.navigationRequests,
      loadsStarted: p.loadsStarted,
      dialogSeq: p.dialogs.at(-1)?.seq ?? 0,
      at: Date.now(),
    };
  }

  /** Fails with NAVIGATED when the page started navigating since `mark` (before the action landed). */
  async guardNavigation(mark: ActionMark, what: string): Promise<void> {
    const p = this.#page;
    // A round trip to the renderer flushes navigation events its handlers queued before it.
    await p.send("Runtime.evaluate", { expression: "0", returnByValue: true }).catch(() => undefined);
    if (p.navigationRequests > mark.navigationRequests || p.navigationCount > mark.navigationCount) {
      await settle(p, mark.loadsStarted, this.options.settle).catch(() => undefined);
      return this.fail(
        ToolErrorCode.NAVIGATED,
        `The page navigated away before the ${what} happened, so it was not performed. Now at ${sanitizeUrl(this.#page.mainFrame()?.url ?? "")}; see the attached snapshot.`,
      );
    }
  }

  /** Settles after an action and reports what changed since `mark`. */
  async evidence(mark: ActionMark, options: { reactionFrom?: ActivityMark } = {}): Promise<EvidenceInit> {
    const before = this.#lastRefs;
    const beforeSnap = this.#last;
    // The evidence snapshot is started at once, while settle waits out its quiet window, and
    // kept only if the activity marks show nothing changed from its start to settle's end (the
    // same check as snapshot reuse); otherwise a fresh one is taken after settling.
    // While a load is under way (navigate) it starts when the load has ended: before, it would
    // read a document about to go, and its reads would compete with the load.
    // The focused element is read beside the early snapshot, after its mark: kept with it (no
    // focus event, mutation or input in any document between the marks), read again otherwise.
    let earlyFocus: Promise<FocusedNode | undefined> | undefined;
    const readFocus = () => this.#focusedNode().catch(() => undefined);
    const onMarked = () => void (earlyFocus = readFocus());
    const start = () => (this.options.reuseSnapshots !== false && !this.#page.gone ? this.pageSnapshot({ fresh: true, onMarked }).catch(() => undefined) : undefined);
    const loading = this.#page.loadsStarted > mark.loadsStarted;
    let early = loading ? undefined : start();
    const actionFrame = this.#actionFrame;
    this.#actionFrame = undefined;
    const report = await settle(this.#page, mark.loadsStarted, this.options.settle, actionFrame, mark.at, loading ? () => void (early = start()) : undefined);
    // Before anything is read: refused tabs closed, a refused page left (the snapshot below is then new).
    const refusedTabs = await closeRefusedTabs(this.#page, this.options.urlPolicy ?? openUrlPolicy, mark.openedTargets);
    const leftPage = this.#page.navigationCount > mark.navigationCount ? await leaveRefusedPage(this.#page, this.options.urlPolicy ?? openUrlPolicy) : undefined;
    if (report.stalled) {
      // The page cannot be read until its load commits: say so now rather than wait it out.
      const main = this.#page.mainFrame();
      return { url: sanitizeUrl(main?.url ?? ""), title: "", navigated: false, refsAdded: [], refsRemoved: [], notes: [...report.notes, ...refusedTabs.notes, ...(leftPage ? [leftPage] : [])] };
    }
    const earlyMark = (await early) && this.#lastMark;
    const settled = earlyMark ? await markActivity(this.#page).catch(() => undefined) : undefined;
    const valid = earlyMark !== undefined && settled !== undefined && unchangedBetween(earlyMark, settled);
    const [snap, focusedNode] = await Promise.all([
      valid ? early : this.pageSnapshot({ fresh: true }).catch(() => undefined),
      valid && earlyFocus ? earlyFocus : readFocus(),
    ]);
    const focused = focusedNode && this.#describeFocused(focusedNode);
    const after = this.#lastRefs;
    const added = snap ? [...after].filter((r) => !before.has(r)) : [];
    const removed = snap ? [...before].filter((r) => !after.has(r)) : [];
    const dialog = this.#page.dialogs.filter((d) => d.seq > mark.dialogSeq).at(-1);
    const main = this.#page.mainFrame();
    const evidence: EvidenceInit = {
      url: snap?.url ?? sanitizeUrl(main?.url ?? ""),
      title: snap?.title ?? "",
      navigated: this.#page.navigationCount > mark.navigationCount,
      refsAdded: added.slice(0, 50),
      refsRemoved: removed.slice(0, 50),
      notes: [...report.notes, ...refusedTabs.notes, ...(leftPage ? [leftPage] : [])],
    };
    // What the page says back (a status line, a toast, a counter), against the last snapshot
    // of the same document: not across a load, where everything is new.
    if (snap && beforeSnap && this.#page.loadsStarted === mark.loadsStarted) {
      const text = textChanges(beforeSnap.lines, snap.lines);
      if (text.added.length) evidence.textAdded = text.added;
      if (text.changed.length) evidence.textChanged = text.changed;
      if (text.removed.length) evidence.textRemoved = text.removed;
    }
    const opened = this.#page.openedTargets.slice(mark.openedTargets).filter((t) => !refusedTabs.closed.has(t)).at(-1);
    if (opened) evidence.newTabId = opened;
    if (dialog) evidence.dialog = { type: dialog.type, message: sanitizeText(dialog.message, 300), accepted: dialog.accepted };
    if (focused) evidence.focused = focused;
    // Whether the page reacted at all: no mutation, no typed or toggled value, no scroll, in
    // any document, and no navigation, dialog, tab or ref coming or going.
    // (Focus moving into a field is the reaction a click on it wants.)
    const intoField = focused && ["textbox", "searchbox", "combobox", "spinbutton", "date", "time", "datetime", "color"].includes(focused.role);
    if (options.reactionFrom && !intoField && !evidence.navigated && !dialog && !opened && refusedTabs.closed.size === 0 && added.length === 0 && removed.length === 0) {
      const now = settled ?? (await markActivity(this.#page).catch(() => undefined));
      if (now && noEffectsBetween(options.reactionFrom, now)) evidence.notes = [...(evidence.notes ?? []), "nothing on the page changed after the action"];
    }
    return evidence;
  }

  /** The page's activity before an action, for `evidence` to tell whether the page reacted (`reactionFrom`). */
  activityBefore(): Promise<ActivityMark | undefined> {
    return markActivity(this.#page).catch(() => undefined);
  }

  /** The focused element, followed into same-process frames, shadow roots and OOPIFs. */
  async focused(): Promise<{ ref: string; role: string; name: string; value: string } | undefined> {
    const node = await this.#focusedNode();
    return node && this.#describeFocused(node);
  }

  /** The focused element as the model sees it, with its ref when a snapshot listed it. */
  #describeFocused(f: FocusedNode): { ref: string; role: string; name: string; value: string } {
    const entry = this.refs.peek(f.targetId, f.backendNodeId);
    return {
      ref: entry?.ref ?? "",
      role: entry?.role ?? f.nodeName.toLowerCase(),
      name: sanitizeText(entry?.name ?? "", 120),
      value: sanitizeText(f.value, 200),
    };
  }

  /** Finds the focused DOM node (only reads the page, so it may run beside a snapshot). */
  async #focusedNode(): Promise<FocusedNode | undefined> {
    const p = this.#page;
    const deepest = invocation(deepestActive);
    let sessionId = p.rootId;
    for (let hops = 0; hops < 10; hops++) {
      const r = await p.send<{ result: { objectId?: string; subtype?: string } }>(
        "Runtime.evaluate",
        { expression: deepest, objectGroup: "baton" },
        sessionId,
      );
      if (!r.result.objectId) return undefined;
      // The field's value is read beside the node's description (both only read).
      const valueRead = p
        .send<{ result: { value?: string } }>(
          "Runtime.callFunctionOn",
          { objectId: r.result.objectId, functionDeclaration: declaration(fieldValue), returnByValue: true },
          sessionId,
        )
        .then((v) => v.result.value ?? "")
        .catch(() => "");
      const { node } = await p.send<{ node: { backendNodeId: number; nodeName: string; frameId?: string } }>(
        "DOM.describeNode",
        { objectId: r.result.objectId },
        sessionId,
      );
      if (node.nodeName === "BODY" || node.nodeName === "HTML") return undefined;
      if (node.nodeName === "IFRAME") {
        const child = [...p.sessions.values()].find((s) => s.parentId === sessionId && s.frameId);
        const owners = await Promise.all(
          [...p.sessions.values()]
            .filter((s) => s.parentId === sessionId && s.frameId)
            .map(async (s) => ({
              s,
              owner: await p
                .send<{ backendNodeId: number }>("DOM.getFrameOwner", { frameId: s.frameId }, sessionId)
                .then((o) => o.backendNodeId)
                .catch(() => -1),
            })),
        );
        const match = owners.find((o) => o.owner === node.backendNodeId)?.s ?? child;
        if (!match) return undefined;
        sessionId = match.id;
        continue;
      }
      const targetId = p.sessions.get(sessionId)?.targetId ?? p.targetId;
      const value = await valueRead;
      return { targetId, backendNodeId: node.backendNodeId, nodeName: node.nodeName, value };
    }
    return undefined;
  }

  /** The viewport of a snapshot, for results. */
  viewportOf(snap: PageSnapshot): ViewportInit {
    const m = snap.layout.metrics;
    return {
      width: Math.round(snap.layout.viewport.width),
      height: Math.round(snap.layout.viewport.height),
      scrollX: m.cssLayoutViewport.pageX,
      scrollY: m.cssLayoutViewport.pageY,
      pageWidth: m.cssContentSize.width,
      pageHeight: m.cssContentSize.height,
    };
  }

  /** Runs an engine operation, turning any lower-level error into a model-facing failure. */
  async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      const f = toFailure(e);
      if (f.code === ToolErrorCode.STALE_REF && !f.details.snapshot) {
        const snapshot = await this.freshSnapshot();
        throw new ToolFailure(f.code, f.message, { ...f.details, ...(snapshot ? { snapshot } : {}) });
      }
      throw f;
    }
  }

  /** Stops listening to the page. The transport stays with its owner. */
  dispose(): void {
    this.#unsubscribeFrames();
    this.#page.dispose();
  }
}
