/**
 * What an action changed in the text a snapshot shows: lines that appeared (a toast, an error
 * under a field, a status line), lines that changed in place (a counter, "Saved" for "Saving…"),
 * lines that went away, and refs whose name, value or state changed. It is how a model knows an
 * action worked without taking a new snapshot. Bounded: a handful of lines, each cut short.
 */
import { quoted, sanitizeText } from "../base/sanitize.js";
import type { SnapshotLine } from "./render-text.js";

/** The text changes between two snapshots of the same document. */
export interface TextChanges {
  readonly added: string[];
  /** "before → after". */
  readonly changed: string[];
  readonly removed: string[];
}

/** At most this many lines of each kind are reported. */
export const maxTextChanges = 8;

/** States that are about the pointer or the focus, not about what the page says. */
const transientStates: ReadonlySet<string> = new Set(["focused", "on-hover"]);

/** A text line's slot: the ref line before it (or the top) and its place among the text lines after that ref. */
interface Slot {
  readonly key: string;
  readonly text: string;
}

function slots(lines: readonly SnapshotLine[]): Slot[] {
  const out: Slot[] = [];
  let anchor = "top";
  let n = 0;
  for (const line of lines) {
    if (line.ref) {
      anchor = line.ref;
      n = 0;
    } else if (line.plain !== undefined) {
      // A text line, or a group's header carrying its first text line (`row "…"`).
      out.push({ key: `${anchor}#${n++}`, text: line.plain });
    }
  }
  return out;
}

/** A ref line without its states about the pointer or the focus. */
function refText(line: SnapshotLine): string {
  return line.text
    .slice(line.ref && line.text.startsWith(`${line.ref} `) ? line.ref.length + 1 : 0)
    .split(" ")
    .filter((w) => !transientStates.has(w))
    .join(" ");
}

/**
 * The text changes from `before` to `after` (snapshot lines): text lines counted as a multiset,
 * so a line that only moved is no change; a line gone and a line come in the same slot (after
 * the same ref, at the same place) are one change; refs present in both whose line differs
 * (name, value, states other than focus and hover) are changes too.
 */
export function textChanges(before: readonly SnapshotLine[], after: readonly SnapshotLine[]): TextChanges {
  const a = slots(before);
  const b = slots(after);
  const count = new Map<string, number>();
  for (const s of a) count.set(s.text, (count.get(s.text) ?? 0) + 1);
  const appeared: Slot[] = [];
  for (const s of b) {
    const c = count.get(s.text) ?? 0;
    if (c > 0) count.set(s.text, c - 1);
    else appeared.push(s);
  }
  const left = new Map<string, number>(count);
  const gone: Slot[] = [];
  for (let i = a.length - 1; i >= 0; i--) {
    const s = a[i]!;
    const c = left.get(s.text) ?? 0;
    if (c > 0) {
      left.set(s.text, c - 1);
      gone.unshift(s);
    }
  }
  const changed: string[] = [];
  const goneBySlot = new Map(gone.map((s) => [s.key, s]));
  const added: string[] = [];
  for (const s of appeared) {
    const old = goneBySlot.get(s.key);
    if (old) {
      goneBySlot.delete(s.key);
      changed.push(`${quoted(old.text, 100)} → ${quoted(s.text, 100)}`);
    } else {
      added.push(quoted(s.text, 120));
    }
  }
  const removed = [...goneBySlot.values()].map((s) => quoted(s.text, 120));
  const refsBefore = new Map<string, string>();
  for (const line of before) if (line.ref) refsBefore.set(line.ref, refText(line));
  for (const line of after) {
    if (!line.ref) continue;
    const old = refsBefore.get(line.ref);
    const now = refText(line);
    if (old !== undefined && old !== now) changed.push(`${line.ref} ${sanitizeText(old, 100)} → ${sanitizeText(now, 100)}`);
  }
  return { added: added.slice(0, maxTextChanges), changed: changed.slice(0, maxTextChanges), removed: removed.slice(0, maxTextChanges) };
}
