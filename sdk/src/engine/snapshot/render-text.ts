import { indent } from "./line-format.js";

/** One line of the snapshot text, before pagination. */
export interface SnapshotLine {
  readonly depth: number;
  readonly text: string;
  /** Set on lines that carry a ref. */
  readonly ref?: string;
  /** The plain text of a text line, or the name of a ref line (for de-duplication). */
  readonly plain?: string;
}

/** A line as the model reads it: indented by its depth. */
export function renderLine(line: SnapshotLine): string {
  return `${indent(line.depth)}${line.text}`;
}

/** One page of snapshot text. */
export interface TextPage {
  readonly text: string;
  /** Refs on this page. */
  readonly refCount: number;
  /** Refs in the whole snapshot. */
  readonly totalRefCount: number;
  /** Offset of the next page; undefined on the last page. */
  readonly nextOffset: number | undefined;
  /** True when not even one ref fits in the budget. */
  readonly pageOverflow: boolean;
}

/**
 * Cuts the snapshot into pages by ref: `offset` skips that many refs, context lines travel with
 * the ref that follows them, and a page holds whole groups until `maxChars` is reached. A page
 * whose first ref alone does not fit reports `pageOverflow` instead of an empty page, so a
 * caller paging with a tiny budget stops instead of looping.
 */
export function paginate(lines: readonly SnapshotLine[], offset: number, maxChars: number): TextPage {
  const groups: { lines: string[]; refs: number }[] = [];
  let current: string[] = [];
  for (const line of lines) {
    current.push(renderLine(line));
    if (line.ref) {
      groups.push({ lines: current, refs: 1 });
      current = [];
    }
  }
  if (current.length) groups.push({ lines: current, refs: 0 });
  const totalRefCount = groups.reduce((n, g) => n + g.refs, 0);
  const out: string[] = [];
  let used = 0;
  let refCount = 0;
  let gi = Math.min(offset, groups.length);
  if (offset > 0 && offset >= totalRefCount) {
    return { text: "", refCount: 0, totalRefCount, nextOffset: undefined, pageOverflow: false };
  }
  for (; gi < groups.length; gi++) {
    const g = groups[gi]!;
    const size = g.lines.reduce((n, s) => n + s.length + 1, 0);
    if (used + size <= maxChars) {
      out.push(...g.lines);
      used += size;
      refCount += g.refs;
      continue;
    }
    if (refCount === 0) {
      // The first group does not fit: keep what context fits, but the ref line must fit whole.
      const refLine = g.lines[g.lines.length - 1]!;
      if (g.refs === 0 || refLine.length + 1 > maxChars) {
        if (g.refs === 0 && out.length === 0) break;
        return { text: "", refCount: 0, totalRefCount, nextOffset: undefined, pageOverflow: g.refs > 0 };
      }
      const context = g.lines.slice(0, -1);
      for (const c of context) {
        if (used + c.length + 1 + refLine.length + 1 > maxChars) break;
        out.push(c);
        used += c.length + 1;
      }
      out.push(refLine);
      used += refLine.length + 1;
      refCount = 1;
      gi++;
    }
    break;
  }
  const remainingRefs = groups.slice(gi).some((g) => g.refs > 0);
  return {
    text: out.join("\n"),
    refCount,
    totalRefCount,
    nextOffset: remainingRefs ? offset + refCount : undefined,
    pageOverflow: false,
  };
}

/** Text made only of punctuation: breadcrumb arrows, "|" and "·" between links. */
const punctuationOnly = /^[\p{P}\s]*$/u;

/**
 * Drops text lines that only repeat a neighbouring ref's name (a label beside its input, the
 * text after a checkbox) or hold nothing but separators (breadcrumb "›", "|" between links):
 * the name already says it, a separator says nothing, and every line costs the model tokens.
 * Symbols that mean something ("★★★", "♡", "€") are not punctuation and stay.
 */
export function dropEchoes(lines: SnapshotLine[]): SnapshotLine[] {
  return lines.filter((line, i) => {
    if (line.ref || line.plain === undefined || !line.text.startsWith('"')) return true;
    if (punctuationOnly.test(line.plain)) return false;
    const text = line.plain.toLowerCase();
    for (const n of [lines[i - 1], lines[i + 1]]) {
      if (n?.ref && n.plain && n.plain.toLowerCase().includes(text)) return false;
    }
    return true;
  });
}
