import type { AXNode } from "../../cdp/protocol.js";
import { rules } from "../in-page/element-rules.js";

/** Role tables and spellings, shared with the DOM fallback (`in-page/element-rules.ts`). */
export const actionableRoles: ReadonlySet<string> = rules.actionableRoles;
/** Roles printed as context lines without a ref, because they orient the reader. */
export const contextRoles: ReadonlySet<string> = rules.contextRoles;
/** Roles that never print: structure, or text already carried by a name. */
export const silentRoles: ReadonlySet<string> = rules.silentRoles;
/** The role as the model sees it. */
export const displayRole: (role: string) => string = rules.displayRole;

/** An AX property's value, or undefined. */
export function axProp(node: AXNode, name: string): unknown {
  for (const p of node.properties ?? []) if (p.name === name) return p.value.value;
  return undefined;
}

/** A node's string value (name, value, role). */
export function axString(v: { value?: unknown } | undefined): string {
  const x = v?.value;
  return typeof x === "string" ? x : typeof x === "number" ? String(x) : "";
}

/** The state words printed after an element, such as "checked" or "disabled". */
export function axStates(node: AXNode, role: string): string[] {
  const out: string[] = [];
  const checked = axProp(node, "checked");
  if (checked !== undefined) {
    out.push(checked === "true" ? "checked" : checked === "mixed" ? "mixed" : "unchecked");
  } else if (role === "checkbox" || role === "radio" || role === "switch") {
    out.push("unchecked");
  }
  const pressed = axProp(node, "pressed");
  if (pressed === "true") out.push("pressed");
  if (axProp(node, "disabled") === true) out.push("disabled");
  const expanded = axProp(node, "expanded");
  if (expanded === true) out.push("expanded");
  else if (expanded === false) out.push("collapsed");
  if (axProp(node, "selected") === true) out.push("selected");
  if (axProp(node, "focused") === true) out.push("focused");
  if (axProp(node, "readonly") === true) out.push("readonly");
  if (axProp(node, "required") === true) out.push("required");
  if (axProp(node, "multiline") === true) out.push("multiline");
  // A slider's range, where the page gives one.
  const min = axProp(node, "valuemin");
  const max = axProp(node, "valuemax");
  if (role === "slider" && typeof min === "number" && typeof max === "number") out.push(`range ${min}–${max}`);
  return out;
}
