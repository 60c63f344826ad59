import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ImageSchema } from "@baton/gen/baton/v1/tools_pb";
import { clampPoint, type Rect } from "../base/coordinates.js";
import { invocation } from "../base/page-function.js";
import type { PageSession } from "../page/page-session.js";
import { type ScreenMask, ToolErrorCode, ToolFailure } from "../../contract/index.js";
import { paintedOver, paintedOverBoxes } from "../mask/paint.js";
import { refusedFrameBoxes } from "../mask/refused-frames.js";
import { drawLabels, removeLabels } from "../in-page/labels.js";

type ImageInit = MessageInitShape<typeof ImageSchema>;

/** A label to draw: the ref's number at its element's box (top-level viewport coordinates). */
export interface Label {
  readonly ref: string;
  readonly box: Rect;
}

/** Decodes base64 without Node's Buffer, so the engine stays runtime-neutral. */
function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Reads a JPEG's pixel size from its SOF marker. */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return { width: 0, height: 0 };
    const marker = bytes[i + 1]!;
    const len = (bytes[i + 2]! << 8) | bytes[i + 3]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (bytes[i + 5]! << 8) | bytes[i + 6]!, width: (bytes[i + 7]! << 8) | bytes[i + 8]! };
    }
    i += 2 + len;
  }
  return { width: 0, height: 0 };
}

/** Options of a capture. */
export interface CaptureOptions {
  quality?: number;
  /** Page-coordinate clip (document CSS pixels). */
  clip?: Rect;
  fullPage?: boolean;
  /** "png" for a lossless image (test artefacts, docs); JPEG by default. */
  format?: "jpeg" | "png";
  /** Secrets to paint over before the image is encoded (see `paintedOver`); told when it held. */
  mask?: ScreenMask;
  /**
   * Frames whose site may not be read (`PageState.unreadable`): painted over too, and when that
   * cannot be confirmed the capture fails with PERMISSION_DENIED rather than show them.
   */
  unreadable?: (url: string) => boolean;
}

/** Reads a PNG's pixel size from its IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const at = (i: number): number => ((bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!) >>> 0;
  return bytes.length > 24 ? { width: at(16), height: at(20) } : { width: 0, height: 0 };
}

/** Captures a JPEG of the viewport (or a clip, or the full page). */
export async function captureJpeg(page: PageSession, options: CaptureOptions = {}): Promise<ImageInit> {
  const png = options.format === "png";
  const params: Record<string, unknown> = png ? { format: "png" } : { format: "jpeg", quality: options.quality ?? 70 };
  if (options.clip) params.clip = { ...options.clip, scale: 1 };
  if (options.fullPage) params.captureBeyondViewport = true;
  if (options.fullPage && !options.clip) {
    const m = await page.send<{ cssContentSize: { width: number; height: number } }>("Page.getLayoutMetrics");
    params.clip = { x: 0, y: 0, width: m.cssContentSize.width, height: Math.min(m.cssContentSize.height, 16_384), scale: 1 };
  }
  const place = options.fullPage ? "document" : "viewport";
  const raw = () => page.send<{ data: string }>("Page.captureScreenshot", params, page.rootId, 30_000);
  // Every screenshot the engine hands out is encoded here, so this is where secrets are painted over.
  const mask = options.mask;
  const shoot = mask
    ? async () => {
        const shot = await paintedOver(page, mask, place, raw);
        if (shot.painted) mask.painted();
        return shot.image;
      }
    : raw;
  let data: string;
  const unreadable = options.unreadable;
  if (unreadable) {
    const shot = await paintedOverBoxes(page, () => refusedFrameBoxes(page, unreadable, place), place, shoot);
    if (!shot.painted) {
      throw new ToolFailure(ToolErrorCode.PERMISSION_DENIED, "The screenshot was withheld: a frame of a site the policy refuses could not be covered. take_snapshot reads the rest of the page.");
    }
    data = shot.image.data;
  } else {
    data = (await shoot()).data;
  }
  const bytes = fromBase64(data);
  return png ? { mimeType: "image/png", data: bytes, ...pngSize(bytes) } : { mimeType: "image/jpeg", data: bytes, ...jpegSize(bytes) };
}

/**
 * A viewport screenshot with each ref's number drawn at its element. The labels are a
 * pointer-transparent overlay in a closed shadow root, removed right after the capture; if
 * drawing fails for any reason the plain screenshot is returned instead.
 */
export async function captureLabelledScreenshot(page: PageSession, labels: readonly Label[], options: Omit<CaptureOptions, "clip" | "fullPage"> = {}): Promise<ImageInit> {
  const id = `baton-labels-${Math.random().toString(36).slice(2)}`;
  try {
    const m = await page.send<{ cssVisualViewport: { clientWidth: number; clientHeight: number } }>("Page.getLayoutMetrics");
    const view: Rect = { x: 0, y: 0, width: m.cssVisualViewport.clientWidth, height: m.cssVisualViewport.clientHeight };
    const items = labels.map((l) => {
      const p = clampPoint({ x: l.box.x, y: l.box.y }, view, 0);
      return { n: l.ref.replace(/^e/, ""), x: Math.min(p.x, view.width - 24), y: Math.min(p.y, view.height - 14), box: l.box };
    });
    const expression = invocation(drawLabels, id, items);
    await page.send("Runtime.evaluate", { expression, awaitPromise: true }, page.rootId, 3000);
  } catch {
    // Labelling is best effort: the plain screenshot below still goes out.
  }
  try {
    return await captureJpeg(page, options);
  } finally {
    // Removed even when drawing reported failure: a half-drawn overlay must not stay behind.
    await page
      .send("Runtime.evaluate", { expression: invocation(removeLabels, id) })
      .catch(() => undefined);
  }
}
