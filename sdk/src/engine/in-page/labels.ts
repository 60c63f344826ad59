/**
 * Page functions that draw the ref labels on a screenshot (`snapshot/screenshot.ts`): the engine sends
 * each by its source (`base/page-function.ts`), so each uses nothing from outside its body.
 */

/** One label as `drawLabels` takes it: the ref's number, where to print it, and the box to frame. */
export interface LabelItem {
  readonly n: string;
  readonly x: number;
  readonly y: number;
  readonly box: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
}

/**
 * Draws the labels as a pointer-transparent overlay in a closed shadow root under `id`, and
 * resolves after two frames, once they are painted (runs in the page).
 */
export function drawLabels(id: string, items: readonly LabelItem[]): Promise<boolean> {
  const host = document.createElement("div");
  host.id = id;
  host.style.cssText = "position:fixed;inset:0;z-index:2147483647;pointer-events:none;contain:strict";
  const root = host.attachShadow({ mode: "closed" });
  for (const it of items) {
    const b = document.createElement("div");
    b.style.cssText = `position:fixed;border:2px solid #e5006e;box-sizing:border-box;left:${it.box.x}px;top:${it.box.y}px;width:${it.box.width}px;height:${it.box.height}px`;
    const t = document.createElement("div");
    t.textContent = it.n;
    t.style.cssText = `position:fixed;font:bold 11px/13px sans-serif;color:#fff;background:#e5006e;padding:0 3px;border-radius:3px;left:${it.x}px;top:${it.y}px`;
    root.append(b, t);
  }
  document.documentElement.append(host);
  return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));
}

/** Removes the overlay `drawLabels` made (runs in the page). */
export function removeLabels(id: string): void {
  document.getElementById(id)?.remove();
}
