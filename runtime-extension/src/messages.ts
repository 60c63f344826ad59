/**
 * The messages that cross the extension's contexts (panel, service worker, content script,
 * offscreen document), as one discriminated union per receiver. Every sender and receiver
 * imports these types, so a message's shape is written once.
 */

/** A box in the tab's viewport, in CSS pixels. */
export interface ViewportBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * What the mask over an agent's tab does:
 * - `off`: no mask;
 * - `watching`: the agent is thinking; the mask is shown and takes the user's clicks and keys,
 *   so the page does not change under the agent;
 * - `acting`: the agent's own input events are being sent; the mask is still drawn but lets
 *   events through (pointer-events: none), so the engine's hit tests and clicks reach the page.
 */
export type MaskState = "off" | "watching" | "acting";

/** Messages to the content script of an agent's tab. */
export type ContentMessage =
  | { readonly to: "content"; readonly kind: "mask"; readonly state: MaskState }
  | { readonly to: "content"; readonly kind: "highlight"; readonly box: ViewportBox; readonly label: string };

/** Messages to the service worker. */
export type WorkerMessage = { readonly to: "worker"; readonly kind: "ping" } | { readonly to: "worker"; readonly kind: "release" };

/** The name of the port a panel holds open to the service worker while a run is in progress. */
export const keepalivePort = "baton-keepalive";

/** Whether a runtime message is one of ours for the content script. */
export function isContentMessage(m: unknown): m is ContentMessage {
  return typeof m === "object" && m !== null && (m as { to?: unknown }).to === "content";
}

/** Whether a runtime message is one of ours for the service worker. */
export function isWorkerMessage(m: unknown): m is WorkerMessage {
  return typeof m === "object" && m !== null && (m as { to?: unknown }).to === "worker";
}
