import type { Point } from "../base/coordinates.js";
import type { PageSession } from "../page/page-session.js";
import { type KeyDef, modifierBits } from "./keys.js";

/** Mouse button names `Input.dispatchMouseEvent` takes. */
export type ButtonName = "left" | "right" | "middle";

/** Moves the mouse to a viewport point (input always goes to the top-level page). */
export async function mouseMove(page: PageSession, p: Point, buttons = 0): Promise<void> {
  await page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: p.x, y: p.y, buttons });
}

/** A full click at a viewport point: move, press, release; resolves to where it pressed. */
export async function mouseClick(
  page: PageSession,
  p: Point,
  options: { button?: ButtonName; clickCount?: number; modifiers?: number; beforePress?: () => Promise<Point | void> } = {},
): Promise<Point> {
  const button = options.button ?? "left";
  const modifiers = options.modifiers ?? 0;
  await page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: p.x, y: p.y, modifiers });
  // The check before pressing may re-aim (hover moved things under the pointer).
  const aimed = (await options.beforePress?.()) ?? p;
  if (aimed.x !== p.x || aimed.y !== p.y) await page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: aimed.x, y: aimed.y, modifiers });
  p = aimed;
  const count = options.clickCount ?? 1;
  for (let i = 1; i <= count; i++) {
    await page.send("Input.dispatchMouseEvent", { type: "mousePressed", x: p.x, y: p.y, button, clickCount: i, modifiers });
    await page.send("Input.dispatchMouseEvent", { type: "mouseReleased", x: p.x, y: p.y, button, clickCount: i, modifiers });
  }
  return p;
}

/**
 * Presses and releases one key, with modifiers held. Both events are sent at once: a session's
 * input events reach the page in the order sent, so waiting for the press before sending the
 * release would only add a round trip.
 */
export async function pressKey(page: PageSession, def: KeyDef, modifiers = 0, sessionId?: string): Promise<void> {
  // A character typed with Shift on a US keyboard ("!", "A") holds it.
  if (def.shift) modifiers |= modifierBits.Shift!;
  const typesText = def.text !== undefined && (modifiers & ~modifierBits.Shift!) === 0;
  const base = {
    key: def.key,
    code: def.code,
    windowsVirtualKeyCode: def.keyCode,
    nativeVirtualKeyCode: def.keyCode,
    modifiers,
  };
  await Promise.all([
    page.send(
      "Input.dispatchKeyEvent",
      typesText ? { ...base, type: "keyDown", text: def.text, unmodifiedText: def.text } : { ...base, type: "rawKeyDown" },
      sessionId,
    ),
    page.send("Input.dispatchKeyEvent", { ...base, type: "keyUp" }, sessionId),
  ]);
}
