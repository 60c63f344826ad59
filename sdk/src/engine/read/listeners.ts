import { declaration, type PageFunction } from "../base/page-function.js";
import type { PageSession } from "../page/page-session.js";
import { ownerDocument, ownerWindow } from "../in-page/listeners.js";

/**
 * Listener types that make an element something to click. DOMSnapshot's own click flag covers
 * click, mousedown and mouseup only; pointer and touch handlers (drag handles, calendar
 * blocks, many UI libraries) need the listeners themselves.
 */
const clickTypes: ReadonlySet<string> = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "dblclick"]);

interface DocumentObject {
  readonly loaderId: string;
  readonly objectId: Promise<string | undefined>;
  /** Set once `objectId` resolved, so a later read can send at once. */
  resolved?: string;
}

/** The `document` object of each session's current document, kept per loader. */
const documents = new WeakMap<PageSession, Map<string, DocumentObject>>();

function documentObject(page: PageSession, sessionId: string, loaderId: string): DocumentObject {
  let bySession = documents.get(page);
  if (!bySession) documents.set(page, (bySession = new Map()));
  const known = bySession.get(sessionId);
  if (known && known.loaderId === loaderId) return known;
  // No object group: `getEventListeners` wraps each listener's handler (twice, with its source
  // text) only for an object that has one. With one, /apps/mail's reply was 25 KB instead of
  // 6.5 KB, and every snapshot left ~100 more wrapped functions alive in the group.
  const entry: DocumentObject = {
    loaderId,
    objectId: page
      .send<{ result: { objectId?: string } }>("Runtime.evaluate", { expression: "document" }, sessionId)
      .then((r) => (entry.resolved = r.result.objectId))
      .catch(() => undefined),
  };
  bySession.set(sessionId, entry);
  return entry;
}

/** One `DOMDebugger.getEventListeners` over a document's whole tree, reduced to the click-type listeners' nodes. */
function request(page: PageSession, sessionId: string, objectId: string): Promise<Set<number>> {
  return page
    .send<{ listeners: { type: string; backendNodeId?: number }[] }>("DOMDebugger.getEventListeners", { objectId, depth: -1, pierce: true }, sessionId)
    .then(({ listeners }) => {
      const out = new Set<number>();
      for (const l of listeners) if (l.backendNodeId !== undefined && clickTypes.has(l.type)) out.add(l.backendNodeId);
      return out;
    });
}

/**
 * The backend ids of the elements of a session's documents (same-process frames and open
 * shadow roots included) that have their own click-type listener: one
 * `DOMDebugger.getEventListeners` over the whole tree, about 1–2 ms, sent beside the
 * DOMSnapshot (at once, before the AX reads, when the document is known). Undefined when it
 * could not be read (the caller falls back to DOMSnapshot's click flag).
 */
export function clickListeners(page: PageSession, sessionId: string, loaderId: string): Promise<Set<number> | undefined> {
  const doc = documentObject(page, sessionId, loaderId);
  const first = doc.resolved ? request(page, sessionId, doc.resolved) : doc.objectId.then((id) => (id ? request(page, sessionId, id) : undefined));
  return first.catch(async () => {
    // The object died with its context (a same-loader reload, document.open): ask again once.
    documents.get(page)?.delete(sessionId);
    const id = await documentObject(page, sessionId, loaderId).objectId;
    return id ? request(page, sessionId, id).catch(() => undefined) : undefined;
  });
}

/** Listener types through which a page sees key presses as keys rather than as text input. */
const keyTypes: ReadonlySet<string> = new Set(["keydown", "keypress", "keyup"]);

/**
 * Whether anything in an element's document — any node, with same-process frames and open
 * shadow roots — or its window has a key listener (keydown, keypress, keyup): the only places
 * a key event typed into the element can be heard. The document and window are asked for at
 * once, their listeners once `after` has settled (an action that may add listeners, such as
 * the click that focuses the element): two waves of round trips, the first beside `after`.
 * The objects are asked for outside any object group (see `documentObject`) and released
 * after. Undefined when it could not be read.
 */
export async function keysListened(
  page: PageSession,
  sessionId: string | undefined,
  elementId: string,
  after: Promise<unknown> = Promise.resolve(),
): Promise<boolean | undefined> {
  const objectOf = (fn: PageFunction) =>
    page
      .send<{ result: { objectId?: string } }>("Runtime.callFunctionOn", { objectId: elementId, functionDeclaration: declaration(fn), objectGroup: "" }, sessionId)
      .then((r) => r.result.objectId);
  const listened = (objectId: string, depth: number) =>
    page
      .send<{ listeners: { type: string }[] }>("DOMDebugger.getEventListeners", { objectId, depth, pierce: depth !== 0 }, sessionId)
      .then(({ listeners }) => listeners.some((l) => keyTypes.has(l.type)));
  const [doc, win] = await Promise.all([objectOf(ownerDocument), objectOf(ownerWindow)]).catch(() => [undefined, undefined]);
  await after.catch(() => undefined);
  try {
    if (!doc || !win) return undefined;
    const [inTree, onWindow] = await Promise.all([listened(doc, -1), listened(win, 0)]);
    return inTree || onWindow;
  } catch {
    return undefined;
  } finally {
    for (const objectId of [doc, win]) if (objectId) void page.send("Runtime.releaseObject", { objectId }, sessionId).catch(() => undefined);
  }
}
