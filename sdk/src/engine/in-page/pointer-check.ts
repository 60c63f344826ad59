/**
 * Page functions of the pointer check (`hit/pointer-check.ts`): the engine sends each by its source
 * (`base/page-function.ts`), so each uses nothing from outside its body.
 */

/**
 * Called on the element after the pointer moved onto it: waits two animation frames (capped,
 * a hidden document has none), then hit-tests the points in order with the snapshot's
 * acceptance rule.
 */
export function afterHoverInPage(this: Element, pts: number[]): Promise<{ state: "ok" | "covered" | "gone"; index: number; under: string }> {
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

/** In the page: resolves after two animation frames, or after 120 ms (a hidden document renders none). */
export function framesInPage(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    setTimeout(resolve, 120);
  });
}

/** Called on the element: records where the next mousedown, mouseup and click land (capture, on the window). */
export function armInPage(this: Element): void {
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
export function readInPage(): { clicked: boolean; down: string; up: string; click: string } | null {
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

/** What `armInPage` keeps on the element while it records a click. */
export interface Recorder {
  target: Element;
  got: Record<string, Element | null>;
  stop: () => void;
}
