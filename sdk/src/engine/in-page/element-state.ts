/**
 * Page functions about one element or the focus (see `base/page-function.ts`), shared by the
 * engine, its actions and the DOM fallback's agent. Elements are told apart by tag, not by
 * `instanceof`: an element of another frame belongs to another realm.
 */

/** Whether the element (`this`) is still in its document. */
export function isConnected(this: Node): boolean {
  return this.isConnected;
}

/** The focused element, followed into open shadow roots and same-origin frames. */
export function deepestActive(): Element | null {
  let a = document.activeElement;
  for (let i = 0; i < 50 && a; i++) {
    if (a.shadowRoot?.activeElement) {
      a = a.shadowRoot.activeElement;
      continue;
    }
    if (a.localName === "iframe" || a.localName === "frame") {
      try {
        const inner = (a as HTMLIFrameElement).contentDocument?.activeElement;
        if (inner) {
          a = inner;
          continue;
        }
      } catch {
        // A cross-origin frame: its own session is asked next.
      }
    }
    break;
  }
  return a;
}

/** A field's whole value (`this`): an input's or textarea's value, an editing host's text, else "". */
export function fieldValue(this: Element): string {
  if (this.localName === "input" || this.localName === "textarea" || this.localName === "select") return String((this as HTMLInputElement).value);
  return (this as HTMLElement).isContentEditable ? (this as HTMLElement).innerText : "";
}
