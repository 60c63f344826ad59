import type { Frame, FrameTree } from "../../cdp/protocol.js";
import { withTimeout } from "../../cdp/timeouts.js";
import { CdpClosedError, type CdpEvent, type CdpTransport } from "../../cdp/transport.js";
import { trackerSource } from "../gen/in-page-source.js";
import { activityWorld } from "./tracker-script.js";
import { autoAttachFilter, workerAutoAttach, workerOf, type WorkerInfo } from "./workers.js";

/** One flat CDP session of the page: the page itself, or an out-of-process iframe. */
export interface SessionInfo {
  /** Flat session id; "" for the transport's root (a `chrome.debugger` tab). */
  readonly id: string;
  /** The target behind the session. */
  readonly targetId: string;
  /** The session this one was auto-attached under; undefined for the page. */
  readonly parentId: string | undefined;
  /** For an OOPIF session, the id of its frame (equal to its targetId in Chromium). */
  readonly frameId: string | undefined;
}

/** A frame known to the page, in whichever session renders it. */
export interface FrameInfo {
  readonly id: string;
  readonly sessionId: string;
  parentId: string | undefined;
  url: string;
  loaderId: string;
  /**
   * The URL of the document the last snapshot read in this frame. It can differ from `url`
   * while the frame's events lag the document (or lead it, mid-navigation); the site policy
   * asks about both (`frameUrls`).
   */
  docUrl?: string;
}

/**
 * Every URL a frame is known by, for the site policy: its navigation's and its read document's.
 * The document read is the truth; the recorded URL can lag it (an out-of-process frame is known
 * by its session before its URL arrives) or lead it (mid-navigation), so both are asked. Neither
 * known is [""], which the policy answers for an unknown frame (`decideFrame`).
 */
export function frameUrls(f: Pick<FrameInfo, "url" | "docUrl">): string[] {
  const urls = [...new Set([f.url, f.docUrl ?? ""].filter((u) => u !== ""))];
  return urls.length > 0 ? urls : [""];
}

/** A JavaScript dialog the session answered. */
export interface DialogRecord {
  readonly type: string;
  readonly message: string;
  readonly accepted: boolean;
  /** The URL of the frame that opened it. */
  readonly url: string;
  /** Monotonic sequence number, so a caller can tell which dialogs came after a mark. */
  readonly seq: number;
}

/** Decides how to answer a JavaScript dialog; true accepts. */
export type DialogPolicy = (dialog: { type: string; message: string; url: string }) => boolean;

/** Options for a page session. */
export interface PageSessionOptions {
  /** Cap for any single CDP command (default 10 s). */
  commandTimeoutMs?: number;
  /** How to answer dialogs; accepts everything by default (the model asked for the action). */
  dialogPolicy?: DialogPolicy;
}

/**
 * Commands the engine sends that change the page by themselves (input, focus, scrolling,
 * navigation, emulation): each bumps `PageSession.inputEpoch`, so a snapshot taken before one
 * is never reused after it.
 */
const pageChanging = /^(Input\.|Emulation\.|Page\.(navigate|navigateToHistoryEntry|reload|bringToFront)$|DOM\.(focus|scrollIntoViewIfNeeded|setFileInputFiles|setAttributeValue|setNodeValue|removeNode)$|Target\.activateTarget$)/;

/** `Network.enable` of every session: events only, no bodies kept in the browser. */
const networkParams = { maxTotalBufferSize: 0, maxResourceBufferSize: 0 };

/** Events that change which documents the page has (see `PageSession.structureVersion`). */
const structural = new Set([
  "Target.attachedToTarget",
  "Target.detachedFromTarget",
  "Page.frameAttached",
  "Page.frameDetached",
  "Page.frameNavigated",
  "Page.navigatedWithinDocument",
  "Page.frameStartedLoading",
  "Page.frameStoppedLoading",
  "Page.loadEventFired",
  "Page.javascriptDialogOpening",
  "Page.javascriptDialogClosed",
  "Inspector.targetCrashed",
  "Inspector.detached",
]);

