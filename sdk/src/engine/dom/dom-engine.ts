import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type EvidenceSchema, type TakeSnapshotResult } from "@baton/gen/baton/v1/tools_pb";
import { TakeSnapshotResultSchema } from "@baton/gen/baton/v1/descriptors";
import { delay } from "../../cdp/timeouts.js";
import { ToolErrorCode, ToolFailure } from "../../contract/index.js";
import {
  childFrameOrigin,
  documentToViewport,
  type FrameOrigin,
  intersect,
  type Point,
  probePoints,
  type Rect,
  sessionToViewport,
  topFrameOrigin,
  viewportToDocument,
} from "../base/coordinates.js";
import { dropEchoes, paginate } from "../snapshot/render-text.js";
import { contextLineText, refLineText } from "../snapshot/line-format.js";
import { frameLabel, quoted, sanitizeText, sanitizeUrl } from "../base/sanitize.js";
import type { SnapshotLine } from "../snapshot/render-text.js";
import type { AgentItem, AgentSnapshot } from "../in-page/dom-agent.js";
import type { AgentBox } from "../in-page/elements.js";
import type { DomRunner } from "./dom-runner.js";

type Box = AgentBox;

/** A DOM-fallback ref: the agent's element id within one document (token). */
interface DomRef {
  readonly ref: string;
  readonly token: string;
  readonly id: number;
  role: string;
  name: string;
}

/** A whole-page DOM snapshot before pagination. */
export interface DomPageSnapshot {
  readonly url: string;
  readonly title: string;
  readonly token: string;
  readonly lines: SnapshotLine[];
  readonly refs: string[];
  readonly viewport: { width: number; height: number; scrollX: number; scrollY: number; pageWidth: number; pageHeight: number };
  readonly frameCount: number;
}

type EvidenceInit = MessageInitShape<typeof EvidenceSchema>;

const rect = (b: Box): Rect => ({ x: b[0], y: b[1], width: b[2], height: b[3] });

/**
 * The DOM fallback: the same snapshot format, refs and tool semantics as `Engine`, through a
 * page-injected agent instead of the debugger. For pages the debugger cannot attach to. It
 * cannot see into cross-origin frames (they become markers), answer dialogs, upload files or
 * take screenshots, and its events are synthetic (CSS :hover does not apply).
 */
export class DomEngine {
  readonly runner: DomRunner;
  readonly #refs = new Map<string, DomRef>();
  readonly #byKey = new Map<string, DomRef>();
  #next = 1;
  #lastRefs = new Set<string>();
  #last: DomPageSnapshot | undefined;

  constructor(runner: DomRunner) {
    this.runner = runner;
  }

  /** The last whole-page snapshot. */
  get lastSnapshot(): DomPageSnapshot | undefined {
    return this.#last;
  }

