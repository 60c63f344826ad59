import type { PressKeysParams, TypeTextParams } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode } from "../../contract/index.js";
import type { Engine } from "../engine.js";
import { fieldValue } from "../read/element-state.js";
import { pressKey } from "./input.js";
import { keyDef, modifierBits, parseChord } from "./keys.js";

/** What kind of text field an element (`this`) is, and whether it takes text now. */
function fieldInfo(this: Element): { kind: "input" | "editable" | "other"; disabled: boolean; readOnly: boolean } {
  const kinds = ["checkbox", "radio", "file", "button", "submit", "reset", "image", "range", "color"];
  const field = this as Partial<HTMLInputElement>;
  const input = this.localName === "textarea" || (this.localName === "input" && !kinds.includes(field.type ?? ""));
  return { kind: input ? "input" : (this as HTMLElement).isContentEditable ? "editable" : "other", disabled: !!field.disabled, readOnly: !!field.readOnly };
}

/** Selects a field's (`this`) whole content, so the next key replaces it. */
function selectContents(this: Element): void {
  if (this.localName === "input" || this.localName === "textarea") {
    (this as HTMLInputElement).select();
    return;
  }
  const r = document.createRange();
  r.selectNodeContents(this);
  const s = getSelection();
  s?.removeAllRanges();
  s?.addRange(r);
}

/**
 * type_text: focuses the field, clears it, types. Plain inputs get real key events per
 * character; contenteditable hosts (and long text) get `Input.insertText`, which editors
 * handle like a paste of typed text.
 */
export async function typeText(engine: Engine, params: TypeTextParams) {
  return engine.guard(async () => {
    const el = await engine.resolve(params.ref, "ref");
    const info = await engine.call(el, fieldInfo);
    if (info.kind === "other") {
      return engine.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${el.entry.ref} is not a text field; type into an input, textarea or editable element.`, "ref");
    }
    if (info.disabled || info.readOnly) {
      return engine.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${el.entry.ref} is ${info.disabled ? "disabled" : "read-only"}.`, "ref");
    }
    const point = await engine.actionPoint(el, "ref");
    const page = engine.page;
    const mark = engine.mark();
    // A real click focuses like a user would (and places the caret); DOM.focus is the backstop.
    await page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: point.x, y: point.y });
    await engine.guardNavigation(mark, "typing");
    await page.send("Input.dispatchMouseEvent", { type: "mousePressed", x: point.x, y: point.y, button: "left", clickCount: 1 });
    await page.send("Input.dispatchMouseEvent", { type: "mouseReleased", x: point.x, y: point.y, button: "left", clickCount: 1 });
    await page.send("DOM.focus", { backendNodeId: el.entry.backendNodeId }, el.entry.sessionId).catch(() => undefined);
    if (params.clear ?? true) {
      await engine.call(el, selectContents);
      const backspace = keyDef("Backspace");
      if (backspace) await pressKey(page, backspace);
    }
    if (info.kind === "editable" || params.text.length > 200 || /[^\x20-\x7e]/.test(params.text)) {
      if (params.text) await page.send("Input.insertText", { text: params.text });
    } else {
      for (const ch of params.text) {
        const def = keyDef(ch);
        if (def?.code) await pressKey(page, def, /[A-Z]/.test(ch) ? modifierBits.Shift : 0);
        else await page.send("Input.insertText", { text: ch });
      }
    }
    if (params.pressEnter) {
      const enter = keyDef("Enter");
      if (enter) await pressKey(page, enter);
    }
    const value = await engine
      .call(el, fieldValue)
      .catch(() => "");
    const evidence = await engine.evidence(mark);
    const suggestions: string[] = [];
    if (params.waitForSuggestion && engine.lastSnapshot) {
      for (const e of engine.lastSnapshot.elements) if (e.role === "option" && e.name) suggestions.push(e.name);
    }
    return { value, suggestions: suggestions.slice(0, 20), evidence };
  });
}

/** press_keys: keys and chords in order, to the focused element or to `ref` after focusing it. */
export async function pressKeys(engine: Engine, params: PressKeysParams) {
  return engine.guard(async () => {
    const chords = params.keys.map((k) => ({ k, parts: parseChord(k) }));
    for (const { k, parts } of chords) {
      if (!parts || parts.some((p) => !keyDef(p))) {
        return engine.fail(ToolErrorCode.INVALID_ARGUMENTS, `Unknown key ${JSON.stringify(k)}. Use KeyboardEvent.key names such as "Enter", "ArrowDown", "Control+a".`, "keys");
      }
    }
    if (params.ref) {
      const el = await engine.resolve(params.ref, "ref");
      await engine.page.send("DOM.focus", { backendNodeId: el.entry.backendNodeId }, el.entry.sessionId);
    }
    const page = engine.page;
    const mark = engine.mark();
    for (const { parts } of chords) {
      const defs = parts!.map((p) => keyDef(p)!);
      const main = defs[defs.length - 1]!;
      let modifiers = 0;
      for (const m of defs.slice(0, -1)) {
        modifiers |= modifierBits[m.key] ?? 0;
        await page.send("Input.dispatchKeyEvent", { type: "rawKeyDown", key: m.key, code: m.code, windowsVirtualKeyCode: m.keyCode, modifiers });
      }
      await pressKey(page, main, modifiers);
      for (const m of defs.slice(0, -1).reverse()) {
        modifiers &= ~(modifierBits[m.key] ?? 0);
        await page.send("Input.dispatchKeyEvent", { type: "keyUp", key: m.key, code: m.code, windowsVirtualKeyCode: m.keyCode, modifiers });
      }
    }
    return { evidence: await engine.evidence(mark) };
  });
}
