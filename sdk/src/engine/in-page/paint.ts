/**
 * Page functions that paint over secrets before a screenshot (`mask/paint.ts`) and measure the paint
 * in an image (`mask/paint-share.ts`): the engine sends each by its source (`base/page-function.ts`),
 * so each uses nothing from outside its body.
 */

/**
 * Draws opaque boxes as an overlay in a closed shadow root under `id`, in the top layer (a
 * manual popover, above the page's own modal dialogs and popovers): at viewport coordinates, or
 * at document coordinates for a full-page shot. Resolves once painted (runs in the page).
 */
export function paintBoxes(id: string, boxes: readonly (readonly [number, number, number, number])[], fixed: boolean, colour: string): Promise<boolean> {
  const host = document.createElement("div");
  host.id = id;
  const at = fixed ? "position:fixed;inset:0;width:auto;height:auto" : "position:absolute;left:0;top:0;width:0;height:0";
  host.style.cssText = `${at};margin:0;padding:0;border:0;background:transparent;overflow:visible;pointer-events:none;z-index:2147483647;display:block;opacity:1;visibility:visible;transform:none`;
  const root = host.attachShadow({ mode: "closed" });
  for (const [x, y, w, h] of boxes) {
    const b = document.createElement("div");
    b.style.cssText = `position:absolute;left:${x}px;top:${y}px;width:${w}px;height:${h}px;background:${colour}`;
    root.append(b);
  }
  document.documentElement.append(host);
  // In the top layer (a manual popover shown last is above the page's own), which an absolute
  // box places in document coordinates and a fixed one in the viewport's.
  host.setAttribute("popover", "manual");
  try {
    host.showPopover();
  } catch {
    // Without the top layer the overlay still sits on top of everything but the page's own top layer.
  }
  const held = globalThis as unknown as { batonMasks?: Map<string, { host: HTMLElement; root: ShadowRoot; n: number }> };
  (held.batonMasks ??= new Map()).set(id, { host, root, n: boxes.length });
  // Two frames, so the overlay is painted before the capture; a hidden tab paints no frames,
  // and its capture forces one.
  return new Promise((r) => {
    const done = () => r(true);
    setTimeout(done, 250);
    requestAnimationFrame(() => requestAnimationFrame(done));
  });
}

/** Whether the overlay `id` is still whole and shown (runs in the page). */
export function paintHeld(id: string): boolean {
  const held = globalThis as unknown as { batonMasks?: Map<string, { host: HTMLElement; root: ShadowRoot; n: number }> };
  const m = held.batonMasks?.get(id);
  if (!m || !m.host.isConnected || m.root.childElementCount !== m.n) return false;
  const style = getComputedStyle(m.host);
  return style.display !== "none" && style.visibility === "visible" && style.opacity === "1";
}

/** Removes the overlay `id` (runs in the page). */
export function removePaint(id: string): void {
  const held = globalThis as unknown as { batonMasks?: Map<string, { host: HTMLElement }> };
  held.batonMasks?.get(id)?.host.remove();
  held.batonMasks?.delete(id);
}

/** A box in an image's CSS pixels (the top-level viewport at the time of the capture). */
export interface ShareBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * For each box, the share (0–1) of the image's pixels inside it (a 2-pixel margin left out, for
 * the edges JPEG blurs) that are the colour `rgb` within `tolerance` per channel; `scale` is
 * image pixels per CSS pixel. Decodes the image with the browser's own decoder, so it runs in
 * any page (runs in the page; a check of screenshots, by the tests and `baton eval`).
 */
export async function paintShare(
  src: string,
  boxes: readonly ShareBox[],
  rgb: readonly [number, number, number],
  tolerance: number,
  scale: number,
): Promise<number[]> {
  const img = new Image();
  img.src = src;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const g = canvas.getContext("2d", { willReadFrequently: true });
  if (!g) return boxes.map(() => 0);
  g.drawImage(img, 0, 0);
  return boxes.map((b) => {
    const x0 = Math.max(0, Math.ceil((b.x + 2) * scale));
    const y0 = Math.max(0, Math.ceil((b.y + 2) * scale));
    const x1 = Math.min(canvas.width, Math.floor((b.x + b.width - 2) * scale));
    const y1 = Math.min(canvas.height, Math.floor((b.y + b.height - 2) * scale));
    if (x1 <= x0 || y1 <= y0) return 0;
    const d = g.getImageData(x0, y0, x1 - x0, y1 - y0).data;
    let hits = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i]! - rgb[0]) <= tolerance && Math.abs(d[i + 1]! - rgb[1]) <= tolerance && Math.abs(d[i + 2]! - rgb[2]) <= tolerance) hits++;
    }
    return hits / (d.length / 4);
  });
}
