/**
 * Runs `fn` on a later turn of the event loop, after pending I/O: Node's `setImmediate`, or a
 * zero timeout where there is none (a browser page). Not a microtask: work that arrives in the
 * same I/O turn (requests parsed together) is still queued when `fn` runs.
 */
export const nextTurn: (fn: () => void) => void =
  typeof globalThis.setImmediate === "function" ? (fn) => void globalThis.setImmediate(fn) : (fn) => void setTimeout(fn, 0);