  /** Takes a whole-page snapshot through the agent and assigns stable refs. */
  async pageSnapshot(options: { includeOffscreen?: boolean } = {}): Promise<DomPageSnapshot> {
    const snap = await this.runner.call<AgentSnapshot>("snapshot");
    const viewport: Rect = { x: 0, y: 0, width: snap.size[0], height: snap.size[1] };
    // Client rectangles are already scroll-relative: each frame's origin is its owner's content box.
    const origins: FrameOrigin[] = [topFrameOrigin(viewport, 0, 0)];
    const mainOrigin = originOf(snap.url);
    const lines: SnapshotLine[] = [];
    const pending: { item: AgentItem; box: Rect; visible: Rect | undefined; line: number }[] = [];
    for (const item of snap.items) {
      const origin = origins[item.frame];
      if (!origin) continue;
      if (item.k === "frame" && item.owner && item.child !== undefined) {
        const ownerBox = sessionToViewport(rect(item.owner), origin);
        origins[item.child] = childFrameOrigin(origin, ownerBox, 0, 0);
        if (!intersect(ownerBox, origin.clip) && !options.includeOffscreen) continue;
        const cross = originOf(item.src ?? "") !== mainOrigin;
        lines.push({ depth: item.depth, text: cross ? `iframe [cross-origin ${frameLabel(item.src ?? "")}]` : `iframe${item.name ? ` ${quoted(item.name, 60)}` : ""}` });
        continue;
      }
      if (!item.rect) continue;
      const box = documentToViewport(rect(item.rect), origin);
      const inFrame = intersect(box, origin.clip);
      // Cut to the clipping ancestors the agent reported, as the CDP engine does.
      const visible = inFrame && item.clip ? intersect(inFrame, documentToViewport(rect(item.clip), origin)) : inFrame;
      if (!visible && !options.includeOffscreen) continue;
      if (item.k === "xframe") {
        lines.push({ depth: item.depth, text: `iframe [cross-origin ${frameLabel(item.src ?? "")}]` });
      } else if (item.k === "text") {
        lines.push({ depth: item.depth, text: quoted(item.name ?? "", 100), plain: sanitizeText(item.name ?? "", 100) });
      } else if (item.k === "ctx") {
        lines.push({ depth: item.depth, text: contextLineText(item.role ?? "", item.name ?? "", item.level) });
      } else {
        pending.push({ item, box, visible, line: lines.length });
        lines.push({ depth: item.depth, text: "" });
      }
    }
    // Occlusion, as in the CDP engine: hit-test the visible ones, descendant-accepting.
    const inView = pending.filter((p) => p.visible);
    const verdicts = await this.#hitTest(
      inView.map((p) => ({ id: p.item.id!, frames: framesOf(snap.items, p.item.frame), visible: p.visible! })),
      origins,
    );
    const dropped = new Set(inView.filter((_, i) => !verdicts[i]?.ok).map((p) => p.line));
    const refs: string[] = [];
    for (const p of pending) {
      if (dropped.has(p.line)) continue;
      const entry = this.#refFor(snap.token, p.item.id!);
      entry.role = p.item.role ?? "";
      entry.name = p.item.name ?? "";
      const states = p.visible ? (p.item.states ?? []) : [...(p.item.states ?? []), "offscreen"];
      lines[p.line] = {
        depth: p.item.depth,
        ref: entry.ref,
        plain: sanitizeText(entry.name),
        text: refLineText({ ref: entry.ref, role: entry.role, name: entry.name, value: p.item.value, states }),
      };
      refs.push(entry.ref);
    }
    const kept = lines.filter((l, i) => l.text !== "" && !dropped.has(i));
    const result: DomPageSnapshot = {
      url: sanitizeUrl(snap.url),
      title: sanitizeText(snap.title, 200),
      token: snap.token,
      lines: dropEchoes(kept),
      refs,
      viewport: { width: snap.size[0], height: snap.size[1], scrollX: snap.scroll[0], scrollY: snap.scroll[1], pageWidth: snap.page[0], pageHeight: snap.page[1] },
      frameCount: snap.frames,
    };
    this.#last = result;
    this.#lastRefs = new Set(refs);
    return result;
  }

  /** The take_snapshot tool through the DOM. */
  async snapshot(params: { offset?: number; maxChars?: number; includeOffscreen?: boolean }): Promise<MessageInitShape<typeof TakeSnapshotResultSchema>> {
    const snap = await this.pageSnapshot({ includeOffscreen: params.includeOffscreen ?? false });
    const page = paginate(snap.lines, params.offset ?? 0, params.maxChars ?? 12_000);
    return {
      url: snap.url,
      title: snap.title,
      text: page.pageOverflow ? "(max_chars is too small for even one element: call again with a larger max_chars.)" : page.text,
      refCount: page.refCount,
      totalRefCount: page.totalRefCount,
      pageOverflow: page.pageOverflow,
      viewport: snap.viewport,
      frameCount: snap.frameCount,
      ...(page.nextOffset !== undefined ? { nextOffset: page.nextOffset } : {}),
    };
  }

  /** Fails with a fresh snapshot attached. */
  async fail(code: ToolErrorCode, message: string, field?: string): Promise<never> {
    let snapshot: TakeSnapshotResult | undefined;
    try {
      snapshot = create(TakeSnapshotResultSchema, await this.snapshot({}));
    } catch {
      snapshot = undefined;
    }
    throw new ToolFailure(code, message, { ...(field ? { field } : {}), ...(snapshot ? { snapshot } : {}) });
  }

  /** Resolves a ref to a live element of the current document. */
  async resolve(ref: string, field: string): Promise<DomRef> {
    const entry = this.#refs.get(ref.trim().replace(/^\[|\]$/g, ""));
    if (!entry) {
      return this.fail(ToolErrorCode.UNKNOWN_REF, `There is no element ${quoted(ref, 32)} in the snapshot. Use a ref like "e12" from the latest snapshot (attached).`, field);
    }
    const ping = await this.runner.call<{ token: string }>("ping");
    const alive = ping.token === entry.token && (await this.runner.call<boolean>("alive", entry.id));
    if (!alive) {
      return this.fail(ToolErrorCode.STALE_REF, `Element ${entry.ref} (${entry.role} ${quoted(entry.name, 60)}) is gone: the page changed. Use a ref from the fresh snapshot (attached).`, field);
    }
    return entry;
  }

  /** Scrolls the element into view and finds a point where it, not a cover, is hit. */
  async actionPoint(entry: DomRef, field: string): Promise<{ frame: number; local: Point; viewport: Point }> {
    const loc = await this.runner.call<{ gone?: boolean; rect: Box; visible: boolean; chain: number[]; owners: (Box | null)[] }>("locate", entry.id);
    if (loc.gone) return this.fail(ToolErrorCode.STALE_REF, `Element ${entry.ref} is gone from the page.`, field);
    const snapSize = this.#last?.viewport;
    const viewport: Rect = { x: 0, y: 0, width: snapSize?.width ?? 1e6, height: snapSize?.height ?? 1e6 };
    const origins = new Map<number, FrameOrigin>();
    let origin = topFrameOrigin(viewport, 0, 0);
    loc.chain.forEach((f, i) => {
      const owner = loc.owners[i];
      if (i > 0 && owner) origin = childFrameOrigin(origin, sessionToViewport(rect(owner), origin), 0, 0);
      origins.set(f, origin);
    });
    const box = documentToViewport(rect(loc.rect), origin);
    const visible = loc.visible && box.width > 0 && box.height > 0 ? intersect(box, origin.clip) : undefined;
    if (!visible) return this.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${entry.ref} is not visible on the page (hidden, zero size, or cannot scroll into view).`, field);
    let coveredBy = "another element";
    for (const p of probePoints(visible)) {
      const chain = loc.chain.map((f) => ({ frame: f, ...roundPoint(viewportToDocument(p, origins.get(f)!)) }));
      const [v] = await this.runner.call<{ ok: boolean; by?: string }[]>("hits", [{ id: entry.id, chain }]);
      if (v?.ok) {
        const last = chain[chain.length - 1]!;
        return { frame: last.frame, local: { x: last.x, y: last.y }, viewport: p };
      }
      coveredBy = v?.by ?? coveredBy;
    }
    return this.fail(
      ToolErrorCode.NOT_ACTIONABLE,
      `Element ${entry.ref} is covered by ${sanitizeText(coveredBy, 60)}. Close or answer that first (see the attached snapshot).`,
      field,
    );
  }

  /** The page's document token and URL, to tell whether an action navigated. */
  async mark(): Promise<{ token: string; url: string }> {
    const p = await this.runner.call<{ token: string; url: string }>("ping");
    return { token: p.token, url: p.url };
  }

  /** Settles (document ready, DOM quiet, both capped) and reports what changed since `mark`. */
  async evidence(mark: { token: string; url: string }): Promise<EvidenceInit> {
    const notes: string[] = [];
    // First let the page react (two frames and a quiet window), so a navigation it starts shows.
    const quiet = await this.runner.call<boolean>("quiet", { window: 60, cap: 2000 }).catch(() => true);
    const started = Date.now();
    type Ping = { token: string; url: string; title: string; ready: string; navigating: string };
    let ping: Ping | undefined;
    while (Date.now() - started < 10_000) {
      ping = await this.runner.call<Ping>("ping").catch(() => undefined);
      // Still the old document, but leaving it: wait for the next one (a navigation that never
      // commits, such as a download or a 204, stops counting after 3 s).
      const leaving = ping !== undefined && ping.token === mark.token && ping.navigating !== "" && Date.now() - started < 3000;
      if (ping && ping.ready === "complete" && !leaving) break;
      await delay(50);
    }
    if (!ping || ping.ready !== "complete") notes.push("page still loading after 10 s");
    if (ping && ping.token === mark.token && ping.navigating) {
      notes.push("a navigation started but did not complete");
      await this.runner.call("ping", { reset: true }).catch(() => undefined);
    }
    const settled = ping && ping.token !== mark.token ? await this.runner.call<boolean>("quiet", { window: 60, cap: 2000 }).catch(() => true) : quiet;
    if (!settled) notes.push("page still changing");
    const before = this.#lastRefs;
    const snap = await this.pageSnapshot().catch(() => undefined);
    const after = this.#lastRefs;
    const evidence: EvidenceInit = {
      url: snap?.url ?? sanitizeUrl(ping?.url ?? ""),
      title: snap?.title ?? "",
      navigated: !!ping && (ping.token !== mark.token || ping.url !== mark.url),
      refsAdded: snap ? [...after].filter((r) => !before.has(r)).slice(0, 50) : [],
      refsRemoved: snap ? [...before].filter((r) => !after.has(r)).slice(0, 50) : [],
      notes,
    };
    const focusedId = await this.runner.call<number>("focused").catch(() => 0);
    const focused = focusedId && snap ? this.#byKey.get(`${snap.token}:${focusedId}`) : undefined;
    if (focused) evidence.focused = { ref: focused.ref, role: focused.role, name: sanitizeText(focused.name), value: "" };
    return evidence;
  }

  /** Runs a DOM operation, turning lower-level failures into model-facing ones. */
  async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof ToolFailure) throw e;
      const reason = e instanceof Error ? e.message : String(e);
      if (/did not finish within/.test(reason)) {
        throw new ToolFailure(ToolErrorCode.TIMEOUT, `The page did not answer (${reason}); a dialog may be open. Try again or take a snapshot.`);
      }
      throw new ToolFailure(ToolErrorCode.INTERNAL, `The page script failed: ${sanitizeText(reason, 300)}`);
    }
  }

  async #hitTest(candidates: { id: number; frames: number[]; visible: Rect }[], origins: FrameOrigin[]): Promise<{ ok: boolean }[]> {
    if (candidates.length === 0) return [];
    const points = candidates.map((c) => probePoints(c.visible));
    const ask = (round: number) =>
      candidates.map((c, i) => {
        const p = points[i]![Math.min(round, points[i]!.length - 1)]!;
        return { id: c.id, chain: c.frames.map((f) => ({ frame: f, ...roundPoint(viewportToDocument(p, origins[f]!)) })) };
      });
    const verdicts = await this.runner.call<{ ok: boolean }[]>("hits", ask(0));
    for (let r = 1; r < 5 && verdicts.some((v) => !v.ok); r++) {
      const again = await this.runner.call<{ ok: boolean }[]>("hits", ask(r));
      again.forEach((v, i) => {
        if (v.ok) verdicts[i] = v;
      });
    }
    return verdicts;
  }

  #refFor(token: string, id: number): DomRef {
    const key = `${token}:${id}`;
    let entry = this.#byKey.get(key);
    if (!entry) {
      entry = { ref: `e${this.#next++}`, token, id, role: "", name: "" };
      this.#byKey.set(key, entry);
      this.#refs.set(entry.ref, entry);
    }
    return entry;
  }
}

/** The chain of frame indices from the top document down to `frame`. */
function framesOf(items: AgentItem[], frame: number): number[] {
  const parentOf = new Map<number, number>();
  for (const it of items) if (it.k === "frame" && it.child !== undefined) parentOf.set(it.child, it.frame);
  const chain = [frame];
  for (let f = frame, guard = 0; parentOf.has(f) && guard < 20; guard++) {
    f = parentOf.get(f)!;
    chain.unshift(f);
  }
  return chain;
}

function roundPoint(p: Point): Point {
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
