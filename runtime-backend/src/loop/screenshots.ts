import { clone } from "@bufbuild/protobuf";
import { type StepRequest } from "@baton/gen/baton/v1/agent_pb";
import type { Image } from "@baton/gen/baton/v1/tools_pb";
import { StepRequestSchema } from "@baton/gen/baton/v1/descriptors";
import type { ModelImage } from "../providers/types.js";
import type { CallRow } from "../store/records.js";
import type { StoredScreenshot } from "../store/screenshots.js";
import type { SessionStore } from "../store/session-store.js";

/** Image types a model can read; anything else is kept out of the store and the prompt. */
const imageTypes = new Set(["image/jpeg", "image/png", "image/webp"]);

/** The largest screenshot stored (a full-page PNG of a long page; a viewport JPEG is ~100 KB). */
export const maxScreenshotBytes = 8 * 1024 * 1024;

/** The prefix of an image url that names a stored screenshot. */
export const screenshotScheme = "screenshot:";

/** Finds every Image message in a message tree (a tool result, an error's fresh snapshot). */
function* images(value: unknown): Generator<Image> {
  if (Array.isArray(value)) {
    for (const v of value) yield* images(v);
  } else if (value && typeof value === "object" && !ArrayBuffer.isView(value)) {
    if ((value as { $typeName?: string }).$typeName === "baton.v1.Image") yield value as Image;
    else for (const v of Object.values(value)) if (v && typeof v === "object" && !ArrayBuffer.isView(v)) yield* images(v);
  }
}

/** An input with its screenshots taken out, and the screenshots to store. */
export interface TakenScreenshots {
  readonly request: StepRequest;
  readonly shots: StoredScreenshot[];
}

/**
 * Takes the screenshots out of a step's tool results: each image with data becomes a stored
 * screenshot (id `shot_<toolcall id>_<n>`, so a retried input names the same ones), and the
 * result keeps only `url: "screenshot:<id>"`, its type and size — so the history, the stored
 * call output and every later prompt carry a reference, never the bytes. An image of another
 * type or over {@link maxScreenshotBytes} loses its data and is not stored.
 */
export function takeScreenshots(req: StepRequest): TakenScreenshots {
  if (req.input.case !== "toolResults") return { request: req, shots: [] };
  let request = req;
  const shots: StoredScreenshot[] = [];
  const has = req.input.value.results.some((r) => [...images(r.outcome)].some((i) => i.data.length > 0));
  if (!has) return { request, shots };
  request = clone(StepRequestSchema, req);
  if (request.input.case !== "toolResults") return { request, shots };
  for (const r of request.input.value.results) {
    let n = 0;
    for (const img of images(r.outcome)) {
      if (img.data.length === 0) continue;
      const ok = imageTypes.has(img.mimeType) && img.data.length <= maxScreenshotBytes;
      if (ok) {
        const id = `shot_${r.toolcallId.replace(/[^\w-]/g, "_").slice(0, 80)}_${n++}`;
        shots.push({ id, toolcallId: r.toolcallId, mimeType: img.mimeType, width: img.width, height: img.height, data: img.data });
        img.url = `${screenshotScheme}${id}`;
      }
      img.data = new Uint8Array();
    }
  }
  return { request, shots };
}

const refRe = /"url":"screenshot:([\w-]+)"/g;

/** The screenshot ids a stored tool output refers to, in order. */
export function screenshotIds(output: string): string[] {
  return [...output.matchAll(refRe)].map((m) => m[1] as string);
}

/**
 * Screenshots just stored, by session and id: the model turn that follows reads them from here
 * instead of the store. Small: only the latest step's are ever needed.
 */
const recent = new Map<string, StoredScreenshot>();

/** Remembers screenshots just stored for the next prompt. */
export function rememberScreenshots(sessionId: string, shots: readonly StoredScreenshot[]): void {
  for (const s of shots) {
    recent.delete(`${sessionId}/${s.id}`);
    recent.set(`${sessionId}/${s.id}`, s);
  }
  while (recent.size > 16) recent.delete(recent.keys().next().value as string);
}

/**
 * The screenshots the latest interaction's results refer to, by toolcall id, for the prompt:
 * from those just stored, else from the store (a step resumed after a restart).
 */
export async function promptImages(store: SessionStore, sessionId: string, calls: readonly CallRow[]): Promise<Map<string, ModelImage[]>> {
  const wanted = calls.flatMap((c) => (c.output ? screenshotIds(c.output).map((id) => ({ call: c.toolcallId, id })) : []));
  const out = new Map<string, ModelImage[]>();
  if (wanted.length === 0) return out;
  const missing = wanted.filter((w) => !recent.has(`${sessionId}/${w.id}`)).map((w) => w.id);
  const read = new Map((await store.screenshots(sessionId, missing)).map((s) => [s.id, s]));
  for (const w of wanted) {
    const s = recent.get(`${sessionId}/${w.id}`) ?? read.get(w.id);
    if (!s) continue;
    const list = out.get(w.call) ?? [];
    list.push({ id: s.id, mimeType: s.mimeType, data: s.data, width: s.width, height: s.height });
    out.set(w.call, list);
  }
  return out;
}
