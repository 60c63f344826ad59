/** Sends one CDP command to the page (the engine's page session, or a flat session on it). */
export type PageSend = <T>(method: string, params?: Record<string, unknown>) => Promise<T>;

/** The visible part of the page, at half size, as a JPEG data URL (undefined when it cannot be taken). */
export async function viewportJpeg(send: PageSend): Promise<string | undefined> {
  try {
    const m = await send<{ cssVisualViewport: { pageX: number; pageY: number; clientWidth: number; clientHeight: number } }>("Page.getLayoutMetrics");
    const v = m.cssVisualViewport;
    const shot = await send<{ data: string }>("Page.captureScreenshot", {
      format: "jpeg",
      quality: 60,
      clip: { x: v.pageX, y: v.pageY, width: v.clientWidth, height: v.clientHeight, scale: 0.5 },
    });
    return `data:image/jpeg;base64,${shot.data}`;
  } catch {
    return undefined;
  }
}
