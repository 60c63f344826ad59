import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type TakeSnapshotResult, type ViewportSchema } from "@baton/gen/baton/v1/tools_pb";
import { TakeSnapshotResultSchema } from "@baton/gen/baton/v1/descriptors";
import { refsInText, type ScreenMask, ToolErrorCode, ToolFailure } from "../contract/index.js";
import { toFailure } from "./page/errors.js";
import { type DialogPolicy, PageSession } from "./page/page-session.js";
import { type RefEntry, RefTable } from "./snapshot/refs.js";
import { paginate } from "./snapshot/render-text.js";
import { diffHeader, pageDiff } from "./snapshot/page-diff.js";
import { captureLabelledScreenshot } from "./snapshot/screenshot.js";
import type { SettleOptions } from "./page/settle.js";
import { type ActivityMark, defaultSnapshotMaxAgeMs, markActivity, unchangedBetween } from "./page/snapshot-reuse.js";
import { type PageSnapshot, takePageSnapshot } from "./snapshot/snapshot.js";
import { openUrlPolicy, type UrlPolicy } from "../policy/url-policy.js";
import { decideFrame } from "../policy/site-policy.js";

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

/** Parameters of the take_snapshot tool, once its `ref` is resolved to the entry it scopes to. */
export interface SnapshotParams {
  offset?: number;
  maxChars?: number;
  includeScreenshot?: boolean;
  includeOffscreen?: boolean;
  /** Only what is inside this element. */
  scope?: RefEntry;
  /** The whole page even when snapshot diffs are on. */
  full?: boolean;
  /** Never reuse the last snapshot. */
  fresh?: boolean;
  /** Secrets to paint over in the screenshot. */
  screenMask?: ScreenMask;
}

/** How to take a whole-page snapshot (`PageState.pageSnapshot`). */
export interface PageSnapshotOptions {
  includeOffscreen?: boolean;
  /** Only what is inside this element (never reused, never remembered). */
  scope?: RefEntry;
  /** Never reuse the last snapshot. */
  fresh?: boolean;
  /** Called once the activity mark a new snapshot is checked against has been read, as it starts. */
  onMarked?: () => void;
}

/** The last snapshot the model was given (take_snapshot), what a diff is taken against. */
interface SeenSnapshot {
  readonly id: number;
  readonly lines: PageSnapshot["lines"];
  /** The main frame's loader then: another document is never diffed. */
  readonly document: string;
  readonly includeOffscreen: boolean;
}

type ViewportInit = MessageInitShape<typeof ViewportSchema>;

/** The viewport of a snapshot, for results. */
export function viewportOf(snap: PageSnapshot): ViewportInit {
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

/**
 * The page an engine acts on and what it last saw of it: the page session, the ref table, the
 * last whole-page snapshot (reused while the page is still; evidence diffs against it) and the
 * one the model was given (take_snapshot diffs against that). Targeting and evidence both read
 * it; neither knows the other. Failures live here too, because a model-facing failure carries
 * a fresh snapshot so the model can retry at once.
 */
export class PageState {
  readonly refs = new RefTable();
  readonly options: EngineOptions;
  /**
   * The frame of the element the current action resolved: targeting sets it, evidence takes it,
   * so settle waits for that frame even when it is cross-origin.
   */
  actionFrame: string | undefined;
  #page: PageSession;
  #unsubscribeFrames: () => void;
  #lastRefs: ReadonlySet<string> = new Set<string>();
  #last: PageSnapshot | undefined;
  /** The page's activity when `#last` was started, and the options it was taken with. */
  #lastMark: ActivityMark | undefined;
  #lastOffscreen = false;
  #seen: SeenSnapshot | undefined;
  #snapshotIds = 0;

  constructor(page: PageSession, options: EngineOptions = {}) {
    this.#page = page;
    this.options = options;
    this.#unsubscribeFrames = page.onFrameGone((f) => this.refs.killFrame(f));
  }

  /** The page the engine acts on. */
  get page(): PageSession {
    return this.#page;
  }

  /** Moves to another page (tab switch); refs of other pages stay resolvable. */
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

  /** The last whole-page snapshot taken. */
  get lastSnapshot(): PageSnapshot | undefined {
    return this.#last;
  }

  /** The refs of the last whole-page snapshot: evidence tells which came and went. */
  get lastRefs(): ReadonlySet<string> {
    return this.#lastRefs;
  }

  /** The activity mark the last whole-page snapshot was started at (undefined when reuse is off). */
  get lastMark(): ActivityMark | undefined {
    return this.#lastMark;
  }

  /**
   * Whether a frame at `url` may not be read, in text or in pixels, by the policy as it is now
   * (a running task's may change): `decideFrame`'s answer for a read.
   */
  readonly unreadable = (url: string): boolean => {
    const policy = this.options.urlPolicy ?? openUrlPolicy;
    return !decideFrame(policy, url, "read_only").allow;
  };

  /**
   * Takes a whole-page snapshot and remembers its refs for the next evidence diff. A
   * whole-page snapshot is reused (the same object is returned) when nothing on the page can
   * have changed since the last one was taken; `fresh` forces a new one. `onMarked` is called
   * once the activity mark a new snapshot is checked against has been read, as it starts.
   */
  async pageSnapshot(options: PageSnapshotOptions = {}): Promise<PageSnapshot> {
    const { fresh, onMarked, ...rest } = options;
    // The policy as it is at this snapshot (a running task's may change): a frame of a site it
    // refuses is not read, as a page of one is not (`decideAction`).
    const snapOptions = { ...rest, unreadable: this.unreadable };
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
  async snapshot(params: SnapshotParams): Promise<MessageInitShape<typeof TakeSnapshotResultSchema>> {
    const { scope } = params;
    const whole = !scope && !params.offset;
    const seen = this.#seen;
    // Until this one succeeds the model holds no known page here: a failed snapshot leaves the next one whole.
    if (whole) this.#seen = undefined;
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
      viewport: viewportOf(snap),
      frameCount: snap.frameCount,
      ...(page.nextOffset !== undefined && !useDiff ? { nextOffset: page.nextOffset } : {}),
    };
    if (params.includeScreenshot) {
      const shown = new Set(refsInText(text));
      result.screenshot = await captureLabelledScreenshot(
        this.#page,
        snap.elements.filter((e) => shown.has(e.ref) && !e.offscreen),
        { unreadable: this.unreadable, ...(params.screenMask ? { mask: params.screenMask } : {}) },
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
