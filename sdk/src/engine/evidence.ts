import type { MessageInitShape } from "@bufbuild/protobuf";
import type { EvidenceSchema } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode } from "../contract/index.js";
import { declaration, invocation } from "./base/page-function.js";
import { deepestActive, fieldValue } from "./in-page/element-state.js";
import { textChanges } from "./snapshot/text-diff.js";
import { frameUrls } from "./page/page-session.js";
import { settle } from "./page/settle.js";
import { type ActivityMark, markActivity, noEffectsBetween, unchangedBetween } from "./page/snapshot-reuse.js";
import { sanitizeText, sanitizeUrl } from "./base/sanitize.js";
import { openUrlPolicy } from "../policy/url-policy.js";
import { closeRefusedTabs, leaveRefusedPage } from "./page/url-checks.js";
import type { PageState } from "./page-state.js";

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

/** The focused element as the model sees it, with its ref when a snapshot listed it. */
export interface FocusedElement {
  readonly ref: string;
  readonly role: string;
  readonly name: string;
  readonly value: string;
}

/** The focused DOM node, before it is matched to a ref. */
interface FocusedNode {
  readonly targetId: string;
  readonly backendNodeId: number;
  readonly nodeName: string;
  readonly value: string;
  /** The URLs of the out-of-process frames the focus was followed into, outermost first. */
  readonly frameUrls: readonly string[];
}

type EvidenceInit = MessageInitShape<typeof EvidenceSchema>;

/**
 * Evidence: a mark before an action, then settle and what the action changed (url, title,
 * refs that came and went, text the page said back, dialogs, tabs, focus). It reads the page
 * state and its last snapshot; it knows nothing of targeting.
 */
export class Evidence {
  readonly #state: PageState;

  constructor(state: PageState) {
    this.#state = state;
  }

  /** Marks the page state before an action (an action never reuses an older snapshot). */
  mark(): ActionMark {
    const p = this.#state.page;
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
    const state = this.#state;
    const p = state.page;
    // A round trip to the renderer flushes navigation events its handlers queued before it.
    await p.send("Runtime.evaluate", { expression: "0", returnByValue: true }).catch(() => undefined);
    if (p.navigationRequests > mark.navigationRequests || p.navigationCount > mark.navigationCount) {
      await settle(p, mark.loadsStarted, state.options.settle).catch(() => undefined);
      return state.fail(
        ToolErrorCode.NAVIGATED,
        `The page navigated away before the ${what} happened, so it was not performed. Now at ${sanitizeUrl(state.page.mainFrame()?.url ?? "")}; see the attached snapshot.`,
      );
    }
  }

  /** Settles after an action and reports what changed since `mark`. */
  async after(mark: ActionMark, options: { reactionFrom?: ActivityMark } = {}): Promise<EvidenceInit> {
    const state = this.#state;
    const page = state.page;
    const before = state.lastRefs;
    const beforeSnap = state.lastSnapshot;
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
    const start = () => (state.options.reuseSnapshots !== false && !page.gone ? state.pageSnapshot({ fresh: true, onMarked }).catch(() => undefined) : undefined);
    const loading = page.loadsStarted > mark.loadsStarted;
    let early = loading ? undefined : start();
    const actionFrame = state.actionFrame;
    state.actionFrame = undefined;
    const report = await settle(page, mark.loadsStarted, state.options.settle, actionFrame, mark.at, loading ? () => void (early = start()) : undefined);
    // Before anything is read: refused tabs closed, a refused page left (the snapshot below is then new).
    const refusedTabs = await closeRefusedTabs(page, state.options.urlPolicy ?? openUrlPolicy, mark.openedTargets);
    const leftPage = page.navigationCount > mark.navigationCount ? await leaveRefusedPage(page, state.options.urlPolicy ?? openUrlPolicy) : undefined;
    if (report.stalled) {
      // The page cannot be read until its load commits: say so now rather than wait it out.
      const main = page.mainFrame();
      return { url: sanitizeUrl(main?.url ?? ""), title: "", navigated: false, refsAdded: [], refsRemoved: [], notes: [...report.notes, ...refusedTabs.notes, ...(leftPage ? [leftPage] : [])] };
    }
    const earlyMark = (await early) && state.lastMark;
    const settled = earlyMark ? await markActivity(page).catch(() => undefined) : undefined;
    const valid = earlyMark !== undefined && settled !== undefined && unchangedBetween(earlyMark, settled);
    const [snap, focusedNode] = await Promise.all([
      valid ? early : state.pageSnapshot({ fresh: true }).catch(() => undefined),
      valid && earlyFocus ? earlyFocus : readFocus(),
    ]);
    const focused = focusedNode && this.#describeFocused(focusedNode);
    const afterRefs = state.lastRefs;
    const added = snap ? [...afterRefs].filter((r) => !before.has(r)) : [];
    const removed = snap ? [...before].filter((r) => !afterRefs.has(r)) : [];
    const dialog = page.dialogs.filter((d) => d.seq > mark.dialogSeq).at(-1);
    const main = page.mainFrame();
    const evidence: EvidenceInit = {
      url: snap?.url ?? sanitizeUrl(main?.url ?? ""),
      title: snap?.title ?? "",
      navigated: page.navigationCount > mark.navigationCount,
      refsAdded: added.slice(0, 50),
      refsRemoved: removed.slice(0, 50),
      notes: [...report.notes, ...refusedTabs.notes, ...(leftPage ? [leftPage] : [])],
    };
    // What the page says back (a status line, a toast, a counter), against the last snapshot
    // of the same document: not across a load, where everything is new.
    if (snap && beforeSnap && page.loadsStarted === mark.loadsStarted) {
      const text = textChanges(beforeSnap.lines, snap.lines);
      if (text.added.length) evidence.textAdded = text.added;
      if (text.changed.length) evidence.textChanged = text.changed;
      if (text.removed.length) evidence.textRemoved = text.removed;
    }
    const opened = page.openedTargets.slice(mark.openedTargets).filter((t) => !refusedTabs.closed.has(t)).at(-1);
    if (opened) evidence.newTabId = opened;
    if (dialog) {
      // A dialog a frame of a refused site opened says that site's words: it is reported, not read.
      const message = this.#state.unreadable(dialog.url) ? "(opened by a frame of a site the policy refuses: not read)" : sanitizeText(dialog.message, 300);
      evidence.dialog = { type: dialog.type, message, accepted: dialog.accepted };
    }
    if (focused) evidence.focused = focused;
    // Whether the page reacted at all: no mutation, no typed or toggled value, no scroll, in
    // any document, and no navigation, dialog, tab or ref coming or going.
    // (Focus moving into a field is the reaction a click on it wants.)
    const intoField = focused && ["textbox", "searchbox", "combobox", "spinbutton", "date", "time", "datetime", "color"].includes(focused.role);
    if (options.reactionFrom && !intoField && !evidence.navigated && !dialog && !opened && refusedTabs.closed.size === 0 && added.length === 0 && removed.length === 0) {
      const now = settled ?? (await markActivity(page).catch(() => undefined));
      if (now && noEffectsBetween(options.reactionFrom, now)) evidence.notes = [...(evidence.notes ?? []), "nothing on the page changed after the action"];
    }
    return evidence;
  }

