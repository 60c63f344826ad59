/** Names, values and states of live elements, as the DOM agent prints them. */
import { rules as R } from "./element-rules.js";
import { html, isTag, squeeze, styleOf } from "./elements.js";
import { isEditHost } from "./dom-roles.js";

/** Text a user sees inside an element: not at font-size 0, not an icon font's ligature, not hidden. */
export const shownText = (root: Element, max: number): string => {
  let out = "";
  const visit = (n: Node): void => {
    if (out.length > max) return;
    for (const c of n.childNodes) {
      if (c.nodeType === 3) {
        const parent = c.parentElement;
        if (parent && parent.checkVisibility({ visibilityProperty: true, opacityProperty: true }) && styleOf(parent).fontSize !== "0px" && !R.isIconFont({ attr: (name) => parent.getAttribute(name) })) out += ` ${c.textContent ?? ""}`;
      } else if (c.nodeType === 1 && !["SCRIPT", "STYLE", "TEMPLATE"].includes((c as Element).tagName)) visit(c);
    }
  };
  visit(root);
  return squeeze(out).slice(0, 200);
};
/** An element's text without that of the fields and buttons inside it (a label's own words). */
export const textSkipping = (node: Node): string => {
  let out = "";
  for (const c of node.childNodes) {
    if (c.nodeType === 3) out += c.textContent;
    else if (c.nodeType === 1 && !["INPUT", "SELECT", "TEXTAREA", "BUTTON", "SCRIPT", "STYLE"].includes((c as Element).tagName)) out += ` ${textSkipping(c)}`;
  }
  return out;
};
/** The element's accessible name, as far as the live DOM tells it. */
export const nameOf = (el: Element, role: string): string => {
  const lb = el.getAttribute("aria-labelledby");
  if (lb) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const t = squeeze(
      lb
        .split(/\s+/)
        .map((id) => root.getElementById?.(id) ?? el.ownerDocument.getElementById(id))
        .filter((n): n is HTMLElement => !!n)
        .map((n) => n.textContent)
        .join(" "),
    );
    if (t) return t;
  }
  const al = squeeze(el.getAttribute("aria-label"));
  if (al) return al;
  if (isTag(el, "input") || isTag(el, "textarea") || isTag(el, "select")) {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (type === "submit" || type === "button" || type === "reset") return el.value || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : "");
    const labels = el.labels ? squeeze([...el.labels].map(textSkipping).join(" ")) : "";
    if (labels) return labels;
    return squeeze(el.getAttribute("placeholder") || el.getAttribute("title") || "");
  }
  if (el.tagName === "IMG") return squeeze(el.getAttribute("alt"));
  if (isEditHost(el)) return squeeze(el.getAttribute("title") || "");
  if (R.nameFromContent(role)) return shownText(el, 200);
  return squeeze(el.getAttribute("title") || "");
};
/** A field's value as the snapshot prints it (a password masked). */
export const valueOf = (el: Element, role: string): string => {
  if (isTag(el, "select")) return el.multiple ? "" : squeeze(el.selectedOptions[0] ? el.selectedOptions[0].label : "");
  if (isTag(el, "input")) {
    const t = (el.type || "").toLowerCase();
    if (t === "checkbox" || t === "radio" || t === "submit" || t === "button" || t === "reset" || t === "image") return "";
    if (t === "file") return el.files?.length ? [...el.files].map((f) => f.name).join(", ") : "No file chosen";
    if (t === "password") return el.value ? "••••" : "";
    return el.value;
  }
  if (isTag(el, "textarea")) return el.value;
  if (role === "textbox" && html(el)?.isContentEditable) return squeeze(html(el)?.innerText ?? el.textContent);
  return "";
};
/** The states the snapshot prints for the element (checked, expanded, focused, …). */
export const statesOf = (el: Element, role: string, active: Element | null): string[] => {
  const out: string[] = [];
  const aria = (n: string): string | null => el.getAttribute(n);
  const field = el as Partial<HTMLInputElement & HTMLOptionElement>;
  if (role === "checkbox" || role === "radio" || role === "switch") {
    const c = isTag(el, "input") ? (el.indeterminate ? "mixed" : String(el.checked)) : aria("aria-checked");
    out.push(c === "true" ? "checked" : c === "mixed" ? "mixed" : "unchecked");
  }
  if (aria("aria-pressed") === "true") out.push("pressed");
  if (field.disabled || aria("aria-disabled") === "true") out.push("disabled");
  const expanded = aria("aria-expanded") ?? (el.tagName === "SUMMARY" && el.parentElement?.tagName === "DETAILS" ? String((el.parentElement as HTMLDetailsElement).open) : null);
  if (expanded === "true") out.push("expanded");
  else if (expanded === "false" || role === "combobox") out.push("collapsed");
  if (field.selected === true || aria("aria-selected") === "true") out.push("selected");
  if (el === active) out.push("focused");
  if (field.readOnly === true) out.push("readonly");
  if (field.required === true) out.push("required");
  if (isTag(el, "textarea") || (isEditHost(el) && el.getAttribute("aria-multiline") !== "false")) out.push("multiline");
  if (role === "slider") {
    const input = isTag(el, "input");
    const min = input ? Number(el.min || 0) : Number(aria("aria-valuemin") ?? Number.NaN);
    const max = input ? Number(el.max || 100) : Number(aria("aria-valuemax") ?? Number.NaN);
    if (Number.isFinite(min) && Number.isFinite(max)) out.push(`range ${min}–${max}`);
  }
  return out;
};
