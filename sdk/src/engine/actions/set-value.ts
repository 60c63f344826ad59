import type { SetValueParams } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode } from "../../contract/index.js";
import { quoted } from "../base/sanitize.js";
import type { EngineParts } from "../parts.js";
import type { ResolvedElement } from "../targeting.js";
import { mouseClick } from "./input.js";
import { pressKey } from "./input.js";
import { keyDef } from "./keys.js";
import { canonicalValue, parseNumber, type ValueType, valueExamples } from "./value-forms.js";

/** The input types `set_value` sets by value (and `type_text` routes here). */
export const valueInputTypes: ReadonlySet<string> = new Set(["date", "time", "datetime-local", "month", "week", "color", "range", "number"]);

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
function sliderValueInPage(this: Element): { now: number | null; percent: number | null; track: number[] } {
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

/** set_value: sets a date, time, colour, range or number field, or a slider, and reads it back. */
export async function setValue(engine: EngineParts, params: SetValueParams) {
  return engine.state.guard(async () => {
    const el = await engine.targeting.resolve(params.ref, "ref");
    const value = await setValueOf(engine, el, params.value);
    return value;
  });
}

/**
 * Sets the value of a resolved element (see `set_value`); used by `type_text` too for date,
 * time, colour and range inputs, where typing keys into segments does not work reliably.
 */
export async function setValueOf(engine: EngineParts, el: ResolvedElement, raw: string) {
  const ref = el.entry.ref;
  const target = await engine.targeting.call(el, valueTargetInPage);
  if (target.kind === "other" || (target.kind === "input" && !valueInputTypes.has(target.type))) {
    return engine.state.fail(
      ToolErrorCode.NOT_ACTIONABLE,
      `Element ${ref} has no value set_value can set (it takes date, time, month, week, colour, range and number fields, and sliders). Use type_text for text fields and select_option for selects.`,
      "ref",
    );
  }
  if (target.kind === "input") {
    if (target.disabled || target.readOnly) return engine.state.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${ref} is ${target.disabled ? "disabled" : "read-only"}.`, "ref");
    const type = target.type as ValueType;
    const number = parseNumber(raw);
    const percent = type === "range" && number && "percent" in number ? number.percent : null;
    const canonical = percent !== null ? "" : (canonicalValue(type, raw) ?? (type === "color" ? raw.trim() : undefined));
    if (canonical === undefined) {
      return engine.state.fail(ToolErrorCode.INVALID_ARGUMENTS, `${quoted(raw, 60)} is not a ${type} value. Give it like ${valueExamples[type]}.`, "value");
    }
    await engine.targeting.aim(el, "ref");
    const mark = engine.evidence.mark();
    const r = await engine.targeting.call(el, setInputInPage, [canonical, percent]);
    if (r.error === "color") return engine.state.fail(ToolErrorCode.INVALID_ARGUMENTS, `${quoted(raw, 60)} is not a colour. Give it like ${valueExamples.color}.`, "value");
    const wanted = percent !== null || type === "color" ? r.value : canonical;
    const evidence = await engine.evidence.after(mark);
    if (r.value !== wanted) {
      const limits = [r.min && `min ${r.min}`, r.max && `max ${r.max}`, r.step && `step ${r.step}`].filter(Boolean).join(", ");
      return engine.state.fail(
        limits ? ToolErrorCode.INVALID_ARGUMENTS : ToolErrorCode.NOT_ACTIONABLE,
        `Element ${ref} holds ${quoted(r.value, 60)} after setting ${quoted(canonical, 60)}${limits ? ` (it takes ${limits})` : ": the page changed or refused it"}.`,
        limits ? "value" : "ref",
      );
    }
    return { value: r.value, evidence };
  }
  const number = parseNumber(raw);
  if (!number) return engine.state.fail(ToolErrorCode.INVALID_ARGUMENTS, `${quoted(raw, 60)} is not a slider value. Give ${valueExamples.range}.`, "value");
  if (target.kind === "aria") {
    const wanted = "percent" in number ? target.min + ((target.max - target.min) * number.percent) / 100 : number.value;
    if (wanted < target.min || wanted > target.max) {
      return engine.state.fail(ToolErrorCode.INVALID_ARGUMENTS, `The slider takes values from ${target.min} to ${target.max}, not ${wanted}.`, "value");
    }
    const aim = await engine.targeting.aim(el, "ref");
    const mark = engine.evidence.mark();
    // Keys on the slider (arrows step it), as a keyboard user sets it.
    await mouseClick(engine.state.page, aim.point);
    await engine.state.page.send("DOM.focus", { backendNodeId: el.entry.backendNodeId }, el.entry.sessionId).catch(() => undefined);
    let now = (await engine.targeting.call(el, sliderValueInPage)).now ?? target.now ?? target.min;
    for (let round = 0; round < 3 && now !== wanted; round++) {
      const key = keyDef(now < wanted ? "ArrowRight" : "ArrowLeft")!;
      const before = now;
      for (let i = 0; i < 20 && (key.key === "ArrowRight" ? now < wanted : now > wanted); i++) {
        await pressKey(engine.state.page, key);
        now = (await engine.targeting.call(el, sliderValueInPage)).now ?? now;
      }
      if (now === before) break;
    }
    const evidence = await engine.evidence.after(mark);
    if (now !== wanted) return engine.state.fail(ToolErrorCode.NOT_ACTIONABLE, `Slider ${ref} holds ${now} after trying to set ${wanted}: its steps do not reach that value.`, "value");
    return { value: String(now), evidence };
  }
  // A slider without ARIA: a real click on its track at the wanted position.
  const wanted = "percent" in number ? number.percent : number.value;
  if (wanted < 0 || wanted > 100) return engine.state.fail(ToolErrorCode.INVALID_ARGUMENTS, `This slider shows no range; give a position from "0%" to "100%".`, "value");
  await engine.targeting.aim(el, "ref");
  const { track } = await engine.targeting.call(el, sliderValueInPage);
  const [x = 0, y = 0, w = 0, h = 0] = track;
  const mark = engine.evidence.mark();
  await mouseClick(engine.state.page, { x: x + (w * wanted) / 100, y: y + h / 2 });
  const after = await engine.targeting.call(el, sliderValueInPage);
  const evidence = await engine.evidence.after(mark);
  const got = after.now ?? after.percent;
  if (got === null || Math.abs(got - wanted) > 2) {
    return engine.state.fail(ToolErrorCode.NOT_ACTIONABLE, `Slider ${ref} shows ${got ?? "no value"}${after.now === null ? "%" : ""} after a click at ${wanted}% of its track.`, "value");
  }
  return { value: after.now !== null ? String(after.now) : `${after.percent}%`, evidence };
}
