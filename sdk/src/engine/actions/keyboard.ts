import type { PressKeysParams, TypeTextParams } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode } from "../../contract/index.js";
import type { EngineParts } from "../parts.js";
import type { Evidence } from "../evidence.js";
import type { PageSession } from "../page/page-session.js";
import { fieldValue } from "../in-page/element-state.js";
import { keysListened } from "../read/listeners.js";
import { quoted, sanitizeText } from "../base/sanitize.js";
import { pressKey } from "./input.js";
import { charKey, keyDef, modifierBits, parseChord } from "./keys.js";
import { typeIntoWidget } from "./key-widget.js";
import { setValueOf } from "./set-value.js";
import { checkBeforeKeys, checkFieldOrigin } from "./typing-scope.js";
import { caretAtEnd, fieldInfo, focusLabelControl, hasFocus, selectContents, suggestionsInPage } from "../in-page/keyboard.js";

/**
 * Types text as key presses: every printable ASCII character with its US-keyboard key (Shift
 * held where needed), so pages that act on keydown or keypress see each one; a line break as
 * Enter; characters no key produces (é, 中, emoji) with `Input.insertText`, as an input method
 * would. Pipelined in small batches.
 */
export async function typeChars(page: PageSession, text: string, multiline: boolean): Promise<void> {
  let pending: Promise<unknown>[] = [];
  let run = "";
  const flush = async (): Promise<void> => {
    if (run) pending.push(page.send("Input.insertText", { text: run }));
    run = "";
    await Promise.all(pending);
    pending = [];
  };
  const enter = keyDef("Enter")!;
  for (const ch of text.replace(/\r\n?/g, "\n")) {
    const def = ch === "\n" ? (multiline ? enter : undefined) : charKey(ch);
    if (!def) {
      // A line break in a one-line field types nothing; anything else no key makes goes as text.
      if (ch !== "\n") run += ch;
      continue;
    }
    if (run) await flush();
    pending.push(pressKey(page, def, def.shift ? modifierBits.Shift : 0));
    if (pending.length >= 40) await flush();
  }
  await flush();
}

/** How a field's value is compared with the text typed: line breaks and surrounding space do not count. */
const comparable = (s: string): string => s.replace(/\r\n?/g, "\n").replace(/\u00a0/g, " ").trim();

/**
 * type_text: focuses the field with a click (none when it already has the focus: the click
 * would only focus it and place the caret, which is placed anyway), clears it or puts the caret
 * at its end, and types: with real key events (see `typeChars`) when anything in the field's
 * document or window listens for keys, else as one `Input.insertText` (what an input method
 * does: the same input events' kind and the same value, in one step); date, time, colour and
 * range inputs are set by value (`set-value.ts`). The
 * value is read back: when the field holds something else than what was typed (the page
 * filtered or reformatted it), the evidence says so. With `wait_for_suggestion`, waits (up to
 * 3 s) for a list of suggestions near the field and reports its items.
 *
 * With `onlyOn` (a secret's origins, see `TypingScope`), the field's own frame must be on one
 * of them when it is found and again just before the text's keys go out, with the page's focus
 * still on the field; otherwise nothing is typed.
 */
