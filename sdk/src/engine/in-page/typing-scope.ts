/**
 * Page functions of the typing scope (`actions/typing-scope.ts`): the engine sends each by its source
 * (`base/page-function.ts`), so each uses nothing from outside its body.
 */

/** The origin of the document holding the element (`this`): its frame's own (inherited by about:blank and srcdoc frames). */
export function documentOrigin(this: Element): string {
  return self.origin;
}

/** Whether the element (`this`) is its document's focused element, through shadow roots (not into frames). */
export function isDocumentFocus(this: Element): boolean {
  let a = this.ownerDocument.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a === this;
}
