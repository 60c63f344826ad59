/**
 * Reading the element lines of `take_snapshot`'s text (the engine writes them in
 * `engine/snapshot/line-format.ts`): one pattern for every reader, so the scripts, the console,
 * the extension and the engine's own screenshot labels agree on what a ref line is.
 */

/**
 * An element line of snapshot text, `e12 button "Save" disabled` (indented; in a diff after its
 * `+ ` or `~ ` mark): the ref, the role, the JSON-style escaped name. A ref in brackets
 * (`[e12] button "Save"`) is read too, as snapshots stored before the bare ref spell it.
 * Anchored at the start of a line, so a ref quoted in page text is never read as an element.
 */
export const refLinePattern = /^[ \t]*(?:[+~] [ \t]*)?\[?(e\d+)\]?[ \t]+([A-Za-z][\w-]*)(?:[ \t]+"((?:[^"\\]|\\.)*)")?/;

/** A ref's role and name as a snapshot line gives them. */
export interface RefLabel {
  readonly role: string;
  readonly name: string;
}

/** Adds the role and name of every element line of a snapshot text to `into`, by ref. */
export function refLabels(text: string, into: Map<string, RefLabel>): void {
  for (const m of text.matchAll(new RegExp(refLinePattern.source, "gm"))) {
    into.set(m[1] ?? "", { role: m[2] ?? "", name: (m[3] ?? "").replace(/\\(.)/g, "$1") });
  }
}

/** The refs a snapshot text (or a diff of one) shows, in order. */
export function refsInText(text: string): string[] {
  return [...text.matchAll(new RegExp(refLinePattern.source, "gm"))].map((m) => m[1] ?? "");
}
