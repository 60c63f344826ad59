/** What the tags in a model's text said. */
export interface ParsedTags {
  /** The text with every control tag removed, for the user. */
  readonly visible: string;
  /** The `<goal>` content, when present. */
  readonly goal: string | undefined;
  /** True when the model marked the message as not a task (`<non-task>`). */
  readonly nonTask: boolean;
  /** A `<context>` note (micro summary), when present and not a fold. */
  readonly note: string | undefined;
  /** A `<fold>` inside `<context>`: the macro summary replacing the micro summaries. */
  readonly fold: string | undefined;
}

const goalRe = /<goal>([\s\S]*?)<\/goal>/i;
const nonTaskRe = /<non-task\s*\/?>(\s*<\/non-task>)?/i;
const contextRe = /<context>([\s\S]*?)<\/context>/gi;
const foldRe = /<fold>([\s\S]*?)<\/fold>/i;

/**
 * Reads the control tags of seed 001 out of a model's text: `<goal>`/`<non-task>` on the first
 * turn and `<context>` (with an optional `<fold>`) on every turn. Tolerates a missing closing
 * tag at the very end (a truncated reply) by taking the rest of the text.
 */
export function parseTags(text: string): ParsedTags {
  let t = text;
  // A reply cut off inside <context> still carries a usable note.
  if (/<context>(?![\s\S]*<\/context>)/i.test(t)) t += "</context>";
  const goal = goalRe.exec(t)?.[1]?.trim() || undefined;
  const nonTask = nonTaskRe.test(t);
  let note: string | undefined;
  let fold: string | undefined;
  for (const m of t.matchAll(contextRe)) {
    const body = m[1] ?? "";
    const f = foldRe.exec(body)?.[1]?.trim();
    if (f) fold = f;
    const rest = body.replace(foldRe, "").trim();
    if (rest) note = rest;
  }
  const visible = t.replace(goalRe, "").replace(nonTaskRe, "").replace(contextRe, "").replace(/\n{3,}/g, "\n\n").trim();
  return { visible, goal, nonTask, note, fold };
}
