import type { SetValueParams } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode } from "../../contract/index.js";
import { quoted } from "../base/sanitize.js";
import type { EngineParts } from "../parts.js";
import { setInputInPage, sliderValueInPage, valueTargetInPage } from "../in-page/set-value.js";
import type { ResolvedElement } from "../targeting.js";
import { mouseClick } from "./input.js";
import { pressKey } from "./input.js";
import { keyDef } from "./keys.js";
import { canonicalValue, parseNumber, type ValueType, valueExamples } from "./value-forms.js";

/** The input types `set_value` sets by value (and `type_text` routes here). */
export const valueInputTypes: ReadonlySet<string> = new Set(["date", "time", "datetime-local", "month", "week", "color", "range", "number"]);

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
