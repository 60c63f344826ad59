/**
 * Controls a stylesheet hides until their row is hovered (`.row .edit{opacity:0}`,
 * `.row:hover .edit{opacity:1}`; the same with `visibility`): a person sees them by moving the
 * mouse, so the snapshot lists them, marked, and an action hovers their row first. They are
 * found from the page's own style rules: every rule whose selector has `:hover` and that sets
 * `opacity` above 0 or `visibility: visible` names the elements it reveals (its selector
 * without `:hover`) and the element whose hover reveals them (the part of the selector up to
 * the hovered compound). Only elements hidden that way now count; `display: none` stays
 * hidden (a person cannot see where such a control would be).
 */
import { declaration } from "../base/page-function.js";
import { hoverRevealsInPage } from "../in-page/hover-reveal.js";
import type { PageSession } from "../page/page-session.js";

/** Hover-revealed elements of the top document's light tree, by `getElementsByTagName("*")` position. */
export interface HoverReveals {
  /** The document's element count when read (checked against the DOMSnapshot's). */
  readonly count: number;
  /** Revealed element → the element whose hover reveals it (itself or an ancestor). */
  readonly anchors: ReadonlyMap<number, number>;
}

/**
 * The top document's hover-revealed elements, read in its hit world (`contextId`); undefined
 * when the page could not be read. The caller checks `count` against its DOMSnapshot.
 */
export async function hoverReveals(page: PageSession, contextId: number): Promise<HoverReveals | undefined> {
  try {
    const r = await page.send<{ result: { value?: number[] } }>("Runtime.callFunctionOn", {
      functionDeclaration: declaration(hoverRevealsInPage),
      executionContextId: contextId,
      returnByValue: true,
    });
    const v = r.result.value;
    if (!Array.isArray(v) || v.length === 0) return undefined;
    const anchors = new Map<number, number>();
    for (let i = 1; i + 1 < v.length; i += 2) anchors.set(v[i]!, v[i + 1]!);
    return { count: v[0]!, anchors };
  } catch {
    return undefined;
  }
}