/** Raised once the page's renderer crashed or its target went away. */
/** A request the page session tracks while it is in flight (and an event stream while it is open). */
interface InflightRequest {
  readonly started: number;
  readonly frameId: string | undefined;
  /** The host (and port) it went to. */
  readonly host: string;
  /** A frame's document request (a navigation's load). */
  readonly document: boolean;
  /** Its response headers came. */
  responded: boolean;
  /** An event stream that answered: open for as long as its page. */
  readonly stream: boolean;
  /** The worker session that made it, if a dedicated worker did (see workers.ts). */
  readonly worker?: string;
}

/** The host and port of a URL ("" when it has none). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

export class TargetGoneError extends Error {
  override readonly name = "TargetGoneError";
}

/**
 * Owns everything the engine knows about one page: its sessions (the page plus each OOPIF,
 * auto-attached and flattened), its frames, navigation, in-flight requests, dialogs and crash
 * state. Every command goes through `send`, which is capped and fails fast once the page is gone.
 */
export class PageSession {
  readonly transport: CdpTransport;
  readonly rootId: string;
  readonly targetId: string;
  readonly sessions = new Map<string, SessionInfo>();
  readonly frames = new Map<string, FrameInfo>();
  readonly dialogs: DialogRecord[] = [];
  /** Main-frame navigations seen (cross-document and same-document). */
  navigationCount = 0;
  /** Main-frame navigations requested or started (before any commit); guards mid-action moves. */
  navigationRequests = 0;
  /** HTTP status of the last main-frame document response. */
  lastDocumentStatus = 0;
  /** Main-frame loads started; settle waits for the matching load event. */
  loadsStarted = 0;
  loadsFinished = 0;
  /** `Date.now()` when the top document last finished loading (load event, or a stop without one). */
  loadFinishedAt = 0;
  /** Page targets this page opened (target=_blank, window.open), newest last. */
  readonly openedTargets: string[] = [];
  /** Set when the renderer crashed or the target detached. */
  gone: string | undefined;
  /**
   * Bumped by every change of the page's documents and sessions: a frame attached, detached or
   * navigated (also within the document), a load started or ended, a session came or went, a
   * dialog opened or closed, a crash.
   */
  structureVersion = 0;
  /** Bumped by every page-changing command the engine sends (see `pageChanging`). */
  inputEpoch = 0;
  /** JavaScript dialogs open right now (they are answered at once, so usually 0). */
  openDialogs = 0;
  /**
   * Requests in flight: when each started, in which frame (a worker's count for the frame that
   * started the worker; undefined when unknown), and the worker session that made it, if any.
   */
  readonly #inflight = new Map<string, InflightRequest>();
  /** Event streams that answered and stay open (not in flight for settling; see `stalledLoad`). */
  readonly #streams = new Map<string, InflightRequest>();
  /** `Date.now()` of the last request start, finish or failure per frame ("" for none). */
  readonly #lastActivityByFrame = new Map<string, number>();
  /** The dedicated workers auto-attached under the page's sessions (see workers.ts), by session id. */
  readonly #workers = new Map<string, WorkerInfo>();
  readonly #unsubscribe: (() => void)[] = [];
  readonly #watchers = new Set<() => void>();
  readonly #frameListeners = new Set<(frameId: string) => void>();
  readonly #timeoutMs: number;
  readonly #dialogPolicy: DialogPolicy;
  #dialogSeq = 0;
  #rejectGone: (e: Error) => void = () => undefined;
  /** Rejects once the page is gone; every command races it so none waits on a dead renderer. */
  readonly #gone = new Promise<never>((_, reject) => {
    this.#rejectGone = reject;
  });

  private constructor(transport: CdpTransport, rootId: string, targetId: string, options: PageSessionOptions) {
    this.transport = transport;
    this.rootId = rootId;
    this.targetId = targetId;
    this.#timeoutMs = options.commandTimeoutMs ?? 10_000;
    this.#dialogPolicy = options.dialogPolicy ?? (() => true);
    this.sessions.set(rootId, { id: rootId, targetId, parentId: undefined, frameId: undefined });
    this.#unsubscribe.push(transport.onEvent((e) => this.#onEvent(e)));
    this.#unsubscribe.push(transport.onClose((reason) => this.#markGone(`connection closed: ${reason}`)));
  }

  /**
   * Starts a session on a page. `rootId` is the flat session id of an attached page target
   * (WebSocket), or "" when the transport itself is attached to the tab (`chrome.debugger`).
   */
  static async open(
    transport: CdpTransport,
    rootId: string,
    targetId: string,
    options: PageSessionOptions = {},
  ): Promise<PageSession> {
    const page = new PageSession(transport, rootId, targetId, options);
    await page.#prepare(rootId);
    return page;
  }

  /** Attaches to a page target over a browser-level connection and opens a session on it. */
  static async attach(transport: CdpTransport, targetId: string, options: PageSessionOptions = {}): Promise<PageSession> {
    const { sessionId } = await transport.send<{ sessionId: string }>("Target.attachToTarget", {
      targetId,
      flatten: true,
    });
    // Lets the page notice tabs it opens; harmless when discovery is already on.
    await transport.send("Target.setDiscoverTargets", { discover: true }).catch(() => undefined);
    return PageSession.open(transport, sessionId, targetId, options);
  }

  /** Sends a command to one of the page's sessions, capped and failing fast once gone. */
  async send<R = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId: string = this.rootId,
    timeoutMs: number = this.#timeoutMs,
  ): Promise<R> {
    if (this.gone) throw new TargetGoneError(this.gone);
    if (pageChanging.test(method)) this.inputEpoch++;
    const call = this.transport.send<R>(method, params, sessionId || undefined);
    try {
      return await withTimeout(Promise.race([call, this.#goneSignal()]), timeoutMs, method);
    } catch (e) {
      if (this.gone) throw new TargetGoneError(this.gone);
      if (e instanceof CdpClosedError) throw new TargetGoneError(e.message);
      throw e;
    }
  }

  /** The main frame. */
  mainFrame(): FrameInfo | undefined {
    for (const f of this.frames.values()) if (!f.parentId && f.sessionId === this.rootId) return f;
    return undefined;
  }

  /**
   * Requests in flight that started less than `maxAgeMs` ago (long polls do not count), of the
   * frames `counts` accepts (all by default; see settle's scope).
   */
  inflightRequests(counts: (frameId: string | undefined) => boolean = () => true, maxAgeMs = 3000): number {
    const now = Date.now();
    let n = 0;
    for (const r of this.#inflight.values()) if (now - r.started < maxAgeMs && counts(r.frameId)) n++;
    return n;
  }

  /**
   * The top document's load that has had no response yet (the request of a navigation that
   * is stalled), with how long it has waited and how many other requests are open to its host
   * (a browser opens at most six connections to one host); undefined when none is waiting.
   */
  stalledLoad(): { readonly waitedMs: number; readonly host: string; readonly openToHost: number; readonly streams: number } | undefined {
    const main = this.mainFrame();
    let doc: InflightRequest | undefined;
    for (const r of this.#inflight.values()) if (r.document && r.frameId === main?.id && !r.responded && (!doc || r.started > doc.started)) doc = r;
    if (!doc) return undefined;
    let openToHost = 0;
    let streams = 0;
    for (const r of [...this.#inflight.values(), ...this.#streams.values()]) {
      if (r === doc || r.host !== doc.host) continue;
      openToHost++;
      if (r.stream) streams++;
    }
    return { waitedMs: Date.now() - doc.started, host: doc.host, openToHost, streams };
  }

  /** `Date.now()` of the last request start, finish or failure in the frames `counts` accepts. */
  lastNetworkActivityOf(counts: (frameId: string | undefined) => boolean): number {
    let last = 0;
    for (const [frameId, at] of this.#lastActivityByFrame) if (at > last && counts(frameId || undefined)) last = at;
    return last;
  }

  #networkActivity(frameId: string | undefined): void {
    const now = Date.now();
    this.#lastActivityByFrame.set(frameId ?? "", now);
    // Frames come and go over a long session; only recent activity matters to anyone.
    if (this.#lastActivityByFrame.size > 500) for (const [f, at] of this.#lastActivityByFrame) if (now - at > 10_000) this.#lastActivityByFrame.delete(f);
  }

  /**
   * `p`, or undefined as soon as the top frame starts a navigation after `since` (counts read
   * before the action): a command sent to a page that is navigating is held by the browser
   * until the navigation commits, which for a stalled load is never.
   */
  beforeLeaving<T>(p: Promise<T>, since: { readonly navigationRequests: number; readonly loadsStarted: number }): Promise<T | undefined> {
    const leaving = (): boolean => this.navigationRequests > since.navigationRequests || this.loadsStarted > since.loadsStarted || this.gone !== undefined;
    if (leaving()) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const stop = this.watch(() => {
        if (!leaving()) return;
        stop();
        resolve(undefined);
      });
      p.then(
        (v) => {
          stop();
          resolve(v);
        },
        () => {
          stop();
          resolve(undefined);
        },
      );
    });
  }

  /** Calls `fn` on every page event; used by waits so they poll only when something happened. */
  watch(fn: () => void): () => void {
    this.#watchers.add(fn);
    return () => this.#watchers.delete(fn);
  }

  /** Calls `fn(frameId)` whenever a frame navigates or detaches (its refs die). */
  onFrameGone(fn: (frameId: string) => void): () => void {
    this.#frameListeners.add(fn);
    return () => this.#frameListeners.delete(fn);
  }

  /** Stops listening; the transport stays open for its owner. */
  dispose(): void {
    for (const u of this.#unsubscribe) u();
    this.#markGone("session disposed");
  }

  #goneSignal(): Promise<never> {
    return this.#gone;
  }

  async #prepare(sessionId: string): Promise<void> {
    const s = (method: string, params: Record<string, unknown> = {}) => this.send(method, params, sessionId);
    const steps: Promise<unknown>[] = [
      s("Page.enable"),
      s("Network.enable", networkParams),
      s("Target.setAutoAttach", {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: true,
        filter: autoAttachFilter,
      }),
    ];
    if (sessionId === this.rootId) steps.push(s("Inspector.enable"));
    steps.push(s("Accessibility.enable"));
    // The activity tracker (activity-tracker.ts), for every new document before its scripts run
    // (OOPIFs wait for the debugger until prepared) and right away in the documents it has.
    steps.push(
      s("Page.addScriptToEvaluateOnNewDocument", { source: trackerSource, worldName: activityWorld, runImmediately: true }).catch(() => undefined),
    );
    await Promise.all(steps);
    const { frameTree } = await this.send<{ frameTree: FrameTree }>("Page.getFrameTree", {}, sessionId);
    const add = (tree: FrameTree): void => {
      this.#upsertFrame(tree.frame, sessionId);
      for (const c of tree.childFrames ?? []) add(c);
    };
    add(frameTree);
  }

  #upsertFrame(frame: Frame, sessionId: string): void {
    const known = this.frames.get(frame.id);
    if (known && known.sessionId !== sessionId && frame.parentId && !known.parentId) {
      // An OOPIF's own session reports its frame without a parent; keep the parent link.
      known.url = frame.url;
      known.loaderId = frame.loaderId;
      return;
    }
    this.frames.set(frame.id, {
      id: frame.id,
      sessionId: known && !frame.parentId && known.parentId ? known.sessionId : sessionId,
      parentId: frame.parentId ?? known?.parentId,
      url: frame.url,
      loaderId: frame.loaderId,
    });
  }

  #onEvent(e: CdpEvent): void {
    if (e.method === "Target.targetCreated") {
      // Browser-level discovery (when the connection has it): tabs this page opened.
      const info = e.params.targetInfo as { targetId: string; type: string; openerId?: string };
      if (info.type === "page" && info.openerId === this.targetId && !this.openedTargets.includes(info.targetId)) {
        this.openedTargets.push(info.targetId);
        for (const w of [...this.#watchers]) w();
      }
      return;
    }
    const sid = e.sessionId ?? "";
    const p = e.params;
    if (this.#onWorkerEvent(e.method, p, sid)) return;
    if (!this.sessions.has(sid)) return;
    if (structural.has(e.method)) this.structureVersion++;
    switch (e.method) {
      case "Target.attachedToTarget": {
        const info = p.targetInfo as { targetId: string; type: string; url?: string };
        const childId = p.sessionId as string;
        this.sessions.set(childId, { id: childId, targetId: info.targetId, parentId: sid, frameId: info.targetId });
        const known = this.frames.get(info.targetId);
        this.frames.set(info.targetId, {
          id: info.targetId,
          sessionId: childId,
          parentId: known?.parentId,
          // The target's own URL until its frame tree is read: the site policy asks it meanwhile.
          url: known?.url || info.url || "",
          loaderId: known?.loaderId ?? "",
        });
        void this.#prepare(childId)
          .catch(() => undefined)
          .finally(() => this.send("Runtime.runIfWaitingForDebugger", {}, childId).catch(() => undefined));
        break;
      }
      case "Target.detachedFromTarget": {
        this.#dropSession(p.sessionId as string);
        break;
      }
      case "Page.frameAttached": {
        const id = p.frameId as string;
        if (!this.frames.has(id)) {
          this.frames.set(id, { id, sessionId: sid, parentId: p.parentFrameId as string, url: "", loaderId: "" });
        }
        break;
      }
      case "Page.frameNavigated": {
        const frame = p.frame as Frame;
        const before = this.frames.get(frame.id);
        if (before && before.loaderId && before.loaderId !== frame.loaderId) {
          this.#frameGone(frame.id);
          // Chromium sends no frameDetached for the old document's child frames: forget them here,
          // or every later snapshot would ask for the AX trees of frames that no longer exist.
          this.#forgetChildFrames(frame.id);
        }
        this.#upsertFrame(frame, sid);
        if (!frame.parentId && sid === this.rootId) this.navigationCount++;
        break;
      }
      case "Page.navigatedWithinDocument": {
        const f = this.frames.get(p.frameId as string);
        if (f) f.url = p.url as string;
        if (f && !f.parentId && sid === this.rootId) this.navigationCount++;
        break;
      }
      case "Page.frameDetached": {
        // "swap" means the frame moved to another process (became an OOPIF); it lives on.
        if (p.reason !== "swap") {
          this.#frameGone(p.frameId as string);
          this.#forgetChildFrames(p.frameId as string);
          this.frames.delete(p.frameId as string);
        }
        break;
      }
      case "Page.frameRequestedNavigation":
      case "Page.frameStartedNavigating": {
        const f = this.frames.get(p.frameId as string);
        if (sid === this.rootId && f && !f.parentId) this.navigationRequests++;
        break;
      }
      case "Network.responseReceived": {
        const f = this.frames.get(p.frameId as string);
        if (sid === this.rootId && p.type === "Document" && f && !f.parentId) {
          this.lastDocumentStatus = Number((p.response as { status?: number }).status ?? 0);
        }
        this.#onRequest(e.method, p, undefined);
        break;
      }
      case "Page.frameStartedLoading": {
        const f = this.frames.get(p.frameId as string);
        if (sid === this.rootId && f && !f.parentId) {
          this.loadsStarted++;
          this.navigationRequests++;
        }
        break;
      }
      case "Page.loadEventFired":
        if (sid === this.rootId) {
          this.loadsFinished = this.loadsStarted;
          this.loadFinishedAt = Date.now();
        }
        break;
      case "Page.frameStoppedLoading": {
        // Back-forward cache restores and aborted loads stop without a load event.
        const f = this.frames.get(p.frameId as string);
        if (sid === this.rootId && f && !f.parentId && this.loadsFinished < this.loadsStarted) {
          this.loadsFinished = this.loadsStarted;
          this.loadFinishedAt = Date.now();
        }
        break;
      }
      case "Page.javascriptDialogOpening":
        this.openDialogs++;
        this.#answerDialog(sid, p);
        break;
      case "Page.javascriptDialogClosed":
        this.openDialogs = Math.max(0, this.openDialogs - 1);
        break;
      case "Network.requestWillBeSent":
      case "Network.loadingFinished":
      case "Network.loadingFailed":
        this.#onRequest(e.method, p, undefined);
        break;
      case "Inspector.targetCrashed":
        this.#markGone("the tab crashed");
        break;
      case "Inspector.detached":
        this.#markGone(`the debugger was detached (${String(p.reason)})`);
        break;
    }
    for (const w of [...this.#watchers]) w();
  }

  /**
   * A request started, answered or ended, in a page session or (with `worker`) a worker's. Keyed by request
   * id alone: an out-of-process frame's document request starts in the parent's session and
   * finishes in the frame's own, and a worker's script request starts in its page's session and
   * finishes in the worker's (ids are unique across sessions).
   */
  #onRequest(method: string, p: Record<string, unknown>, worker: { readonly id: string; readonly info: WorkerInfo } | undefined): void {
    const id = p.requestId as string;
    if (method === "Network.requestWillBeSent") {
      // A frame's document request counts for the frame's parent: it is the frame appearing.
      // A worker's requests have no frame: they count for the frame that started the worker.
      const own = (p.frameId as string | undefined) ?? worker?.info.frameId;
      const frameId = p.type === "Document" ? (this.frames.get(own ?? "")?.parentId ?? own) : own;
      const url = (p.request as { url?: string } | undefined)?.url ?? "";
      this.#inflight.set(id, { started: Date.now(), frameId, host: hostOf(url), document: p.type === "Document", responded: false, stream: false, ...(worker ? { worker: worker.id } : {}) });
      this.#networkActivity(frameId);
      return;
    }
    if (method === "Network.responseReceived") {
      const r = this.#inflight.get(id);
      if (!r) return;
      r.responded = true;
      // An event stream (Server-Sent Events) stays open as long as its page: once it
      // answered, it is the page listening, not a load in flight to wait for.
      if (p.type === "EventSource" || (p.response as { mimeType?: string }).mimeType === "text/event-stream") {
        this.#inflight.delete(id);
        this.#streams.set(id, { ...r, stream: true });
        this.#networkActivity(r.frameId);
      }
      return;
    }
    if (method !== "Network.loadingFinished" && method !== "Network.loadingFailed") return;
    const r = this.#inflight.get(id);
    this.#inflight.delete(id);
    this.#streams.delete(id);
    this.#networkActivity(r?.frameId);
  }

  /**
   * Takes the events of dedicated workers (see workers.ts). A worker attached under one of the
   * page's sessions, or under another worker, gets the network domain (its requests are the
   * page's activity; settle waits for them) and auto-attach for the workers it starts, and is
   * resumed; it is neither a document nor a frame, so nothing else of it matters to the engine.
   * True when the event was a worker's.
   */
  #onWorkerEvent(method: string, p: Record<string, unknown>, sid: string): boolean {
    if (method === "Target.attachedToTarget") {
      const parentWorker = this.#workers.get(sid);
      const info = workerOf(p.targetInfo, sid, parentWorker);
      if (!info || !(parentWorker || this.sessions.has(sid))) return false;
      const id = p.sessionId as string;
      this.#workers.set(id, info);
      const s = (m: string, params: Record<string, unknown>) => this.send(m, params, id).catch(() => undefined);
      void Promise.all([s("Network.enable", networkParams), s("Target.setAutoAttach", workerAutoAttach)]).finally(() => s("Runtime.runIfWaitingForDebugger", {}));
      return true;
    }
    if (method === "Target.detachedFromTarget" && this.#workers.has(p.sessionId as string)) {
      this.#dropWorker(p.sessionId as string);
      return true;
    }
    const info = this.#workers.get(sid);
    if (!info) return false;
    this.#onRequest(method, p, { id: sid, info });
    for (const w of [...this.#watchers]) w();
    return true;
  }

  /** Forgets a worker, the workers it started and their requests (a terminated worker never reports them finished). */
  #dropWorker(id: string): void {
    if (!this.#workers.delete(id)) return;
    for (const [rid, r] of this.#inflight) if (r.worker === id) this.#inflight.delete(rid);
    for (const [rid, r] of this.#streams) if (r.worker === id) this.#streams.delete(rid);
    for (const [child, info] of this.#workers) if (info.parentSession === id) this.#dropWorker(child);
  }

  /** Forgets a detached session and every session nested under it (they die with it). */
  #dropSession(id: string): void {
    const child = this.sessions.get(id);
    if (!child || id === this.rootId) return;
    this.sessions.delete(id);
    for (const [worker, info] of this.#workers) if (info.parentSession === id) this.#dropWorker(worker);
    if (child.frameId) this.#frameGone(child.frameId);
    for (const s of [...this.sessions.values()]) if (s.parentId === id) this.#dropSession(s.id);
  }

  #answerDialog(sessionId: string, p: Record<string, unknown>): void {
    const type = String(p.type);
    const message = String(p.message ?? "");
    const url = String(p.url ?? "");
    let accepted = true;
    try {
      accepted = this.#dialogPolicy({ type, message, url });
    } catch {
      accepted = type !== "prompt";
    }
    // Answer at once: an open dialog blocks the renderer, and every later command would hang.
    void this.transport
      .send(
        "Page.handleJavaScriptDialog",
        { accept: accepted, promptText: String(p.defaultPrompt ?? "") },
        sessionId || undefined,
      )
      .catch(() => undefined);
    this.dialogs.push({ type, message, accepted, url, seq: ++this.#dialogSeq });
    if (this.dialogs.length > 50) this.dialogs.shift();
  }

  #frameGone(frameId: string): void {
    for (const fn of [...this.#frameListeners]) fn(frameId);
    // Its requests end with it; a detached session never reports them finished, and left in
    // flight they would hold every settle on the page until they aged out.
    for (const [id, r] of this.#inflight) if (r.frameId === frameId) this.#inflight.delete(id);
    for (const [id, r] of this.#streams) if (r.frameId === frameId) this.#streams.delete(id);
    // A navigated or detached frame takes its child frames' documents with it.
    for (const f of [...this.frames.values()]) if (f.parentId === frameId) this.#frameGone(f.id);
  }

  /** Drops every descendant of a frame from the registry (their documents went with it). */
  #forgetChildFrames(frameId: string): void {
    for (const f of [...this.frames.values()]) {
      if (f.parentId !== frameId || f.id === frameId) continue;
      this.#forgetChildFrames(f.id);
      this.frames.delete(f.id);
    }
  }

  #markGone(reason: string): void {
    if (this.gone) return;
    this.gone = reason;
    this.structureVersion++;
    this.#gone.catch(() => undefined);
    this.#rejectGone(new TargetGoneError(reason));
    for (const w of [...this.#watchers]) w();
  }
}
