import { type Secret, secretsScreenMask } from "@baton/sdk/client";
import { type PageSession, paintedOver } from "@baton/sdk/engine";

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

/**
 * The capture of a run with secrets: painted over like every screenshot of the run (the
 * secrets' values, and the codes a one-time-code secret may have typed) on `page`, the final
 * page's session; undefined when the run has none. Both vias' reports go through it.
 */
export function secretsPainted(page: PageSession, secrets: readonly Secret[] | undefined): MaskedCapture | undefined {
  if (!secrets?.length) return undefined;
  return async (capture) => {
    const shot = await paintedOver(page, secretsScreenMask(secrets), "viewport", capture);
    return shot.painted ? shot.image : undefined;
  };
}
