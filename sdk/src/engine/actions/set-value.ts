import type { SetValueParams } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode } from "../../contract/index.js";
import { quoted } from "../base/sanitize.js";
import type { Engine, ResolvedElement } from "../engine.js";
import { setInputInPage, sliderValueInPage, valueTargetInPage } from "../in-page/set-value.js";
import { mouseClick } from "./input.js";
import { pressKey } from "./input.js";
import { keyDef } from "./keys.js";
import { canonicalValue, parseNumber, type ValueType, valueExamples } from "./value-forms.js";

/** The input types `set_value` sets by value (and `type_text` routes here). */
export const valueInputTypes: ReadonlySet<string> = new Set(["date", "time", "datetime-local", "month", "week", "color", "range", "number"]);

/** set_value: sets a date, time, colour, range or number field, or a slider, and reads it back. */
export async function setValue(engine: Engine, params: SetValueParams) {
  return engine.guard(async () => {
    const el = await engine.resolve(params.ref, "ref");
    const value = await setValueOf(engine, el, params.value);
    return value;
  });
}

/**
 * Sets the value of a resolved element (see `set_value`); used by `type_text` too for date,
 * time, colour and range inputs, where typing keys into segments does not work reliably.
 */
export async function setValueOf(engine: Engine, el: ResolvedElement, raw: string) {
  const ref = el.entry.ref;
  const target = await engine.call(el, valueTargetInPage);
  if (target.kind === "other" || (target.kind === "input" && !valueInputTypes.has(target.type))) {
    return engine.fail(
      ToolErrorCode.NOT_ACTIONABLE,
      `Element ${ref} has no value set_value can set (it takes date, time, month, week, colour, range and number fields, and sliders). Use type_text for text fields and select_option for selects.`,
      "ref",
    );
  }
  if (target.kind === "input") {
    if (target.disabled || target.readOnly) return engine.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${ref} is ${target.disabled ? "disabled" : "read-only"}.`, "ref");
    const type = target.type as ValueType;
    const number = parseNumber(raw);
    const percent = type === "range" && number && "percent" in number ? number.percent : null;
    const canonical = percent !== null ? "" : (canonicalValue(type, raw) ?? (type === "color" ? raw.trim() : undefined));
    if (canonical === undefined) {
      return engine.fail(ToolErrorCode.INVALID_ARGUMENTS, `${quoted(raw, 60)} is not a ${type} value. Give it like ${valueExamples[type]}.`, "value");
    }
    await engine.aim(el, "ref");
    const mark = engine.mark();
    const r = await engine.call(el, setInputInPage, [canonical, percent]);
    if (r.error === "color") return engine.fail(ToolErrorCode.INVALID_ARGUMENTS, `${quoted(raw, 60)} is not a colour. Give it like ${valueExamples.color}.`, "value");
    const wanted = percent !== null || type === "color" ? r.value : canonical;
    const evidence = await engine.evidence(mark);
    if (r.value !== wanted) {
      const limits = [r.min && `min ${r.min}`, r.max && `max ${r.max}`, r.step && `step ${r.step}`].filter(Boolean).join(", ");
      return engine.fail(
        limits ? ToolErrorCode.INVALID_ARGUMENTS : ToolErrorCode.NOT_ACTIONABLE,
        `Element ${ref} holds ${quoted(r.value, 60)} after setting ${quoted(canonical, 60)}${limits ? ` (it takes ${limits})` : ": the page changed or refused it"}.`,
        limits ? "value" : "ref",
      );
    }
    return { value: r.value, evidence };
  }
  const number = parseNumber(raw);
  if (!number) return engine.fail(ToolErrorCode.INVALID_ARGUMENTS, `${quoted(raw, 60)} is not a slider value. Give ${valueExamples.range}.`, "value");
  if (target.kind === "aria") {
    const wanted = "percent" in number ? target.min + ((target.max - target.min) * number.percent) / 100 : number.value;
    if (wanted < target.min || wanted > target.max) {
      return engine.fail(ToolErrorCode.INVALID_ARGUMENTS, `The slider takes values from ${target.min} to ${target.max}, not ${wanted}.`, "value");
    }
    const aim = await engine.aim(el, "ref");
    const mark = engine.mark();
    // Keys on the slider (arrows step it), as a keyboard user sets it.
    await mouseClick(engine.page, aim.point);
    await engine.page.send("DOM.focus", { backendNodeId: el.entry.backendNodeId }, el.entry.sessionId).catch(() => undefined);
    let now = (await engine.call(el, sliderValueInPage)).now ?? target.now ?? target.min;
    for (let round = 0; round < 3 && now !== wanted; round++) {
      const key = keyDef(now < wanted ? "ArrowRight" : "ArrowLeft")!;
      const before = now;
      for (let i = 0; i < 20 && (key.key === "ArrowRight" ? now < wanted : now > wanted); i++) {
        await pressKey(engine.page, key);
        now = (await engine.call(el, sliderValueInPage)).now ?? now;
      }
      if (now === before) break;
    }
    const evidence = await engine.evidence(mark);
    if (now !== wanted) return engine.fail(ToolErrorCode.NOT_ACTIONABLE, `Slider ${ref} holds ${now} after trying to set ${wanted}: its steps do not reach that value.`, "value");
    return { value: String(now), evidence };
  }
  // A slider without ARIA: a real click on its track at the wanted position.
  const wanted = "percent" in number ? number.percent : number.value;
  if (wanted < 0 || wanted > 100) return engine.fail(ToolErrorCode.INVALID_ARGUMENTS, `This slider shows no range; give a position from "0%" to "100%".`, "value");
  await engine.aim(el, "ref");
  const { track } = await engine.call(el, sliderValueInPage);
  const [x = 0, y = 0, w = 0, h = 0] = track;
  const mark = engine.mark();
  await mouseClick(engine.page, { x: x + (w * wanted) / 100, y: y + h / 2 });
  const after = await engine.call(el, sliderValueInPage);
  const evidence = await engine.evidence(mark);
  const got = after.now ?? after.percent;
  if (got === null || Math.abs(got - wanted) > 2) {
    return engine.fail(ToolErrorCode.NOT_ACTIONABLE, `Slider ${ref} shows ${got ?? "no value"}${after.now === null ? "%" : ""} after a click at ${wanted}% of its track.`, "value");
  }
  return { value: after.now !== null ? String(after.now) : `${after.percent}%`, evidence };
}
