import type { AXNode } from "../../cdp/protocol.js";

/** Roles that always get a ref: the things a model acts on. */
export const actionableRoles: ReadonlySet<string> = new Set([
  "button",
  "link",
  "textbox",
  "searchbox",
  "combobox",
  "checkbox",
  "radio",
  "switch",
  "slider",
  "spinbutton",
  "tab",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
  "treeitem",
  "listbox",
  "MenuListOption",
  "ListBoxOption",
  "PopUpButton",
  "ToggleButton",
  "DisclosureTriangle",
  "scrollbar",
  "textField",
  "TextField",
]);

/** Roles printed as context lines without a ref, because they orient the reader. */
export const contextRoles: ReadonlySet<string> = new Set(["heading", "image", "img", "dialog", "alertdialog", "alert"]);

/** Roles that never print: structure, or text already carried by a name. */
export const silentRoles: ReadonlySet<string> = new Set([
  "RootWebArea",
  "WebArea",
  "generic",
  "none",
  "presentation",
  "InlineTextBox",
  "LineBreak",
  "ListMarker",
  "LabelText",
  "MenuListPopup",
]);

/** Short spellings of Chromium's internal role names. */
const roleAliases: Record<string, string> = {
  MenuListOption: "option",
  ListBoxOption: "option",
  PopUpButton: "combobox",
  ToggleButton: "button",
  DisclosureTriangle: "button",
  TextField: "textbox",
  textField: "textbox",
  image: "img",
  // Chromium's internal names for date and time inputs.
  Date: "date",
  DateTime: "datetime",
  InputTime: "time",
};

/** The role as the model sees it. */
export function displayRole(role: string): string {
  return roleAliases[role] ?? role;
}

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
  return out;
}
