import { isSecretField } from "../client/describe-call.js";
import type { ScriptCall } from "./script-file.js";
import { isTarget } from "./targets.js";

/** The argument holding the text a tool types (type_text's `text`, set_value's `value`). */
function typedKey(tool: string): "text" | "value" | undefined {
  return tool === "type_text" ? "text" : tool === "set_value" ? "value" : undefined;
}

/** Whether a text is only secret placeholders (`<secret>name</secret>`), which name a value without holding it. */
export function onlyPlaceholders(text: string): boolean {
  return /<secret>/.test(text) && text.replace(/<secret>\s*[^<]*?\s*<\/secret>/g, "").trim() === "";
}

/**
 * The argument of a script call that types into a field named like a password, PIN or token
 * (its target's accessible name, as `describeCall` judges it) when it holds text that is not
 * just placeholders: that text must never be written to a script or printed.
 */
export function secretTypingKey(call: { readonly name: string; readonly args?: ScriptCall["args"] }): "text" | "value" | undefined {
  const key = typedKey(call.name);
  const args = call.args;
  if (!key || typeof args !== "object") return undefined;
  const text = args[key];
  if (typeof text !== "string" || text === "" || onlyPlaceholders(text)) return undefined;
  return isTarget(args.ref) && isSecretField(args.ref.name) ? key : undefined;
}
