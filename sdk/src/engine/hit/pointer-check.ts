/**
 * Checks around a click in the top document's isolated hit world, where page scripts cannot
 * see or fake them: after the pointer arrives, whether hover changed what is under it (an icon
 * that swaps its image, row actions that appear); and which elements the press, the release
 * and the click actually reached.
 */
import type { Point } from "../base/coordinates.js";
import { declaration, invocation } from "../base/page-function.js";
import type { PageSession } from "../page/page-session.js";

/** What `afterHover` found once hover effects had two frames to happen. */
export interface HoverCheck {
  /** "ok": a point still lands on the element; "covered": none does; "gone": the element left the page. */
  readonly state: "ok" | "covered" | "gone";
  /** The first point that lands on the element (for "ok"). */
  readonly point: Point | undefined;
  /** What is under the first point now, for messages. */
  readonly under: string;
}

/**
 * Called on the element after the pointer moved onto it: waits two animation frames (capped,
 * a hidden document has none), then hit-tests the points in order with the snapshot's
 * acceptance rule.
 */
function afterHoverInPage(this: Element, pts: number[]): Promise<{ state: "ok" | "covered" | "gone"; index: number; under: string }> {
  const describe = (n: Element | null): string => {
    if (!n) return "nothing";
    const label = n.getAttribute("aria-label") ?? n.getAttribute("title") ?? n.getAttribute("alt");
    const cls = (n.getAttribute("class") ?? "").trim().split(/\s+/)[0];
    return `<${n.localName}${n.id ? `#${n.id}` : cls ? `.${cls}` : ""}${label ? ` "${label.slice(0, 40)}"` : ""}>`;
  };
  return new Promise((resolve) => {
    let done = false;
    const check = (): void => {
      if (done) return;
      done = true;
      const first = document.elementFromPoint(pts[0] ?? 0, pts[1] ?? 0);
      if (!this.isConnected) return resolve({ state: "gone", index: -1, under: describe(first) });
      for (let k = 0; k + 1 < pts.length; k += 2) {
        const hit = document.elementFromPoint(pts[k]!, pts[k + 1]!);
        if (!hit || hit === this || this.contains(hit) || hit.contains(this) || hit.localName === "label") return resolve({ state: "ok", index: k / 2, under: "" });
      }
      resolve({ state: "covered", index: -1, under: describe(first) });
    };
    requestAnimationFrame(() => requestAnimationFrame(check));
    setTimeout(check, 120);
  });
}

/** Lets hover effects happen, then checks `points` (the aimed one first) on the element again. */
export async function afterHover(page: PageSession, objectId: string, points: readonly Point[]): Promise<HoverCheck | undefined> {
  try {
    const r = await page.send<{ result: { value?: { state: HoverCheck["state"]; index: number; under: string } } }>("Runtime.callFunctionOn", {
      objectId,
      functionDeclaration: declaration(afterHoverInPage),
      arguments: [{ value: points.flatMap((p) => [p.x, p.y]) }],
      returnByValue: true,
      awaitPromise: true,
    });
    const v = r.result.value;
    return v ? { state: v.state, point: v.index >= 0 ? points[v.index] : undefined, under: v.under } : undefined;
  } catch {
    return undefined;
  }
}

/** In the page: resolves after two animation frames, or after 120 ms (a hidden document renders none). */
function framesInPage(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    setTimeout(resolve, 120);
  });
}

/** Waits, in the top document, for two animation frames (capped): a hover or a pointer move has taken effect. */
export async function afterFrames(page: PageSession): Promise<void> {
  await page.send("Runtime.evaluate", { expression: invocation(framesInPage), awaitPromise: true, returnByValue: true }).catch(() => undefined);
}

/** What the press, the release and the click reached, as `readClickTargets` reports it. */
export interface ClickTargets {
  /** The click event's target was the element or inside it. */
  readonly clicked: boolean;
  /** Descriptions of the elements that got mousedown, mouseup and click ("" for none). */
  readonly down: string;
  readonly up: string;
  readonly click: string;
}

interface Recorder {
  target: Element;
  got: Record<string, Element | null>;
  stop: () => void;
}

/** Called on the element: records where the next mousedown, mouseup and click land (capture, on the window). */
function armInPage(this: Element): void {
  const host = globalThis as { __batonClicks?: Recorder };
  host.__batonClicks?.stop();
  const got: Record<string, Element | null> = { mousedown: null, mouseup: null, click: null };
  const record = (e: Event): void => {
    const t = e.composedPath()[0];
    if (got[e.type] === null && t && (t as Node).nodeType === 1) got[e.type] = t as Element;
  };
  const types = ["mousedown", "mouseup", "click"];
  for (const t of types) addEventListener(t, record, { capture: true });
  host.__batonClicks = { target: this, got, stop: () => { for (const t of types) removeEventListener(t, record, { capture: true }); } };
}

/** Reads and removes the recorder `armInPage` set up (runs in the page). */
function readInPage(): { clicked: boolean; down: string; up: string; click: string } | null {
  const host = globalThis as { __batonClicks?: Recorder };
  const rec = host.__batonClicks;
  if (!rec) return null;
  rec.stop();
  delete host.__batonClicks;
  const describe = (n: Element | null | undefined): string => {
    if (!n) return "";
    const label = n.getAttribute("aria-label") ?? n.getAttribute("title") ?? n.getAttribute("alt");
    const cls = (n.getAttribute("class") ?? "").trim().split(/\s+/)[0];
    const text = label ?? (n.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 30);
    return `<${n.localName}${n.id ? `#${n.id}` : cls ? `.${cls}` : ""}>${text ? ` "${text}"` : ""}`;
  };
  const c = rec.got.click ?? null;
  return { clicked: !!c && (c === rec.target || rec.target.contains(c)), down: describe(rec.got.mousedown), up: describe(rec.got.mouseup), click: describe(c) };
}

/** Starts recording which elements the next press, release and click reach. */
export async function armClickRecorder(page: PageSession, objectId: string): Promise<boolean> {
  try {
    await page.send("Runtime.callFunctionOn", { objectId, functionDeclaration: declaration(armInPage), returnByValue: true });
    return true;
  } catch {
    return false;
  }
}

/** What the recorder saw (and stops it); undefined when it could not be read. */
export async function readClickTargets(page: PageSession, objectId: string): Promise<ClickTargets | undefined> {
  try {
    const r = await page.send<{ result: { value?: ClickTargets | null } }>("Runtime.callFunctionOn", {
      objectId,
      functionDeclaration: declaration(readInPage),
      returnByValue: true,
    });
    return r.result.value ?? undefined;
  } catch {
    return undefined;
  }
}
