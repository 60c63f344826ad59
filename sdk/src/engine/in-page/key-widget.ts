/**
 * Page functions for keys sent to a widget (`actions/key-widget.ts`): the engine sends each by its
 * source (`base/page-function.ts`), so each uses nothing from outside its body.
 */

/**
 * In the page, on the widget (`this`): what took the focus after the click. "field" for a text
 * field or editing host (anywhere: the helper may sit outside the widget's box), "self" for the
 * widget itself or an element inside it, "none" otherwise; with whether it is multi-line.
 */
export function focusAfterClick(this: Element): { kind: "field" | "self" | "none"; multiline: boolean } {
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === document.body || a === document.documentElement) return { kind: "none", multiline: false };
  const textTypes = ["", "text", "search", "email", "url", "tel", "password", "number"];
  const field = a.localName === "textarea" || (a.localName === "input" && textTypes.includes((a.getAttribute("type") ?? "").toLowerCase())) || (a as HTMLElement).isContentEditable;
  if (field) return { kind: "field", multiline: a.localName === "textarea" || (a as HTMLElement).isContentEditable };
  return { kind: this === a || this.contains(a) ? "self" : "none", multiline: true };
}

/** The widget's visible text (what the typing made it show), for the result's value. */
export function widgetText(this: Element): string {
  return ((this as HTMLElement).innerText ?? this.textContent ?? "").replace(/\s+/g, " ").trim();
}
