/**
 * Baton's snapshot beside Playwright's AI snapshot, control by control, for `bench:snapshot`'s
 * pages built like real apps: which controls Playwright lists (a widget role, or a pointer
 * cursor) have a Baton ref, and how many of each side's controls carry a useful name.
 */
import type { Page } from "playwright-core";
import type { Engine } from "../src/engine/engine.js";
import { lightIndexes } from "../src/engine/fixtures/ground-truth.js";

/** Roles of controls in Playwright's snapshot. */
const controlRoles: ReadonlySet<string> = new Set([
  "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option",
  "treeitem", "slider", "spinbutton", "textbox", "searchbox", "combobox", "listbox",
]);

/** One control of a Playwright AI snapshot. */
export interface PlaywrightControl {
  readonly ref: string;
  readonly role: string;
  readonly name: string;
}

/** The controls of a Playwright AI snapshot: lines with a control role, or a pointer cursor, and a ref. */
export function playwrightControls(text: string): PlaywrightControl[] {
  const out: PlaywrightControl[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*- (\w+)(?: "((?:[^"\\]|\\.)*)")?([^\n]*?)\[ref=([^\]]+)\]/.exec(line);
    if (!m) continue;
    const [, role = "", name = "", rest = "", ref = ""] = m;
    if (controlRoles.has(role) || `${rest}${line}`.includes("[cursor=pointer]")) out.push({ ref, role, name: name.replace(/\\(.)/g, "$1") });
  }
  return out;
}

/** How Baton's refs compare with Playwright's controls on one page. */
export interface ControlComparison {
  readonly pwControls: number;
  /** Playwright's controls whose element has a Baton ref (or a Baton ref standing for it). */
  readonly covered: number;
  readonly missed: readonly string[];
  /** Playwright's controls with a name. */
  readonly pwNamed: number;
  readonly batonRefs: number;
  /** Baton refs with a name that is not a guess from a class word. */
  readonly batonNamed: number;
}

/**
 * In the page: an element's light-tree index, its ancestors' (three levels), and whether a
 * person can see it. (No inner functions: a transpiler that keeps names would wrap them in a
 * helper the page does not have.)
 */
function describeForMatch(el: Element): { index: number; ancestors: number[]; hidden: boolean } {
  const all = [...document.getElementsByTagName("*")];
  const ancestors: number[] = [];
  for (let a = el.parentElement, k = 0; a && k < 3; a = a.parentElement, k++) ancestors.push(all.indexOf(a));
  const r = el.getBoundingClientRect();
  let clipped = false;
  for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
    const b = a.getBoundingClientRect();
    if (getComputedStyle(a).overflow !== "visible" && (b.width <= 2 || b.height <= 2)) clipped = true;
  }
  const hidden = r.width <= 2 || r.height <= 2 || r.right <= 0 || r.bottom <= 0 || clipped || !el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  return { index: all.indexOf(el), ancestors, hidden };
}

/** In the page, called on a Baton ref's element: the light-tree indexes of its parent and grandparent. */
function parentsInPage(this: Element): number[] {
  const all = [...document.getElementsByTagName("*")];
  const p = this.parentElement;
  return [p ? all.indexOf(p) : -1, p?.parentElement ? all.indexOf(p.parentElement) : -1];
}

/**
 * Compares Playwright's controls (`pwText`, taken on `pwPage`) with Baton's refs (the engine's
 * last snapshot of the same URL). A control counts as covered when its element has a Baton ref,
 * or, when a person cannot see it (a select hidden behind its custom replacement, a terminal's
 * helper field, a checkbox behind its label), when a Baton ref contains it or sits beside it
 * under the same parent or grandparent (the control Baton lists for it).
 */
export async function compareControls(engine: Engine, pwPage: Page, pwText: string): Promise<ControlComparison> {
  const elements = engine.lastSnapshot?.elements ?? [];
  const entries = elements.map((e) => engine.refs.get(e.ref)!);
  const indexes = await lightIndexes(engine.page, entries.map((e) => e.backendNodeId));
  const own = new Set(indexes);
  const around = new Set<number>();
  for (const e of entries) {
    const { object } = await engine.page.send<{ object: { objectId: string } }>("DOM.resolveNode", { backendNodeId: e.backendNodeId });
    const r = await engine.page.send<{ result: { value?: number[] } }>("Runtime.callFunctionOn", {
      objectId: object.objectId,
      functionDeclaration: parentsInPage.toString(),
      returnByValue: true,
    });
    for (const i of r.result.value ?? []) around.add(i);
  }
  const controls = playwrightControls(pwText);
  let covered = 0;
  const missed: string[] = [];
  for (const c of controls) {
    const handle = await pwPage.locator(`aria-ref=${c.ref}`).elementHandle({ timeout: 1000 }).catch(() => null);
    const d = handle ? await handle.evaluate(describeForMatch).catch(() => undefined) : undefined;
    const ok = !!d && (own.has(d.index) || (d.hidden && d.ancestors.some((a) => own.has(a) || around.has(a))));
    if (ok) covered++;
    else missed.push(`${c.role} "${c.name}"`);
  }
  return {
    pwControls: controls.length,
    covered,
    missed,
    pwNamed: controls.filter((c) => c.name.trim() !== "").length,
    batonRefs: elements.length,
    batonNamed: elements.filter((e) => e.name.trim() !== "" && !e.states.includes("guess")).length,
  };
}
