import type { Point, Rect } from "../base/coordinates.js";

/** What the engine remembers about a ref between snapshots. */
export interface RefEntry {
  readonly ref: string;
  /** Session rendering the element ("" for a `chrome.debugger` root). */
  sessionId: string;
  /** Target of that session; refs are keyed by it so a session re-attach keeps them. */
  readonly targetId: string;
  readonly frameId: string;
  readonly backendNodeId: number;
  role: string;
  name: string;
  /** Viewport box at the last snapshot. */
  box: Rect | undefined;
  /** A point where the last snapshot's hit test found the element itself. */
  hitPoint: Point | undefined;
  /**
   * For an element a stylesheet shows only while it or its row is hovered: the backend id of
   * the element to hover first (top document), as the last snapshot found it.
   */
  hoverAnchor: number | undefined;
  /**
   * Boxes of the targets inside this element that have refs of their own, relative to this
   * element's box (last snapshot): an action on this element aims beside them, where the
   * element itself listens.
   */
  inner: Rect[];
  /** False once its frame navigated or detached: the node can never come back. */
  alive: boolean;
}

/**
 * Stable refs: the same live DOM node keeps its ref across snapshots; refs are never reused,
 * so an old ref is either the same element or provably stale, never a different element.
 */
export class RefTable {
  readonly #byKey = new Map<string, RefEntry>();
  readonly #byRef = new Map<string, RefEntry>();
  #next = 1;

  /** The ref for a node, minting one on first sight. */
  refFor(sessionId: string, targetId: string, frameId: string, backendNodeId: number): RefEntry {
    const key = `${targetId}:${backendNodeId}`;
    let entry = this.#byKey.get(key);
    if (!entry || !entry.alive) {
      entry = {
        ref: `e${this.#next++}`,
        sessionId,
        targetId,
        frameId,
        backendNodeId,
        role: "",
        name: "",
        box: undefined,
        hitPoint: undefined,
        hoverAnchor: undefined,
        inner: [],
        alive: true,
      };
      this.#byKey.set(key, entry);
      this.#byRef.set(entry.ref, entry);
    }
    entry.sessionId = sessionId;
    return entry;
  }

  /** The live ref of a node, without minting one. */
  peek(targetId: string, backendNodeId: number): RefEntry | undefined {
    return this.#byKey.get(`${targetId}:${backendNodeId}`);
  }

  /** Looks a ref up; undefined when it was never issued. */
  get(ref: string): RefEntry | undefined {
    return this.#byRef.get(ref.trim().replace(/^\[|\]$/g, "").replace(/^ref=/, ""));
  }

  /** Marks every ref of a frame dead (the frame navigated or went away). */
  killFrame(frameId: string): void {
    for (const [key, e] of this.#byKey) {
      if (e.frameId === frameId) {
        e.alive = false;
        this.#byKey.delete(key);
      }
    }
  }

  /** Marks one ref dead (its node was found gone). */
  kill(entry: RefEntry): void {
    entry.alive = false;
    this.#byKey.delete(`${entry.targetId}:${entry.backendNodeId}`);
  }

  /** True when the string looks like a ref this table could have issued. */
  static looksLikeRef(ref: string): boolean {
    return /^\[?(ref=)?e\d+\]?$/.test(ref.trim());
  }
}
