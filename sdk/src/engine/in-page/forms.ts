/**
 * Page functions of select_option, upload_file and scroll (`actions/forms.ts`): the engine sends
 * each by its source (`base/page-function.ts`), so each uses nothing from outside its body.
 */

/**
 * Selects the options of a native select (`this`) matching `wanted` by label or value (exactly,
 * then ignoring case and spacing), firing input and change.
 */
export function selectInPage(this: HTMLSelectElement, wanted: readonly string[]): { error?: string; selected?: string[]; available?: string[] } {
  if (this.localName !== "select") return { error: "not-select" };
  if (this.disabled) return { error: "disabled" };
  const opts = [...this.options];
  const norm = (s: string): string => s.replace(/\s+/g, " ").trim().toLowerCase();
  const pick: HTMLOptionElement[] = [];
  for (const w of wanted) {
    const o = opts.find((o) => o.label === w || o.value === w) ?? opts.find((o) => norm(o.label) === norm(w) || norm(o.value) === norm(w));
    if (!o) return { error: "missing", available: opts.map((o) => o.label).slice(0, 50) };
    pick.push(o);
  }
  if (!this.multiple && pick.length > 1) return { error: "single" };
  for (const o of opts) o.selected = pick.includes(o);
  this.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  this.dispatchEvent(new Event("change", { bubbles: true }));
  return { selected: [...this.selectedOptions].map((o) => o.label) };
}

/** Whether the element (`this`) is a file input. */
export function isFileInput(this: Element): boolean {
  return this.localName === "input" && (this as HTMLInputElement).type === "file";
}

/** The names of a file input's (`this`) files. */
export function fileNames(this: HTMLInputElement): string[] {
  return [...(this.files ?? [])].map((f) => f.name);
}

/** The element's (`this`) top-left corner in the viewport. */
export function topLeft(this: Element): [number, number] {
  const r = this.getBoundingClientRect();
  return [r.x, r.y];
}

/**
 * Scrolls the element (`this`), or the document when called on the document, by `pixels` (or
 * 80% of its size) or to its edge; whether it moved.
 */
export function scrollInPage(this: unknown, vertical: boolean, sign: number, pixels: number, toEdge: boolean): boolean {
  const el = (this as Node | undefined)?.nodeType === 1 ? (this as Element) : (document.scrollingElement ?? document.documentElement);
  const before = [el.scrollLeft, el.scrollTop];
  const amount = pixels || Math.round((vertical ? el.clientHeight || innerHeight : el.clientWidth || innerWidth) * 0.8);
  const d = toEdge ? 1e9 * sign : amount * sign;
  el.scrollBy({ left: vertical ? 0 : d, top: vertical ? d : 0, behavior: "instant" });
  return before[0] !== el.scrollLeft || before[1] !== el.scrollTop;
}
