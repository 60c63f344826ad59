/**
 * What a tool handler's context may say about the pixels of a screenshot. The secrets layer
 * sets it on every call when the run has secrets; the engine then paints over, before the
 * image is encoded, every field whose value shows a secret and every run of page text that
 * echoes one, in every frame, and says so through `painted`.
 */
export interface ScreenMask {
  /**
   * Whether a text (a field's value, a run of page text) shows a secret in any form the text
   * masking replaces. The values stay with whoever made the mask: the engine only asks.
   */
  shows(text: string): boolean;
  /**
   * Called once per screenshot, after the capture, when every box found was painted over and
   * the paint was still in place after the capture. A screenshot the engine did not confirm
   * this way is withheld by the secrets layer.
   */
  painted(): void;
}

/** A context that carries a {@link ScreenMask}. */
export interface MaskScope {
  readonly screenMask?: ScreenMask;
}

/** The mask a handler's context carries, if it does (any context type may carry one). */
export function screenMaskOf(ctx: unknown): ScreenMask | undefined {
  const m = (ctx as MaskScope | undefined)?.screenMask;
  return m && typeof m.shows === "function" && typeof m.painted === "function" ? m : undefined;
}
