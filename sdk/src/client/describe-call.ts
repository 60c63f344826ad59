import type { ToolCall } from "@baton/gen/baton/v1/tools_pb";

/** What the progress line knows about an element: its role and accessible name. */
export interface ElementLabel {
  readonly role: string;
  readonly name: string;
}

/** Looks a ref up (in the engine's latest snapshot); undefined when unknown. */
export type RefLookup = (ref: string) => ElementLabel | undefined;

/** Names that mean the typed text is a secret, so the progress line must not echo it. */
const SECRET_NAME = /pass(word|code|phrase)?|\bpin\b|secret|token|api.?key|cvc|cvv|security code/i;

/** Whether text typed into an element of this name should be masked in output. */
export function isSecretField(name: string | undefined): boolean {
  return SECRET_NAME.test(name ?? "");
}

/** Text typed into a secret field, as output shows it: bullets, never the characters. */
export function secretBullets(text: string): string {
  return "•".repeat(Math.min(8, Math.max(4, text.length)));
}

/** A tab id as people read it: a CDP target id (32 hex digits) by its first 8, a Chrome tab number whole. */
function tabLabel(id: string): string {
  return id.length > 12 ? id.slice(0, 8) : id;
}

function clip(s: string, n = 60): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

/** `'Submit'` for a named element, `the textbox e7` for an unnamed one. */
function label(ref: string, lookup: RefLookup): string {
  const el = lookup(ref);
  if (!el) return ref || "the page";
  return el.name ? `'${clip(el.name, 50)}'` : `the ${el.role} ${ref}`;
}

/**
 * A short sentence a person can follow for a tool call (the CLI's progress lines, the
 * extension's timeline): "Clicking 'Submit'", "Typing "ada" into
 * 'Email'". Refs are named from the latest snapshot; text typed into a field whose name looks
 * like a password is masked, so a run's output never shows it.
 */
export function describeCall(call: ToolCall, lookup: RefLookup): string {
  const t = call.tool;
  switch (t.case) {
    case "navigate":
      return `Opening ${t.value.url}`;
    case "goBack":
      return "Going back";
    case "takeSnapshot":
      return "Reading the page";
    case "click":
      return `Clicking ${label(t.value.ref, lookup)}${t.value.irreversible ? " (irreversible)" : ""}`;
    case "typeText": {
      const secret = isSecretField(lookup(t.value.ref)?.name);
      const text = secret ? secretBullets(t.value.text) : `"${clip(t.value.text, 40)}"`;
      return `Typing ${text} into ${label(t.value.ref, lookup)}${t.value.pressEnter ? " and pressing Enter" : ""}`;
    }
    case "pressKeys":
      return `Pressing ${t.value.keys.join(", ")}${t.value.ref ? ` on ${label(t.value.ref, lookup)}` : ""}`;
    case "scroll":
      return t.value.toRef ? `Scrolling to ${label(t.value.toRef, lookup)}` : "Scrolling";
    case "selectOption":
      return `Choosing ${t.value.values.map((v) => `"${clip(v, 30)}"`).join(", ")} in ${label(t.value.ref, lookup)}`;
    case "hover":
      return `Pointing at ${label(t.value.ref, lookup)}`;
    case "drag":
      return `Dragging ${label(t.value.fromRef, lookup)} onto ${label(t.value.toRef, lookup)}`;
    case "uploadFile":
      return `Uploading ${t.value.paths.length} file(s) to ${label(t.value.ref, lookup)}`;
    case "waitFor":
      return t.value.text ? `Waiting for "${clip(t.value.text, 40)}"` : "Waiting for the page";
    case "screenshot":
      return "Taking a screenshot";
    case "extract":
      return "Reading the page's content";
    case "openTab":
      return `Opening a new tab${t.value.url ? ` at ${t.value.url}` : ""}`;
    case "switchTab":
      return `Switching to tab ${tabLabel(t.value.tabId)}`;
    case "closeTab":
      return t.value.tabId ? `Closing tab ${tabLabel(t.value.tabId)}` : "Closing the tab";
    case "listTabs":
      return "Listing tabs";
    case "askUser":
      return `Asking you: ${clip(t.value.question, 80)}`;
    case "setValue": {
      const secret = isSecretField(lookup(t.value.ref)?.name);
      return `Setting ${label(t.value.ref, lookup)} to ${secret ? secretBullets(t.value.value) : `"${clip(t.value.value, 40)}"`}`;
    }
    case "selectText":
      return `Selecting "${clip(t.value.text, 40)}"${t.value.ref ? ` in ${label(t.value.ref, lookup)}` : ""}`;
    case "searchUserMemory":
      return `Searching memory for "${clip(t.value.query, 60)}"`;
    case "saveMemory":
      return `Remembering "${clip(t.value.text, 60)}"`;
    case "done":
      return "Finishing";
    case undefined:
      return "Running a tool";
    default: {
      // Every tool of the catalog has its sentence: a new one is a compile error here.
      const unknown: never = t;
      return `Running ${(unknown as { case: string }).case}`;
    }
  }
}
