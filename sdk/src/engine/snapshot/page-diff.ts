/**
 * A snapshot as a diff against the snapshot the model saw before: only the lines that were
 * added, removed or changed, each hunk placed under the nearest heading or landmark and after
 * the unchanged line it follows, so a model can act on a ref it sees only here. Refs are
 * stable for unchanged elements (`RefTable`), so every line not shown is still true as the
 * model read it. A diff that is not smaller than the page is not worth reading: the caller
 * returns the whole page instead.
 */
import { headingLine } from "./line-format.js";
import { renderLine, type SnapshotLine } from "./render-text.js";

/** Lines of a snapshot that name a place: landmarks and frames (and headings, `headingLine`). */
const landmarkLine = /^(banner|navigation|main|form|region|complementary|contentinfo|dialog|alertdialog|search|iframe)(?=[\s"]|$)/;

/** Past this many lines in the changed middle of both snapshots, the diff is not computed. */
const maxMiddle = 4000;


/** What a line is matched by: its ref (stable across snapshots), else its rendered text. */
function keyOf(line: SnapshotLine): string {
  return line.ref ? `\u0000${line.ref}` : renderLine(line);
}

type Op = { kind: "keep" | "change"; a: number; b: number } | { kind: "add"; b: number } | { kind: "del"; a: number };

/** A line-level edit script from `a` to `b` (longest common subsequence of keys), or undefined when too large to compute. */
function editScript(a: readonly SnapshotLine[], b: readonly SnapshotLine[]): Op[] | undefined {
  const ka = a.map(keyOf);
  const kb = b.map(keyOf);
  let start = 0;
  while (start < ka.length && start < kb.length && ka[start] === kb[start]) start++;
  let endA = ka.length;
  let endB = kb.length;
  while (endA > start && endB > start && ka[endA - 1] === kb[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n * m > maxMiddle * maxMiddle) return undefined;
  // lcs[i][j]: the common subsequence length of a[start+i..endA) and b[start+j..endB).
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = ka[start + i] === kb[start + j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  const pair = (ia: number, ib: number) => ops.push({ kind: renderLine(a[ia]!) === renderLine(b[ib]!) ? "keep" : "change", a: ia, b: ib });
  for (let i = 0; i < start; i++) pair(i, i);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && ka[start + i] === kb[start + j]) {
      pair(start + i++, start + j++);
    } else if (i < n && (j >= m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      // What went comes before what came in its place, as a reader expects.
      ops.push({ kind: "del", a: start + i++ });
    } else {
      ops.push({ kind: "add", b: start + j++ });
    }
  }
  for (let k = 0; k < ka.length - endA; k++) pair(endA + k, endB + k);
  return ops;
}

/** A snapshot's text as a diff, and how many lines it lists. */
export interface PageDiff {
  readonly text: string;
  readonly changedLines: number;
}

/**
 * The diff from `before` to `after` (both whole snapshots of the same document), headed by
 * `header`; undefined when it is too large to compute. Each hunk starts
 * with "@" and its place: the nearest heading or landmark line above it and the unchanged line
 * it follows ("at the top" when none). Lines are "+" added, "-" removed, "~" changed in place
 * (the same ref with another name, value or state), indented as in the whole snapshot.
 */
export function pageDiff(before: readonly SnapshotLine[], after: readonly SnapshotLine[], header: string): PageDiff | undefined {
  const ops = editScript(before, after);
  if (!ops) return undefined;
  const out: string[] = [header];
  let changedLines = 0;
  let place: string | undefined;
  let previous: string | undefined;
  let inHunk = false;
  for (const op of ops) {
    if (op.kind === "keep") {
      const line = after[op.b]!;
      if (landmarkLine.test(line.text) || headingLine.test(line.text)) place = line.text;
      previous = line.text;
      inHunk = false;
      continue;
    }
    if (!inHunk) {
      const where = [place && previous !== place ? `under ${place}` : "", previous ? `after ${previous}` : "at the top"].filter(Boolean).join(", ");
      out.push(`@ ${where}`);
      inHunk = true;
    }
    changedLines++;
    if (op.kind === "del") {
      out.push(`- ${renderLine(before[op.a]!)}`);
      continue;
    }
    const line = after[op.b]!;
    out.push(`${op.kind === "add" ? "+" : "~"} ${renderLine(line)}`);
    if (landmarkLine.test(line.text) || headingLine.test(line.text)) place = line.text;
  }
  if (changedLines === 0) out.push("(nothing changed)");
  return { text: out.join("\n"), changedLines };
}

/** The first line of a diff: that it is one, against which snapshot, and how to get the whole page. */
export function diffHeader(base: number): string {
  return `Diff against snapshot ${base}, not the whole page: lines not listed are unchanged, refs too (take_snapshot with full=true gives the whole page).`;
}
