/**
 * Typing into a widget that is not a text field but takes keys once focused: a terminal's
 * screen that focuses a hidden helper textarea when clicked (xterm.js, CodeMirror), or a
 * focusable `<div>` that listens for keys itself. It is clicked like a user would, and the text
 * goes as key presses to whatever took the focus.
 */
import type { TypeTextParams } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode } from "../../contract/index.js";
import type { Point } from "../base/coordinates.js";
import { sanitizeText } from "../base/sanitize.js";
import type { EngineParts } from "../parts.js";
import type { ResolvedElement } from "../targeting.js";
import { keysListened } from "../read/listeners.js";
import { pressKey } from "./input.js";
import { keyDef } from "./keys.js";
import { focusAfterClick, widgetText } from "../in-page/key-widget.js";

/**
 * type_text into a widget (`el`, aimed at `point`): a real click, then the text as key presses
 * to what took the focus when that is a text field, or the widget itself when it listens for
 * keys. Fails as before ("not a text field") when nothing there takes keys. The widget is not
 * cleared (a terminal keeps what it printed).
 */
export async function typeIntoWidget(engine: EngineParts, el: ResolvedElement, point: Point, params: TypeTextParams, typeChars: (text: string, multiline: boolean) => Promise<void>) {
  const page = engine.state.page;
  const mark = engine.evidence.mark();
  for (const type of ["mouseMoved", "mousePressed", "mouseReleased"] as const) {
    await page.send("Input.dispatchMouseEvent", { type, x: point.x, y: point.y, ...(type === "mouseMoved" ? {} : { button: "left", clickCount: 1 }) });
  }
  await engine.evidence.guardNavigation(mark, "typing");
  const focus = await engine.targeting.call(el, focusAfterClick);
  const takesKeys = focus.kind === "field" || (focus.kind === "self" && (await keysListened(page, el.entry.sessionId, el.objectId)) === true);
  if (!takesKeys) {
    return engine.state.fail(
      ToolErrorCode.NOT_ACTIONABLE,
      `Element ${el.entry.ref} is not a text field and nothing took the keys when it was clicked; type into an input, textarea or editable element.`,
      "ref",
    );
  }
  await typeChars(params.text, focus.multiline);
  const enter = params.pressEnter ? keyDef("Enter") : undefined;
  if (enter) await pressKey(page, enter);
  const [value, evidence] = await Promise.all([engine.targeting.call(el, widgetText).catch(() => ""), engine.evidence.after(mark)]);
  return { value: sanitizeText(value, 200), suggestions: [], evidence };
}
