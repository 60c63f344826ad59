/**
 * Page functions that read and set a control's value (see `actions/set-value.ts`): the engine
 * sends them to the page by their source (`base/page-function.ts`) and the DOM agent imports
 * them, so each uses nothing from outside its body.
 */

/** What kind of element holds the value (runs in the page, on the element). */
export type ValueTarget =
  | { kind: "input"; type: string; disabled: boolean; readOnly: boolean }
  | { kind: "aria"; now: number | null; min: number; max: number }
  | { kind: "track" }
  | { kind: "other" };

/** Finds what kind of value-holding element `this` is: a native input, an ARIA slider, a slider's track. */
export function valueTargetInPage(this: Element): ValueTarget {
  if (this.localName === "input") {
    const input = this as HTMLInputElement;
    return { kind: "input", type: input.type, disabled: input.disabled, readOnly: input.readOnly };
  }
  const slider = this.getAttribute("role") === "slider" ? this : this.querySelector('[role="slider"]');
  if (slider?.hasAttribute("aria-valuenow")) {
    const num = (name: string, fallback: number): number => {
      const v = Number(slider.getAttribute(name));
      return slider.hasAttribute(name) && Number.isFinite(v) ? v : fallback;
    };
    return { kind: "aria", now: num("aria-valuenow", Number.NaN), min: num("aria-valuemin", 0), max: num("aria-valuemax", 100) };
  }
  const r = this.getBoundingClientRect();
  const handle = r.width >= 3 * r.height && r.height <= 40 ? sliderHandleOf(this) : null;
  return handle ? { kind: "track" } : { kind: "other" };

  function sliderHandleOf(track: Element): Element | null {
    for (const h of [...track.querySelectorAll("[tabindex]")].slice(0, 30)) {
      const b = h.getBoundingClientRect();
      if ((h as HTMLElement).tabIndex >= 0 && b.width > 0 && b.width <= 40 && b.height <= 40) return h;
    }
    return null;
  }
}

/**
 * Sets a native input's value as the user's browser would record it (the native setter, then
 * input and change events), and reads it back. A colour given by CSS name is resolved by the
 * page's own canvas; a range given as a percentage is placed within its min and max.
 */
export function setInputInPage(this: HTMLInputElement, value: string, percent: number | null): { value: string; error?: string; min: string; max: string; step: string } {
  let v = value;
  if (this.type === "color" && !/^#[0-9a-f]{6}$/.test(v)) {
    const ctx = document.createElement("canvas").getContext("2d");
    if (!ctx) return { value: this.value, error: "color", min: "", max: "", step: "" };
    ctx.fillStyle = "#010203";
    ctx.fillStyle = v;
    const got = String(ctx.fillStyle);
    if ((got === "#010203" && v.toLowerCase() !== "#010203") || !got.startsWith("#")) return { value: this.value, error: "color", min: "", max: "", step: "" };
    v = got;
  }
  if (percent !== null && this.type === "range") {
    const min = Number(this.min || 0);
    const max = Number(this.max || 100);
    v = String(min + ((max - min) * percent) / 100);
  }
  this.focus({ preventScroll: true });
  const win = this.ownerDocument.defaultView ?? window;
  Object.getOwnPropertyDescriptor(win.HTMLInputElement.prototype, "value")?.set?.call(this, v);
  this.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  this.dispatchEvent(new Event("change", { bubbles: true }));
  return { value: this.value, min: this.min, max: this.max, step: this.step };
}

/** A slider's value as its page shows it: `aria-valuenow`, or its handle's position along the track in percent. */
export function sliderValueInPage(this: Element): { now: number | null; percent: number | null; track: number[] } {
  const slider = this.getAttribute("role") === "slider" ? this : this.querySelector('[role="slider"]');
  const r = this.getBoundingClientRect();
  const track = [r.x, r.y, r.width, r.height];
  if (slider?.hasAttribute("aria-valuenow")) return { now: Number(slider.getAttribute("aria-valuenow")), percent: null, track };
  for (const h of [...this.querySelectorAll("[tabindex]")].slice(0, 30)) {
    const b = h.getBoundingClientRect();
    if ((h as HTMLElement).tabIndex >= 0 && b.width > 0 && b.width <= 40 && b.height <= 40) {
      return { now: null, percent: Math.round(Math.max(0, Math.min(1, (b.x + b.width / 2 - r.x) / r.width)) * 100), track };
    }
  }
  return { now: null, percent: null, track };
}
