import type { AXNode } from "../../cdp/protocol.js";
import { declaration } from "../base/page-function.js";
import type { PageSession } from "../page/page-session.js";

/**
 * The Blink feature that gives elements `computedRole` and `computedName`: the role and name
 * of their node in Blink's accessibility tree, the same values `Accessibility.getPartialAXTree`
 * returns. `launchChromium` turns it on; a browser started without it (`--cdp-url`, the
 * extension) simply takes the per-node read.
 */
export const computedAxFeature = "ComputedAccessibilityInfo";

/**
 * Roles whose printed line is fully given by role and name once the element carries no state
 * (no ARIA state attribute, not disabled, not focused, not editable): links, buttons, headings
 * (level from the tag) and images. (Not dialogs: Chromium makes an open `<dialog>` focusable,
 * which gives it a ref.)
 */
const statelessRoles = ["link", "button", "heading", "image"] as const;

/** Tags that may take this path, with the heading level a tag implies. */
const headingLevels: Readonly<Record<string, number>> = { H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 };

/** Tags whose elements may take this path (native controls only as `computedAxEligible` allows). */
export const computedAxTags: ReadonlySet<string> = new Set([
  "A",
  "BUTTON",
  "IMG",
  "INPUT",
  "TEXTAREA",
  "SELECT",
  "SUMMARY",
  "svg",
  ...Object.keys(headingLevels),
]);

/**
 * Input types whose AX node is a fixed role by type, the computed name and the DOM's value (a
 * range adds its bounds): Chromium's roles for them, which `computedRole` does not spell.
 */
const pickerRoles: Readonly<Record<string, string>> = {
  date: "Date",
  "datetime-local": "DateTime",
  week: "DateTime",
  month: "DateTime",
  time: "InputTime",
  color: "ColorWell",
  range: "slider",
};

/** Input types whose AX facts are a role, a name, and the DOM's own value, checkedness and flags. */
const inputTypes: ReadonlySet<string> = new Set(["", "text", "search", "email", "tel", "url", "checkbox", "radio", ...Object.keys(pickerRoles)]);

/**
 * Attributes that put state or a different role on an element (or its subtree): such an
 * element keeps the AX read, which reports that state exactly as Chromium computes it.
 */
const blockers: ReadonlySet<string> = new Set([
  "role",
  // Makes a heading or image focusable, which gives it a ref.
  "tabindex",
  "contenteditable",
  "disabled",
  "list",
  "multiple",
  // Invoker buttons: Chromium reports their popover as expanded or collapsed.
  "popovertarget",
  "commandfor",
  "aria-expanded",
  "aria-pressed",
  "aria-checked",
  "aria-selected",
  "aria-disabled",
  "aria-readonly",
  "aria-required",
  "aria-invalid",
  "aria-level",
  "aria-valuenow",
  "aria-valuetext",
  "aria-hidden",
  "inert",
]);

/**
 * Whether an element (tag and attributes, from the DOMSnapshot) may take this path: a link with
 * an href, a button, heading or image, a text-like input, checkbox or radio, a textarea, or a
 * single-choice select, with none of the attributes that bring state Chromium computes (ARIA
 * states, role, tabindex, disabled, contenteditable, a datalist, a list-box select).
 */
export function computedAxEligible(nodeName: string, attrs: ReadonlyMap<string, string>): boolean {
  if (!computedAxTags.has(nodeName)) return false;
  for (const a of attrs.keys()) if (blockers.has(a)) return false;
  if (nodeName === "A") return attrs.has("href");
  if (nodeName === "INPUT") return inputTypes.has((attrs.get("type") ?? "").toLowerCase());
  if (nodeName === "SELECT") return Number(attrs.get("size") ?? "0") <= 1;
  return true;
}

/**
 * Runs in the isolated hit world. Per element (light-tree index and tag, checked against the
 * page as in the batched hit test): `[role, name, value, flags]` from Blink's accessibility
 * tree and, for native controls, the DOM state Chromium's AX node reports (flags: 1 checked,
 * 2 mixed, 4 required, 8 read-only, 16 multiline (a textarea), 32/64 an expanded/collapsed summary; Chromium reports required and read-only for text fields
 * only, not for checkboxes, radios or selects). Null for an element that must take the AX
 * read after all: a role other than expected, disabled through a fieldset or an ancestor's
 * aria-disabled, editable, focused, an open select. False overall when the feature is off,
 * null when the document changed.
 */
