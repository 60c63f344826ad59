/**
 * The spelling of a snapshot line, written once for both engines (CDP and the DOM fallback) and
 * for the diffs built from them. Every character here is read by a model on every snapshot, so
 * nothing is spelled that carries no information: a ref line starts with its bare ref (`e12`,
 * which no other line can start with: text is quoted, a heading starts with `#`, a header with
 * its word), a heading is a Markdown heading, and a level of depth is one space (a single space
 * merges with the token after it; a second one costs a token of its own).
 */
import { quoted, sanitizeText } from "../base/sanitize.js";

/** The indentation of a line at `depth`. */
export function indent(depth: number): string {
  return " ".repeat(depth);
}

/** What a ref line says: `e12 button "Save" = "value" states…`. */
export interface RefLineParts {
  readonly ref: string;
  readonly role: string;
  readonly name: string;
  readonly value?: string;
  readonly states: readonly string[];
  /** The longest value shown (a snapshot scoped to one element shows a field's value whole). */
  readonly valueMax?: number;
}

/** A ref line's text: the ref, the role, the quoted name, ` = "value"` when it differs from the name, the states. */
export function refLineText(p: RefLineParts): string {
  const name = p.name ? ` ${quoted(p.name)}` : "";
  const value = p.value && p.value !== p.name ? ` = ${quoted(p.value, p.valueMax ?? 80)}` : "";
  return `${p.ref} ${p.role}${name}${value}${p.states.length ? ` ${p.states.join(" ")}` : ""}`;
}

/** The most heading levels a Markdown heading spells. */
const maxLevel = 6;

/**
 * A context line (a heading, a landmark, a dialog): a heading as Markdown (`## Billing`, its
 * text to the end of the line), anything else as its role and quoted name.
 */
export function contextLineText(role: string, name: string, level?: number): string {
  if (role === "heading") {
    const marks = "#".repeat(Math.max(1, Math.min(maxLevel, level ?? 2)));
    const text = sanitizeText(name);
    return text ? `${marks} ${text}` : marks;
  }
  return name ? `${role} ${quoted(name)}` : role;
}

/** A heading line (`## Billing`), as `contextLineText` writes it. */
export const headingLine = /^#{1,6}(?= |$)/;
