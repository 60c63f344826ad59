import { ToolErrorCode } from "../contract/index.js";
import { topElementBox, topElementHit } from "./hit/batch-occlusion.js";
import { declaration, type PageFunction } from "./base/page-function.js";
import { intersect, type Point, probePoints, probePointsBeside } from "./base/coordinates.js";
import { toFailure } from "./page/errors.js";
import { isConnected } from "./in-page/element-state.js";
import { readPageLayout } from "./read/frame-layout.js";
import { visibleRect } from "./read/visible-rect.js";
import { filterOccluded } from "./hit/occlusion.js";
import { afterFrames } from "./hit/pointer-check.js";
import type { RefEntry } from "./snapshot/refs.js";
import { quoted, sanitizeText } from "./base/sanitize.js";
import type { PageState } from "./page-state.js";

/** A ref resolved to a live element. */
export interface ResolvedElement {
  readonly entry: RefEntry;
  /** Runtime object id of the element in its session. */
  readonly objectId: string;
}

/** Where an action aims at an element (see `Targeting.aim`). */
export interface Aim {
  /** The point to act at, in top-level viewport coordinates. */
  readonly point: Point;
  /** Probe points on the element, the aimed one first, to check again after the pointer moved. */
  readonly points: readonly Point[];
  /** The element in the top document's hit world, for checks around a click; undefined elsewhere. */
  readonly hitObject: string | undefined;
}

/**
 * Targeting: from a ref to a live element, and from an element to the point an action acts
 * at, through the same layout, coordinates and occlusion code as snapshots. It reads the page
 * state and fails through it (with a fresh snapshot attached); it knows nothing of evidence.
 */
export class Targeting {
  readonly #state: PageState;

  constructor(state: PageState) {
    this.#state = state;
  }

  /**
   * Resolves a ref to a live element: an unknown ref, a ref of a navigated frame, or a node that
   * left the document all fail with a fresh snapshot attached.
   */
  async resolve(ref: string, field: string): Promise<ResolvedElement> {
    const state = this.#state;
    const entry = state.refs.get(ref);
    if (!entry) {
      return state.fail(
        ToolErrorCode.UNKNOWN_REF,
        `There is no element ${quoted(ref, 32)} in the snapshot. Use a ref like "e12" from the latest snapshot (attached).`,
        field,
      );
    }
    const stale = (): Promise<never> => {
      state.refs.kill(entry);
      return state.fail(
        ToolErrorCode.STALE_REF,
        `Element ${entry.ref} (${entry.role} ${quoted(entry.name, 60)}) is gone: the page changed. Use a ref from the fresh snapshot (attached).`,
        field,
      );
    };
    if (!entry.alive || !state.page.sessions.has(entry.sessionId)) return stale();
    let objectId: string | undefined;
    try {
      const r = await state.page.send<{ object: { objectId?: string } }>(
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
    state.actionFrame = entry.frameId;
    return { entry, objectId };
  }

  /**
   * Calls a page function (or a function declaration's source) on an element in its own frame
   * and returns its JSON result.
   */
  async call<F extends PageFunction>(el: ResolvedElement, fn: F, args?: Parameters<F>): Promise<Awaited<ReturnType<F>>>;
  async call<T>(el: ResolvedElement, fn: string, args?: unknown[]): Promise<T>;
  async call<T>(el: ResolvedElement, fn: string | PageFunction, args: readonly unknown[] = []): Promise<T> {
    const r = await this.#state.page.send<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
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
    const state = this.#state;
    const page = state.page;
    const { entry } = el;
    const topDocument = entry.sessionId === page.rootId && entry.frameId === page.mainFrame()?.id;
    // A control its row shows only while hovered: the pointer goes over it first (which
    // hovers its row), and it is aimed at as shown; opacity 0 does not stop a hit.
    const hover = topDocument && entry.hoverAnchor !== undefined;
    if (hover) await this.#hoverOver(entry.backendNodeId);
    if (topDocument) {
      const inView = await this.#aimTop(entry, hover);
      if (inView) return inView;
    }
    await page.send("DOM.scrollIntoViewIfNeeded", { backendNodeId: entry.backendNodeId }, entry.sessionId).catch(() => undefined);
    if (!(await this.call(el, isConnected).catch(() => true))) {
      state.refs.kill(entry);
      return state.fail(
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
    const layout = await readPageLayout(page, { axTrees: false });
    const l = layout.sessions.get(entry.sessionId);
    const dom = l?.index.nodes.get(entry.backendNodeId);
    const origin = dom && l ? l.docOrigins[dom.doc] : undefined;
    if (!l || !dom || !origin) return state.fail(ToolErrorCode.STALE_REF, `Element ${entry.ref} is gone from the page.`, field);
    if (!dom.box || dom.box.width <= 0 || dom.box.height <= 0 || dom.invisible) {
      return state.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${entry.ref} is not visible on the page (hidden or zero size).`, field);
    }
    const visible = visibleRect(l, dom);
    if (!visible) {
      return state.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${entry.ref} could not be scrolled into view.`, field);
    }
    const [verdict] = await filterOccluded(page, layout, [{ sessionId: entry.sessionId, backendId: entry.backendNodeId, visible }]);
    if (verdict && !verdict.ok) {
      const cover = await this.describeNode(verdict.coveredIn, verdict.coveredBy);
      return state.fail(
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
    const page = this.#state.page;
    const top = await topElementBox(page, entry.backendNodeId);
    const hidden = top && (top.invisible || (top.transparent && !hover));
    const visible = top && !hidden && top.clip ? intersect(top.box, top.clip) : undefined;
    if (!top || !visible) return undefined;
    const inner = entry.inner.map((r) => ({ ...r, x: r.x + top.box.x, y: r.y + top.box.y }));
    const beside = inner.length ? probePointsBeside(visible, inner) : [];
    const points = beside.length ? beside : probePoints(visible);
    const point = await topElementHit(page, top, points);
    return point ? { point, points: [point, ...points.filter((p) => p !== point)], hitObject: top.objectId } : undefined;
  }

  /**
   * Moves the pointer over the middle of an element of the top document (which hovers its row,
   * showing what the row shows only on hover) and lets the hover take effect.
   */
  async #hoverOver(backendNodeId: number): Promise<void> {
    const page = this.#state.page;
    const top = await topElementBox(page, backendNodeId);
    const visible = top?.clip ? intersect(top.box, top.clip) : undefined;
    if (!visible) return;
    await page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: visible.x + visible.width / 2, y: visible.y + visible.height / 2 });
    await afterFrames(page);
  }

  /** A short human description of a DOM node, for error messages. */
  async describeNode(sessionId: string, backendNodeId: number | undefined): Promise<string> {
    if (backendNodeId === undefined) return "another element";
    try {
      const { node } = await this.#state.page.send<{ node: { localName?: string; nodeName: string; attributes?: string[] } }>(
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
}
