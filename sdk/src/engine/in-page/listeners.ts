/**
 * Page functions of the listener read (`read/listeners.ts`): the engine sends each by its source
 * (`base/page-function.ts`), so each uses nothing from outside its body.
 */

/** In the page: an element's (`this`) document. */
export function ownerDocument(this: Element): Document {
  return this.ownerDocument;
}

/** In the page: an element's (`this`) window. */
export function ownerWindow(this: Element): Window | null {
  return this.ownerDocument.defaultView;
}
