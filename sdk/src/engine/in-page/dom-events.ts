/** Synthetic events and value setting of the DOM agent (its actions are events, not CDP input). */
import { isTag } from "./elements.js";

/** Dispatches a synthetic mouse or pointer event at a client point; false when a handler cancelled it. */
export const mouse = (target: Element, type: string, x: number, y: number, extra?: MouseEventInit): boolean => {
  const Ctor = type.startsWith("pointer") ? PointerEvent : MouseEvent;
  const init: PointerEventInit = { bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, view: target.ownerDocument.defaultView, pointerId: 1, pointerType: "mouse", isPrimary: true, ...extra };
  return target.dispatchEvent(new Ctor(type, init));
};
/** Sets a field's value through its native setter, so the page's framework sees the change. */
export const setValue = (el: HTMLInputElement | HTMLTextAreaElement, value: string): void => {
  const win = el.ownerDocument.defaultView ?? window;
  const proto = isTag(el, "textarea") ? win.HTMLTextAreaElement.prototype : win.HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, "value")?.set?.call(el, value);
};
/** Dispatches a synthetic keyboard event; false when a handler cancelled it. */
export const key = (target: Element, type: string, k: string): boolean =>
  target.dispatchEvent(new KeyboardEvent(type, { key: k, code: k.length === 1 ? (/[a-z]/i.test(k) ? `Key${k.toUpperCase()}` : /\d/.test(k) ? `Digit${k}` : "") : k, bubbles: true, cancelable: true, composed: true }));
