import { ToolErrorCode } from "../../contract/index.js";
import { declaration } from "../base/page-function.js";
import { sanitizeText } from "../base/sanitize.js";
import type { EngineParts } from "../parts.js";
import type { ResolvedElement } from "../targeting.js";
import { documentOrigin, isDocumentFocus } from "../in-page/typing-scope.js";

/**
 * Fails (PERMISSION_DENIED, nothing typed) unless the field's own frame is on one of
 * `origins`: the frame that holds it, not the top page, which may embed another site's frame.
 * A frame that navigated since the field was found fails too (its element is gone).
 */
export async function checkFieldOrigin(engine: Pick<EngineParts, "state" | "targeting">, el: ResolvedElement, origins: readonly string[]): Promise<void> {
  const origin = await engine.targeting.call(el, documentOrigin).catch(() => undefined);
  if (origin !== undefined && origins.includes(origin)) return;
  return engine.state.fail(
    ToolErrorCode.PERMISSION_DENIED,
    `Element ${el.entry.ref} is in a frame on ${origin && origin !== "null" ? sanitizeText(origin, 100) : "no web origin (or one that just navigated)"}; this text may only be typed on ${origins.join(", ")}. Nothing was typed.`,
    "ref",
  );
}

/**
 * Whether keys sent now reach the field: it is its document's focused element, and each frame
 * from it up to the top is its parent document's focused element (keys go to the page's
 * focused frame, which a page can move). Read through CDP frame by frame, so it holds for
 * cross-origin frames in or out of process, and without the window having the system focus.
 */
async function focusReaches(engine: Pick<EngineParts, "state" | "targeting">, el: ResolvedElement): Promise<boolean> {
  if (!(await engine.targeting.call(el, isDocumentFocus).catch(() => false))) return false;
  const page = engine.state.page;
  let frame = page.frames.get(el.entry.frameId);
  for (let hops = 0; frame?.parentId !== undefined && hops < 20; hops++) {
    const parent = page.frames.get(frame.parentId);
    if (!parent) return false;
    try {
      const owner = await page.send<{ backendNodeId: number }>("DOM.getFrameOwner", { frameId: frame.id }, parent.sessionId);
      const { object } = await page.send<{ object: { objectId?: string } }>("DOM.resolveNode", { backendNodeId: owner.backendNodeId, objectGroup: "baton" }, parent.sessionId);
      const r = await page.send<{ result: { value?: unknown } }>(
        "Runtime.callFunctionOn",
        { objectId: object.objectId, functionDeclaration: declaration(isDocumentFocus), returnByValue: true },
        parent.sessionId,
      );
      if (r.result.value !== true) return false;
    } catch {
      return false;
    }
    frame = parent;
  }
  return frame !== undefined;
}

/**
 * The check just before a scoped text's keys go out: the field's frame is still on one of
 * `origins` (it may have navigated since the field was found), and the page's focus is on the
 * field (a page may move it into another frame). Either fails the call with nothing typed.
 */
export async function checkBeforeKeys(engine: Pick<EngineParts, "state" | "targeting">, el: ResolvedElement, origins: readonly string[]): Promise<void> {
  await checkFieldOrigin(engine, el, origins);
  if (await focusReaches(engine, el)) return;
  return engine.state.fail(
    ToolErrorCode.NOT_ACTIONABLE,
    `The focus left element ${el.entry.ref} before its text was typed (the page moved it), so nothing was typed. Take a snapshot and try again.`,
    "ref",
  );
}
