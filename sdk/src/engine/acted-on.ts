import type { Message } from "@bufbuild/protobuf";
import type { ToolRisk, ToolRoute } from "../contract/index.js";
import { decideFrame } from "../policy/site-policy.js";
import { openUrlPolicy } from "../policy/url-policy.js";
import type { Evidence } from "./evidence.js";
import { type FrameInfo, frameUrls, type PageSession } from "./page/page-session.js";
import type { PageState } from "./page-state.js";

/** Tools that, named no element, act on the one the keyboard focus is on. */
const atFocus = new Set(["press_keys"]);

/** Where a call acts, for the site policy: the page's top document and the frames inside it. */
export interface ActedOn {
  /** The top document's URL (`decideAction`'s question). */
  readonly page: string | undefined;
  /** Every URL of the frames the call acts in ("" for one not known yet; `decideFrame`'s question). */
  readonly frames: readonly string[];
}

/**
 * Where a call acts: the page's top document; the frames of the elements it names (a read-only
 * or refused site may be embedded in a page that is not); and, for a call that names none, the
 * frames it lands in — the keyboard focus's for keys, the one under the point for a click at
 * x, y. Those are looked up only when a frame of the page would refuse the call, and when the
 * lookup fails every such frame counts.
 */
export async function actedOn(state: PageState, evidence: Evidence, tool: ToolRoute, params: Message, risk: ToolRisk | undefined): Promise<ActedOn> {
  const page = state.page;
  const main = page.mainFrame();
  const at = (frames: readonly string[]): ActedOn => ({ page: main?.url, frames });
  const p = params as { x?: unknown; y?: unknown };
  // Every element the call names: `ref`, and a drag's `fromRef` and `toRef`.
  const named = Object.entries(params).flatMap(([k, v]) => ((k === "ref" || k.endsWith("Ref")) && typeof v === "string" && v !== "" ? [state.refs.get(v)] : []));
  const entries = named.filter((e) => e !== undefined);
  // A ref whose frame is gone acts nowhere: the handler finds it stale and says so.
  if (entries.length > 0) return at(entries.flatMap((e) => urlsOf(page, page.frames.get(e.frameId)) ?? []));
  const point = typeof p.x === "number" && typeof p.y === "number" ? { x: p.x, y: p.y } : undefined;
  if (!point && !atFocus.has(tool.name)) return at([]);
  const policy = state.options.urlPolicy ?? openUrlPolicy;
  const refusing = [...page.frames.values()].filter((f) => f !== main && frameUrls(f).some((u) => !decideFrame(policy, u, risk).allow));
  if (refusing.length === 0) return at([]);
  try {
    return at(point ? await framesAt(page, point) : await evidence.focusFrameUrls());
  } catch {
    return at(refusing.flatMap(frameUrls));
  }
}

/**
 * Every URL a frame is known by; undefined for no frame. The top document's address is asked
 * about as the page's, so an unknown one ("") is not counted again here.
 */
function urlsOf(page: PageSession, f: FrameInfo | undefined): string[] | undefined {
  if (!f) return undefined;
  return f === page.mainFrame() ? frameUrls(f).filter((u) => u !== "") : frameUrls(f);
}

/**
 * The URLs of the frames a click at `point` (top viewport coordinates) may land in: the frame
 * of the element hit in this process, and when that element holds a frame of its own (an
 * out-of-process one, whose content the hit test does not enter), that frame and every frame
 * inside it.
 */
async function framesAt(page: PageSession, point: { x: number; y: number }): Promise<string[]> {
  const hit = await page.send<{ backendNodeId: number; frameId: string }>(
    "DOM.getNodeForLocation",
    { x: Math.round(point.x), y: Math.round(point.y), includeUserAgentShadowDOM: false, ignorePointerEventsNone: true },
    page.rootId,
  );
  // A hit in a frame not known yet counts as an unknown frame ("").
  const urls = urlsOf(page, page.frames.get(hit.frameId)) ?? [""];
  const { node } = await page.send<{ node: { frameId?: string } }>("DOM.describeNode", { backendNodeId: hit.backendNodeId }, page.rootId);
  if (node.frameId === undefined || node.frameId === hit.frameId) return urls;
  const inside = (f: FrameInfo): boolean => {
    for (let id: string | undefined = f.id; id !== undefined; id = page.frames.get(id)?.parentId) if (id === node.frameId) return true;
    return false;
  };
  return [...urls, ...[...page.frames.values()].filter(inside).flatMap(frameUrls)];
}
