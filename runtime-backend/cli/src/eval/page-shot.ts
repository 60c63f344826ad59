/** Sends one CDP command to the page (the engine's page session, or a flat session on it). */
export type PageSend = <T>(method: string, params?: Record<string, unknown>) => Promise<T>;

/**
 * Runs a capture with the page's secrets painted over, resolving to undefined when the paint
 * could not be confirmed (the engine's `paintedOver` with the run's screen mask).
 */
export type MaskedCapture = <T>(capture: () => Promise<T>) => Promise<T | undefined>;

/**
 * The visible part of the page, at half size, as a JPEG data URL (undefined when it cannot be
 * taken). With `masked`, the capture runs under it: a run with secrets keeps no screenshot whose
 * secrets were not painted over.
 */
export async function viewportJpeg(send: PageSend, masked?: MaskedCapture): Promise<string | undefined> {
  try {
    const m = await send<{ cssVisualViewport: { pageX: number; pageY: number; clientWidth: number; clientHeight: number } }>("Page.getLayoutMetrics");
    const v = m.cssVisualViewport;
    const capture = () =>
      send<{ data: string }>("Page.captureScreenshot", {
        format: "jpeg",
        quality: 60,
        clip: { x: v.pageX, y: v.pageY, width: v.clientWidth, height: v.clientHeight, scale: 0.5 },
      });
    const shot = masked ? await masked(capture) : await capture();
    return shot ? `data:image/jpeg;base64,${shot.data}` : undefined;
  } catch {
    return undefined;
  }
}
