import type { AXNode } from "../../cdp/protocol.js";
import { declaration } from "../base/page-function.js";
import type { PageSession } from "../page/page-session.js";
import { readInPage, type Row } from "../in-page/computed-ax.js";

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
 * states, role, tabindex, disabled, contenteditable, a datalist, a list-box select). Also a
 * `<label>` standing for a hidden control (`standIn`: Chromium's LabelText, never named), and
 * an element of no other kind whose only such attribute is `tabindex` (a slider's handle: a
 * focusable generic, checked as such in the page).
 */
export function computedAxEligible(nodeName: string, attrs: ReadonlyMap<string, string>, standIn = false): boolean {
  const tabindexOnly = !computedAxTags.has(nodeName) && nodeName !== "LABEL" && attrs.has("tabindex");
  if (!computedAxTags.has(nodeName) && !(nodeName === "LABEL" && standIn) && !tabindexOnly) return false;
  for (const a of attrs.keys()) if (blockers.has(a) && !(tabindexOnly && a === "tabindex")) return false;
  if (nodeName === "LABEL" || tabindexOnly) return !nodeName.startsWith("#") && !nodeName.startsWith(":");
  if (nodeName === "A") return attrs.has("href");
  if (nodeName === "INPUT") return inputTypes.has((attrs.get("type") ?? "").toLowerCase());
  if (nodeName === "SELECT") return Number(attrs.get("size") ?? "0") <= 1;
  return true;
}

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
    if (flags & 128) properties.push({ name: "focusable", value: { type: "booleanOrUndefined", value: true } });
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
