/**
 * Page functions of typing and key presses (`actions/keyboard.ts`): the engine sends each by its source
 * (`base/page-function.ts`), so each uses nothing from outside its body.
 */

/** What kind of text field an element (`this`) is, whether it takes text now, and whether it has the focus. */
export function fieldInfo(this: Element): { kind: "input" | "editable" | "value" | "other"; disabled: boolean; readOnly: boolean; multiline: boolean; focused: boolean } {
  const notText = ["checkbox", "radio", "file", "button", "submit", "reset", "image"];
  const byValue = ["date", "time", "datetime-local", "month", "week", "color", "range"];
  const field = this as Partial<HTMLInputElement>;
  const type = field.type ?? "";
  const input = this.localName === "textarea" || (this.localName === "input" && !notText.includes(type) && !byValue.includes(type));
  const kind = input ? "input" : this.localName === "input" && byValue.includes(type) ? "value" : (this as HTMLElement).isContentEditable ? "editable" : "other";
  const focused = (this.getRootNode() as Document | ShadowRoot).activeElement === this && document.hasFocus();
  return { kind, disabled: !!field.disabled, readOnly: !!field.readOnly, multiline: this.localName === "textarea" || kind === "editable", focused };
}

/** Selects a field's (`this`) whole content, so the next key replaces it. */
export function selectContents(this: Element): void {
  if (this.localName === "input" || this.localName === "textarea") {
    (this as HTMLInputElement).select();
    return;
  }
  const r = document.createRange();
  r.selectNodeContents(this);
  const s = getSelection();
  s?.removeAllRanges();
  s?.addRange(r);
}

/**
 * Waits, called on a field, for a list of suggestions to appear near it (a listbox, a menu, a
 * list, or any element holding several items) and be still for a moment: up to `capMs`.
 * Resolves to the items' text, or [] when none came.
 */
export function suggestionsInPage(this: Element, capMs: number): Promise<string[]> {
  const field = this;
  const squeeze = (s: string | null | undefined): string => (s ?? "").replace(/\s+/g, " ").trim();
  const shown = (el: Element): boolean => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  };
  const near = (el: Element): boolean => {
    const f = field.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    const overlapX = Math.min(f.right, r.right) - Math.max(f.left, r.left) > 0;
    return overlapX && r.top < f.bottom + 60 && r.bottom > f.top - 400 && !el.contains(field);
  };
  const itemsOf = (list: Element): string[] => {
    const role = list.getAttribute("role");
    const options = role === "listbox" || role === "menu" || role === "grid" ? [...list.querySelectorAll('[role="option"],[role="menuitem"],[role="gridcell"]')] : [];
    const items = options.length ? options : [...list.children];
    return items.filter(shown).map((i) => squeeze((i as HTMLElement).innerText ?? i.textContent)).filter((t) => t !== "").slice(0, 20);
  };
  const find = (): string[] => {
    const lists = document.querySelectorAll('[role="listbox"],[role="menu"],[role="grid"],ul,ol,datalist');
    for (const list of lists) {
      if (!shown(list) || !near(list)) continue;
      const items = itemsOf(list);
      if (items.length > 0) return items;
    }
    // Lists built from <div>s: an element just below the field holding several shown children,
    // floating itself or inside a floating menu (react-select's menu holds a menu list).
    const floating = (el: Element | null): boolean => {
      const p = el ? getComputedStyle(el).position : "";
      return p === "absolute" || p === "fixed";
    };
    for (const el of document.querySelectorAll("body *")) {
      if (el.children.length < 2 || !shown(el) || !near(el) || el.contains(field)) continue;
      if (!floating(el) && !floating(el.parentElement) && !floating(el.parentElement?.parentElement ?? null)) continue;
      const items = itemsOf(el);
      if (items.length >= 2) return items;
    }
    return [];
  };
  return new Promise((resolve) => {
    const start = performance.now();
    let last = "";
    let stableSince = 0;
    const tick = (): void => {
      const items = find();
      const key = items.join("\n");
      const now = performance.now();
      if (items.length && key === last) {
        if (now - stableSince >= 80) return resolve(items);
      } else {
        last = key;
        stableSince = now;
      }
      if (now - start >= capMs) return resolve(items);
      setTimeout(tick, 40);
    };
    tick();
  });
}

/** Whether a field (`this`) has its document's or shadow root's focus. */
export function hasFocus(this: Element): boolean {
  return (this.getRootNode() as Document | ShadowRoot).activeElement === this;
}

/** Puts the caret at the end of a field's (`this`) content, so typing appends. */
export function caretAtEnd(this: Element): void {
  if (this.localName === "input" || this.localName === "textarea") {
    const f = this as HTMLInputElement;
    try {
      f.setSelectionRange(f.value.length, f.value.length);
    } catch {
      // Types without a selection (email, number) keep the caret where the click put it.
    }
    return;
  }
  const r = document.createRange();
  r.selectNodeContents(this);
  r.collapse(false);
  const s = getSelection();
  s?.removeAllRanges();
  s?.addRange(r);
}

/** In the page: focuses the control of a `<label>` (true), or does nothing for another element. */
export function focusLabelControl(this: Element): boolean {
  const control = this instanceof HTMLLabelElement ? this.control : null;
  if (!control) return false;
  (control as HTMLElement).focus({ preventScroll: true });
  return true;
}
