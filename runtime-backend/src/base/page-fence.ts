/**
 * The fence around page data in a prompt, as text: its tag and how to read what is inside.
 * `context/page-data.ts` writes fences; scripted models and tests read through them here.
 */

/** The fence's tag name. */
export const pageDataTag = "page-data";

const fenced = new RegExp(`^<${pageDataTag} fence="([0-9a-f]+)"[^>\\n]*>\\n([\\s\\S]*)\\n</${pageDataTag} fence="\\1">$`);

/** The output inside a fence (itself when it is not fenced): what tests and scripts read. */
export function unfence(output: string): string {
  return fenced.exec(output)?.[2] ?? output;
}

const anyFence = new RegExp(`<${pageDataTag} fence="([0-9a-f]+)"[^>\\n]*>\\n[\\s\\S]*?\\n</${pageDataTag} fence="\\1">`, "g");

/** The text with every fenced region cut out (each marked `‹fenced›`): what a model reads as trusted. */
export function outsideFences(text: string): string {
  return text.replace(anyFence, "‹fenced›");
}
