import type { ClickParams, DragParams, HoverParams } from "@baton/gen/baton/v1/tools_pb";
import { KeyModifier, MouseButton } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode } from "../../contract/index.js";
import type { Engine } from "../engine.js";
import { type ButtonName, mouseClick, mouseMove } from "./input.js";
import { modifierBits } from "./keys.js";

const buttons: Record<MouseButton, ButtonName> = {
  [MouseButton.UNSPECIFIED]: "left",
  [MouseButton.LEFT]: "left",
  [MouseButton.RIGHT]: "right",
  [MouseButton.MIDDLE]: "middle",
};
const modifierNames: Record<KeyModifier, string | undefined> = {
  [KeyModifier.UNSPECIFIED]: undefined,
  [KeyModifier.ALT]: "Alt",
  [KeyModifier.CONTROL]: "Control",
  [KeyModifier.META]: "Meta",
  [KeyModifier.SHIFT]: "Shift",
};

/** click: by ref (scroll, hit-test, real mouse events) or at a viewport point. */
export async function click(engine: Engine, params: ClickParams) {
  return engine.guard(async () => {
    const modifiers = params.modifiers.reduce((m, k) => m | (modifierBits[modifierNames[k] ?? ""] ?? 0), 0);
    const options = { button: buttons[params.button], clickCount: params.clickCount ?? 1, modifiers };
    if (!params.ref) {
      if (params.x === undefined || params.y === undefined) {
        return engine.fail(ToolErrorCode.INVALID_ARGUMENTS, "Give a ref, or both x and y.", "ref");
      }
      const mark = engine.mark();
      await mouseClick(engine.page, { x: params.x, y: params.y }, options);
      return { evidence: await engine.evidence(mark) };
    }
    const el = await engine.resolve(params.ref, "ref");
    const point = await engine.actionPoint(el, "ref");
    const mark = engine.mark();
    await mouseClick(engine.page, point, {
      ...options,
      // The pointer moving over the page can itself navigate (hover handlers); never press then.
      beforePress: () => engine.guardNavigation(mark, "click"),
    });
    return { evidence: await engine.evidence(mark) };
  });
}

/** hover: moves the mouse over the element. */
export async function hover(engine: Engine, params: HoverParams) {
  return engine.guard(async () => {
    const el = await engine.resolve(params.ref, "ref");
    const point = await engine.actionPoint(el, "ref");
    const mark = engine.mark();
    await mouseMove(engine.page, point);
    return { evidence: await engine.evidence(mark) };
  });
}

/**
 * drag: presses on one element, moves in steps to the other and releases. HTML5 drag and drop
 * is intercepted (`Input.setInterceptDrags`) and completed with real drag events, so both
 * pointer-driven and native drag lists work.
 */
export async function drag(engine: Engine, params: DragParams) {
  return engine.guard(async () => {
    const from = await engine.resolve(params.fromRef, "from_ref");
    const to = await engine.resolve(params.toRef, "to_ref");
    const start = await engine.actionPoint(from, "from_ref");
    const page = engine.page;
    const mark = engine.mark();
    let dragData: unknown;
    const stop = page.transport.onEvent((e) => {
      if (e.method === "Input.dragIntercepted" && (e.sessionId ?? "") === page.rootId) dragData = e.params.data;
    });
    try {
      await page.send("Input.setInterceptDrags", { enabled: true });
      await mouseMove(page, start);
      await page.send("Input.dispatchMouseEvent", { type: "mousePressed", x: start.x, y: start.y, button: "left", clickCount: 1 });
      const end = await engine.actionPoint(to, "to_ref").catch(async (e) => {
        await page.send("Input.dispatchMouseEvent", { type: "mouseReleased", x: start.x, y: start.y, button: "left", clickCount: 1 });
        throw e;
      });
      const steps = 8;
      for (let i = 1; i <= steps; i++) {
        const p = { x: start.x + ((end.x - start.x) * i) / steps, y: start.y + ((end.y - start.y) * i) / steps };
        await page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: p.x, y: p.y, button: "left", buttons: 1 });
      }
      if (dragData) {
        for (const type of ["dragEnter", "dragOver", "drop"]) {
          await page.send("Input.dispatchDragEvent", { type, x: end.x, y: end.y, data: dragData });
        }
      }
      await page.send("Input.dispatchMouseEvent", { type: "mouseReleased", x: end.x, y: end.y, button: "left", clickCount: 1 });
    } finally {
      stop();
      await page.send("Input.setInterceptDrags", { enabled: false }).catch(() => undefined);
    }
    return { evidence: await engine.evidence(mark) };
  });
}
