import type { ClickParams, DragParams, HoverParams } from "@baton/gen/baton/v1/tools_pb";
import { KeyModifier, MouseButton } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode } from "../../contract/index.js";
import type { EngineParts } from "../parts.js";
import { afterHover, armClickRecorder, readClickTargets } from "../hit/pointer-check.js";
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
export async function click(engine: EngineParts, params: ClickParams) {
  return engine.state.guard(async () => {
    const modifiers = params.modifiers.reduce((m, k) => m | (modifierBits[modifierNames[k] ?? ""] ?? 0), 0);
    const options = { button: buttons[params.button], clickCount: params.clickCount ?? 1, modifiers };
    if (!params.ref) {
      if (params.x === undefined || params.y === undefined) {
        return engine.state.fail(ToolErrorCode.INVALID_ARGUMENTS, "Give a ref, or both x and y.", "ref");
      }
      const mark = engine.evidence.mark();
      await mouseClick(engine.state.page, { x: params.x, y: params.y }, options);
      return { evidence: await engine.evidence.after(mark) };
    }
    const el = await engine.targeting.resolve(params.ref, "ref");
    const aim = await engine.targeting.aim(el, "ref");
    const page = engine.state.page;
    const ref = el.entry.ref;
    const reactionFrom = await engine.evidence.activityBefore();
    const mark = engine.evidence.mark();
    const notes: string[] = [];
    const recording = aim.hitObject !== undefined && (await armClickRecorder(page, aim.hitObject));
    await mouseClick(page, aim.point, {
      ...options,
      beforePress: async () => {
        // The pointer moving over the page can itself navigate (hover handlers); never press then.
        await engine.evidence.guardNavigation(mark, "click");
        if (aim.hitObject === undefined) return undefined;
        // Hover can change what is under the pointer (an icon swapping its image, actions
        // appearing over a row): let it happen, then aim again before pressing.
        const check = await afterHover(page, aim.hitObject, aim.points);
        if (check?.state === "covered") {
          if (recording) await readClickTargets(page, aim.hitObject);
          return engine.state.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${ref} was covered by ${check.under} when the pointer reached it (a hover effect), so it was not clicked. See the attached snapshot.`, "ref");
        }
        if (check?.state === "gone") notes.push(`${ref} was replaced by ${check.under} when the pointer reached it; the click went there`);
        if (check?.state === "ok" && check.point && (check.point.x !== aim.point.x || check.point.y !== aim.point.y)) {
          notes.push(`hover moved things over ${ref}; the click was aimed at another part of it`);
          return check.point;
        }
        return undefined;
      },
    });
    // (Not once the page is leaving: the browser holds commands to it until the load commits.)
    const landed = recording ? await page.beforeLeaving(readClickTargets(page, aim.hitObject!), mark) : undefined;
    if (landed && !landed.clicked && !notes.some((n) => n.includes("replaced"))) {
      notes.push(landed.click ? `the click reached ${landed.click}, not ${ref}` : `no click event reached ${ref} (pressed on ${landed.down || "nothing"}, released on ${landed.up || "nothing"})`);
    }
    const evidence = await engine.evidence.after(mark, reactionFrom ? { reactionFrom } : {});
    return { evidence: { ...evidence, notes: [...(evidence.notes ?? []), ...notes] } };
  });
}

/** hover: moves the mouse over the element. */
export async function hover(engine: EngineParts, params: HoverParams) {
  return engine.state.guard(async () => {
    const el = await engine.targeting.resolve(params.ref, "ref");
    const point = await engine.targeting.actionPoint(el, "ref");
    const mark = engine.evidence.mark();
    await mouseMove(engine.state.page, point);
    return { evidence: await engine.evidence.after(mark) };
  });
}

/**
 * drag: presses on one element, moves in steps to the other and releases. HTML5 drag and drop
 * is intercepted (`Input.setInterceptDrags`) and completed with real drag events, so both
 * pointer-driven and native drag lists work.
 */
export async function drag(engine: EngineParts, params: DragParams) {
  return engine.state.guard(async () => {
    const from = await engine.targeting.resolve(params.fromRef, "from_ref");
    const to = await engine.targeting.resolve(params.toRef, "to_ref");
    const start = await engine.targeting.actionPoint(from, "from_ref");
    const page = engine.state.page;
    const mark = engine.evidence.mark();
    let dragData: unknown;
    const stop = page.transport.onEvent((e) => {
      if (e.method === "Input.dragIntercepted" && (e.sessionId ?? "") === page.rootId) dragData = e.params.data;
    });
    try {
      await page.send("Input.setInterceptDrags", { enabled: true });
      await mouseMove(page, start);
      await page.send("Input.dispatchMouseEvent", { type: "mousePressed", x: start.x, y: start.y, button: "left", clickCount: 1 });
      const end = await engine.targeting.actionPoint(to, "to_ref").catch(async (e) => {
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
    return { evidence: await engine.evidence.after(mark) };
  });
}
