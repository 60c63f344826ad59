/**
 * Dedicated workers under the engine's auto-attach. The page's sessions auto-attach with
 * `waitForDebuggerOnStart`, so an out-of-process iframe runs none of its scripts before the
 * engine has prepared it. Chromium pauses the dedicated workers of such a session at start even
 * when the attach filter leaves them out, and a worker nobody attaches to is never resumed: every
 * Web Worker of the page would hang. So the filter takes dedicated workers in, and the page
 * session enables the network domain on each (a worker's script finishes loading in the worker's
 * own session, and its fetches are the page's activity), auto-attaches under it the same way for
 * the workers it starts, and resumes it. A worker has no document, so it needs none of the
 * documents' preparation (the tracker script, the AX and page domains). Shared workers and service
 * workers are not the page's children and are not paused by its auto-attach.
 */

/** The `Target.setAutoAttach` filter of every page and iframe session: frames and dedicated workers. */
export const autoAttachFilter: readonly Record<string, unknown>[] = [{ type: "iframe" }, { type: "worker" }, { exclude: true }];

/** `Target.setAutoAttach` in a worker's session: the workers it starts wait until they are prepared. */
export const workerAutoAttach = {
  autoAttach: true,
  waitForDebuggerOnStart: true,
  flatten: true,
  filter: [{ type: "worker" }, { exclude: true }],
};

/** A dedicated worker attached under one of the page's sessions or under another worker. */
export interface WorkerInfo {
  /** The session it was attached under: a page, an iframe or a worker. */
  readonly parentSession: string;
  /** The frame that started it (or started the worker that started it), if Chromium says. */
  readonly frameId: string | undefined;
}

/**
 * The worker behind an attached target (`Target.attachedToTarget`'s `targetInfo`) attached under
 * `parentSession` (a worker's, `parentWorker`, when a worker started it); undefined when the
 * target is no dedicated worker.
 */
export function workerOf(targetInfo: unknown, parentSession: string, parentWorker?: WorkerInfo): WorkerInfo | undefined {
  const t = targetInfo as { type?: unknown; parentFrameId?: unknown } | undefined;
  if (t?.type !== "worker") return undefined;
  const frameId = typeof t.parentFrameId === "string" && t.parentFrameId ? t.parentFrameId : parentWorker?.frameId;
  return { parentSession, frameId };
}