  /** The page's activity before an action, for `after` to tell whether the page reacted (`reactionFrom`). */
  activityBefore(): Promise<ActivityMark | undefined> {
    return markActivity(this.#state.page).catch(() => undefined);
  }

  /** The focused element, followed into same-process frames, shadow roots and OOPIFs. */
  async focused(): Promise<FocusedElement | undefined> {
    const node = await this.#focusedNode();
    return node && this.#describeFocused(node);
  }

  /**
   * The URLs of the frames the keyboard focus is inside (the out-of-process frames it was
   * followed into), for the site policy to hold keys and typing that name no element to.
   */
  async focusFrameUrls(): Promise<readonly string[]> {
    return (await this.#focusedNode())?.frameUrls ?? [];
  }

  /**
   * The focused element as the model sees it, with its ref when a snapshot listed it; none when
   * it is inside a frame of a site the policy refuses (its field's value is that site's).
   */
  #describeFocused(f: FocusedNode): FocusedElement | undefined {
    // (An iframe itself holding focus says nothing the model can use: the page in it is another's.)
    if (f.nodeName === "IFRAME" || f.frameUrls.some(this.#state.unreadable)) return undefined;
    const entry = this.#state.refs.peek(f.targetId, f.backendNodeId);
    return {
      ref: entry?.ref ?? "",
      role: entry?.role ?? f.nodeName.toLowerCase(),
      name: sanitizeText(entry?.name ?? "", 120),
      value: sanitizeText(f.value, 200),
    };
  }

  /** Finds the focused DOM node (only reads the page, so it may run beside a snapshot). */
  async #focusedNode(): Promise<FocusedNode | undefined> {
    const p = this.#state.page;
    const deepest = invocation(deepestActive);
    let sessionId = p.rootId;
    const passed: string[] = [];
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
        // A frame in this process that the page may not enter (another origin) has no session to follow.
        const sameProcess = node.frameId !== undefined && p.frames.get(node.frameId)?.sessionId === sessionId;
        const match = sameProcess ? undefined : (owners.find((o) => o.owner === node.backendNodeId)?.s ?? child);
        const inner = match?.frameId ?? node.frameId;
        if (inner === undefined) return undefined;
        const known = p.frames.get(inner);
        passed.push(...(known ? frameUrls(known) : [""]));
        if (match) {
          sessionId = match.id;
          continue;
        }
      }
      const targetId = p.sessions.get(sessionId)?.targetId ?? p.targetId;
      const value = node.nodeName === "IFRAME" ? "" : await valueRead;
      return { targetId, backendNodeId: node.backendNodeId, nodeName: node.nodeName, value, frameUrls: passed };
    }
    return undefined;
  }
}