export async function typeText(engine: EngineParts, params: TypeTextParams, onlyOn?: readonly string[]) {
  return engine.state.guard(async () => {
    const el = await engine.targeting.resolve(params.ref, "ref");
    if (onlyOn) await checkFieldOrigin(engine, el, onlyOn);
    // Where to click is found beside what kind of field it is; the kind decides first.
    const aimed = engine.targeting.actionPoint(el, "ref");
    aimed.catch(() => undefined);
    const info = await engine.targeting.call(el, fieldInfo);
    // A widget that takes keys once focused (a terminal's screen): clicked, then typed into.
    if (info.kind === "other") return typeIntoWidget(engine, el, await aimed, params, (text, multiline) => typeChars(engine.state.page, text, multiline));
    if (info.disabled || info.readOnly) {
      return engine.state.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${el.entry.ref} is ${info.disabled ? "disabled" : "read-only"}.`, "ref");
    }
    if (info.kind === "value") {
      await aimed.catch(() => undefined);
      const r = await setValueOf(engine, el, params.text);
      return { value: r.value, suggestions: [], evidence: r.evidence };
    }
    const point = await aimed;
    const page = engine.state.page;
    const mark = engine.evidence.mark();
    const before = params.clear ?? true ? "" : await engine.targeting.call(el, fieldValue).catch(() => "");
    let focused: boolean;
    let current: string;
    // Whether the page can hear keys typed into the field, read once the click (if any) has
    // landed: a widget may start listening when it gets the focus. Only for an input or textarea.
    const listenedAfter = (click?: Promise<unknown>) =>
      info.kind === "input" ? keysListened(page, el.entry.sessionId, el.objectId, click) : Promise.resolve(true);
    let listened: boolean | undefined;
    if (info.focused) {
      // Already focused (clicked, or typed into just before): no click, which would only have
      // focused it and placed the caret; the caret is placed below as after a click.
      focused = true;
      [current, listened] = await Promise.all([params.clear ?? true ? engine.targeting.call(el, fieldValue).catch(() => "x") : before, listenedAfter()]);
    } else {
      // A real click focuses like a user would (and places the caret); DOM.focus is the backstop.
      // The move, press and release go out together (a session's input events reach the page in
      // the order sent; the press dispatches the move the renderer holds for its next frame).
      const click = Promise.all(
        (["mouseMoved", "mousePressed", "mouseReleased"] as const).map((type) =>
          page.send("Input.dispatchMouseEvent", { type, x: point.x, y: point.y, ...(type === "mouseMoved" ? {} : { button: "left", clickCount: 1 }) }),
        ),
      );
      const listening = listenedAfter(click);
      await click;
      // Whether the click focused the field, read beside its value and its listeners (all only
      // read), and whether the page navigated away meanwhile (then nothing is typed).
      [focused, current, listened] = await Promise.all([
        engine.targeting.call(el, hasFocus).catch(() => false),
        engine.targeting.call(el, fieldValue).catch(() => "x"),
        listening,
        engine.evidence.guardNavigation(mark, "typing"),
      ]);
    }
    if (!focused) await page.send("DOM.focus", { backendNodeId: el.entry.backendNodeId }, el.entry.sessionId).catch(() => undefined);
    // Nothing in the field's document or window listens for keys: the text goes in as one
    // Input.insertText (the input events and the value a user's typing gives, in one step; a
    // selection is replaced), as an input method would. Otherwise a key event per character.
    const text = params.text.replace(/\r\n?/g, "\n");
    const insert = listened === false && text !== "";
    if (params.clear ?? true) {
      // Only a field with content is cleared: Backspace in an empty field still reaches the
      // page's key handlers (a shell would drop a character it keeps elsewhere).
      if (current !== "" || (!focused && (await engine.targeting.call(el, fieldValue).catch(() => "x")) !== "")) {
        await engine.targeting.call(el, selectContents);
        const backspace = keyDef("Backspace");
        if (backspace && !insert) await pressKey(page, backspace);
      }
    } else {
      await engine.targeting.call(el, caretAtEnd).catch(() => undefined);
    }
    if (onlyOn) await checkBeforeKeys(engine, el, onlyOn);
    if (insert) await page.send("Input.insertText", { text: info.multiline ? text : text.replace(/\n/g, "") });
    else await typeChars(page, text, info.multiline);
    const readValue = () => engine.targeting.call(el, fieldValue).catch(() => "");
    let value: string;
    let suggestions: string[] = [];
    let evidence: Awaited<ReturnType<Evidence["after"]>>;
    if (params.waitForSuggestion || params.pressEnter) {
      value = await readValue();
      if (params.waitForSuggestion) suggestions = await engine.targeting.call(el, suggestionsInPage, [3000]).catch(() => [] as string[]);
      const enter = params.pressEnter ? keyDef("Enter") : undefined;
      if (enter) await pressKey(page, enter);
      evidence = await engine.evidence.after(mark);
    } else {
      // Nothing more to do in the page: the value is read (only read) while settle and the
      // evidence snapshot start, instead of a round trip before them.
      [value, evidence] = await Promise.all([readValue(), engine.evidence.after(mark)]);
    }
    const notes = [...(evidence.notes ?? [])];
    const expected = comparable(before + params.text);
    if (comparable(value) !== expected && !(info.kind === "editable" && comparable(value).includes(comparable(params.text)))) {
      notes.push(`the field holds ${quoted(value, 120)}, not the text typed: the page filtered or reformatted it`);
    }
    if (params.waitForSuggestion && suggestions.length === 0) notes.push("no suggestions appeared near the field within 3 s");
    return { value, suggestions: suggestions.map((s) => sanitizeText(s, 120)), evidence: { ...evidence, notes } };
  });
}

/** press_keys: keys and chords in order, to the focused element or to `ref` after focusing it. */
export async function pressKeys(engine: EngineParts, params: PressKeysParams) {
  return engine.state.guard(async () => {
    const chords = params.keys.map((k) => ({ k, parts: parseChord(k) }));
    for (const { k, parts } of chords) {
      if (!parts || parts.some((p) => !keyDef(p))) {
        return engine.state.fail(ToolErrorCode.INVALID_ARGUMENTS, `Unknown key ${JSON.stringify(k)}. Use KeyboardEvent.key names such as "Enter", "ArrowDown", "Control+a".`, "keys");
      }
    }
    if (params.ref) {
      const el = await engine.targeting.resolve(params.ref, "ref");
      // A label standing for a hidden control (a custom switch) passes the focus to the control,
      // which is what the keys operate.
      if (!(await engine.targeting.call(el, focusLabelControl))) {
        await engine.state.page.send("DOM.focus", { backendNodeId: el.entry.backendNodeId }, el.entry.sessionId);
      }
    }
    const page = engine.state.page;
    const reactionFrom = await engine.evidence.activityBefore();
    const mark = engine.evidence.mark();
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
    return { evidence: await engine.evidence.after(mark, reactionFrom ? { reactionFrom } : {}) };
  });
}
