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
 * Reads the control tags the prompt asks for out of a model's text: `<goal>`/`<non-task>` on the first
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

/** Tags whose content the user never sees; `non-task` has none, only the tags themselves. */
const hidden = ["goal", "context"] as const;
const dropped = ["<non-task>", "<non-task/>", "<non-task />", "</non-task>"];
const openings = [...hidden.map((t) => `<${t}>`), ...dropped];

/**
 * Removes the control tags from a model's text as it streams, chunk by chunk, the way
 * {@link parseTags} removes them from the whole: `<goal>…</goal>` and `<context>…</context>`
 * with their content (an unclosed `<context>` hides the rest), `<non-task>` tags alone.
 * A chunk that ends inside what may still become a tag is held back until the next.
 */
export class VisibleStream {
  private buf = "";
  private inside: string | undefined;
  private started = false;

  /** Takes the next chunk; returns the visible text it completes (maybe ""). */
  push(chunk: string): string {
    this.buf += chunk;
    let out = "";
    for (;;) {
      if (this.inside) {
        const close = `</${this.inside}>`;
        const at = this.buf.toLowerCase().indexOf(close);
        if (at < 0) {
          // Keep only what may be the start of the closing tag.
          this.buf = this.buf.slice(Math.max(0, this.buf.length - close.length + 1));
          break;
        }
        this.buf = this.buf.slice(at + close.length);
        this.inside = undefined;
        continue;
      }
      const lt = this.buf.indexOf("<");
      if (lt < 0) {
        out += this.buf;
        this.buf = "";
        break;
      }
      out += this.buf.slice(0, lt);
      this.buf = this.buf.slice(lt);
      const head = this.buf.toLowerCase();
      const full = openings.find((t) => head.startsWith(t));
      if (full) {
        this.buf = this.buf.slice(full.length);
        const name = full.slice(1, -1);
        if ((hidden as readonly string[]).includes(name)) this.inside = name;
        continue;
      }
      if (openings.some((t) => t.startsWith(head))) break; // may still become a tag
      out += "<";
      this.buf = this.buf.slice(1);
    }
    return this.visible(out);
  }

  /** The text held back at the end of the stream (a `<` that never became a tag). */
  end(): string {
    const rest = this.inside ? "" : this.buf;
    this.buf = "";
    return this.visible(rest);
  }

  private visible(text: string): string {
    if (this.started) return text;
    const trimmed = text.trimStart();
    if (trimmed) this.started = true;
    return trimmed;
  }
}
