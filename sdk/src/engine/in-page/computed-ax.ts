/**
 * The page function of the computed accessibility read (`read/computed-ax.ts`); the engine sends it by
 * its source (`base/page-function.ts`), so it uses nothing from outside its body.
 */

/**
 * Runs in the isolated hit world. Per element (light-tree index and tag, checked against the
 * page as in the batched hit test): `[role, name, value, flags]` from Blink's accessibility
 * tree and, for native controls, the DOM state Chromium's AX node reports (flags: 1 checked,
 * 2 mixed, 4 required, 8 read-only, 16 multiline (a textarea), 32/64 an expanded/collapsed summary, 128 focusable; Chromium reports required and read-only for text fields
 * only, not for checkboxes, radios or selects). Null for an element that must take the AX
 * read after all: a role other than expected, disabled through a fieldset or an ancestor's
 * aria-disabled, editable, focused, an open select. False overall when the feature is off,
 * null when the document changed.
 */
export function readInPage(
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
    // (Visibility is checked here: a control made transparent keeps its AX node, a hidden one does not.)
    if (
      !el ||
      el.nodeName !== tag ||
      el === active ||
      (el as Element as HTMLElement).isContentEditable ||
      el.matches(":disabled") ||
      el.closest('[aria-disabled="true"]') ||
      getComputedStyle(el).visibility !== "visible"
    ) {
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
    } else if (el.localName === "label") {
      // A label standing for its hidden control: Chromium's LabelText, which has no ARIA role.
      if (role === "") row = ["LabelText", el.computedName, "", 0];
    } else if (el.hasAttribute("tabindex") && !(el instanceof HTMLAnchorElement) && !(el instanceof HTMLButtonElement)) {
      // A focusable element with no role of its own (a slider's handle).
      if (role === "generic") row = ["generic", el.computedName, "", 128];
    } else if (stateless.includes(role)) {
      row = [role, el.computedName, "", 0];
    }
    out.push(row);
  }
  return out;
}

/** What the page call returns per element: role, name, value, flags, and a range's bounds. */
export type Row = [string, string, string, number] | [string, string, string, number, number, number];