function readInPage(
  count: number,
  items: (number | string)[],
  stateless: readonly string[],
  pickers: Readonly<Record<string, string>>,
): (Row | null)[] | null | false {
  type Computed = Element & { computedRole: string; computedName: string };
  if (!("computedName" in Element.prototype)) return false;
  const all = document.getElementsByTagName("*");
  if (all.length !== count) return null;
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  const open = (el: Element): boolean => {
    try {
      return el.matches(":open");
    } catch {
      return false;
    }
  };
  const out: (Row | null)[] = [];
  for (let i = 0; i + 1 < items.length; i += 2) {
    const el = all[items[i] as number] as Computed | undefined;
    const tag = items[i + 1];
    if (!el || el.nodeName !== tag || el === active || (el as Element as HTMLElement).isContentEditable || el.matches(":disabled") || el.closest('[aria-disabled="true"]')) {
      out.push(null);
      continue;
    }
    const role = el.computedRole;
    let row: Row | null = null;
    const picker = el instanceof HTMLInputElement ? pickers[el.type] : undefined;
    if (el instanceof HTMLInputElement && picker !== undefined) {
      // Required or read-only pickers keep the AX read (their flags are not modelled here).
      if (!el.required && !el.readOnly) {
        if (el.type === "range") {
          const min = el.min === "" || isNaN(Number(el.min)) ? 0 : Number(el.min);
          const max = el.max === "" || isNaN(Number(el.max)) ? 100 : Number(el.max);
          if (role === "slider") row = [picker, el.computedName, el.value, 0, min, Math.max(min, max)];
        } else {
          row = [picker, el.computedName, el.value, 0];
        }
      }
    } else if (el.localName === "summary") {
      // A details element's own summary: a disclosure triangle, expanded while the details is open.
      const details = el.parentElement;
      if (details instanceof HTMLDetailsElement && details.querySelector(":scope > summary") === el) row = ["DisclosureTriangle", el.computedName, "", details.open ? 32 : 64];
    } else if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
      if (role === el.type) row = [role, el.computedName, "", el.indeterminate && el.type === "checkbox" ? 2 : el.checked ? 1 : 0];
    } else if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      if (role === "textbox" || role === "searchbox") row = [role, el.computedName, el.value, (el.required ? 4 : 0) | (el.readOnly ? 8 : 0) | (el.localName === "textarea" ? 16 : 0)];
    } else if (el instanceof HTMLSelectElement) {
      const o = el.selectedOptions[0];
      if (role === "combobox" && !el.multiple && el.size <= 1 && !open(el)) row = [role, el.computedName, o ? o.label : "", 0];
    } else if (stateless.includes(role)) {
      row = [role, el.computedName, "", 0];
    }
    out.push(row);
  }
  return out;
}

/** What the page call returns per element: role, name, value, flags, and a range's bounds. */
type Row = [string, string, string, number] | [string, string, string, number, number, number];

/** An element of the top document's light tree to read this way. */
export interface ComputedAxItem {
  readonly backendId: number;
  readonly lightIndex: number;
  readonly nodeName: string;
}

/** Pages whose browser lacks the feature: asked once, then never again. */
const unsupported = new WeakSet<PageSession>();

/** Whether `readComputedAx` may be worth a call on this page (false once the browser said it lacks the feature). */
export function computedAxSupported(page: PageSession): boolean {
  return !unsupported.has(page);
}

/**
 * AX nodes for light-tree elements of the top document, read in one page call instead of one
 * `getPartialAXTree` each (on a listing, ~80 round trips of ~0.4 ms of renderer time each).
 * Resolves to one node per item, undefined for an element that must take the AX read, or to
 * undefined overall when the call could not run (feature off, document changed): then nothing
 * was decided.
 */
export async function readComputedAx(
  page: PageSession,
  contextId: number,
  lightElements: number,
  items: readonly ComputedAxItem[],
): Promise<(AXNode | undefined)[] | undefined> {
  if (items.length === 0) return [];
  let r: { result: { value?: (Row | null)[] | null | false }; exceptionDetails?: unknown };
  try {
    r = await page.send("Runtime.callFunctionOn", {
      functionDeclaration: declaration(readInPage),
      executionContextId: contextId,
      arguments: [{ value: lightElements }, { value: items.flatMap((it) => [it.lightIndex, it.nodeName]) }, { value: statelessRoles }, { value: pickerRoles }],
      returnByValue: true,
    });
  } catch {
    return undefined;
  }
  const got = r.result.value;
  if (got === false) unsupported.add(page);
  if (r.exceptionDetails || !Array.isArray(got) || got.length !== items.length) return undefined;
  return items.map((it, i): AXNode | undefined => {
    const v = got[i];
    if (!v) return undefined;
    const [role, name, value, flags, min, max] = v;
    const level = headingLevels[it.nodeName];
    if (role === "heading" && level === undefined) return undefined;
    const properties: NonNullable<AXNode["properties"]> = [];
    if (role === "heading") properties.push({ name: "level", value: { type: "integer", value: level } });
    if (role === "checkbox" || role === "radio") {
      properties.push({ name: "checked", value: { type: "tristate", value: flags & 2 ? "mixed" : flags & 1 ? "true" : "false" } });
    }
    if (role === "combobox") properties.push({ name: "expanded", value: { type: "booleanOrUndefined", value: false } });
    if (flags & 4) properties.push({ name: "required", value: { type: "boolean", value: true } });
    if (flags & 8) properties.push({ name: "readonly", value: { type: "boolean", value: true } });
    if (flags & 16) properties.push({ name: "multiline", value: { type: "boolean", value: true } });
    if (flags & 32) properties.push({ name: "expanded", value: { type: "booleanOrUndefined", value: true } });
    if (flags & 64) properties.push({ name: "expanded", value: { type: "booleanOrUndefined", value: false } });
    if (min !== undefined && max !== undefined) {
      properties.push({ name: "valuemin", value: { type: "number", value: min } }, { name: "valuemax", value: { type: "number", value: max } });
    }
    return {
      nodeId: `baton-computed-${it.backendId}`,
      ignored: false,
      role: { type: "role", value: role },
      name: { type: "computedString", value: name },
      ...(value ? { value: { type: "string", value } } : {}),
      properties,
      backendDOMNodeId: it.backendId,
      childIds: [],
    };
  });
}
