import { refLinePattern } from "../contract/index.js";

/** One element line of snapshot text: `e12 button "Save" disabled`. */
export interface SnapshotRef {
  readonly ref: string;
  readonly role: string;
  readonly name: string;
  /**
   * The text of the block the ref is indented in (a row, a list item, a card, or the ref it
   * sits inside): the block's first line and every line of it, "" for a ref at the top level.
   * A ref among look-alikes ("delete" in every row) is told apart by it (`TargetSpec.within`).
   */
  readonly context?: string;
}

/**
 * The refs of a snapshot text with their roles, names and blocks, in document order. It reads
 * the format the engine writes (`ref role "name" states…`, names JSON-style escaped, indented
 * by depth; only indentations are compared, so any width per level reads alike). In a diff
 * (`pageDiff`), the lines added or changed are read without their mark; removed lines and hunk
 * places are not elements of the page.
 */
export function snapshotRefs(text: string): SnapshotRef[] {
  const lines = text.split("\n").map((l) => (/^[+~] /.test(l) ? l.slice(2) : /^[-@] /.test(l) ? "" : l));
  const depthOf = (line: string): number => /^ */.exec(line)?.[0].length ?? 0;
  const out: SnapshotRef[] = [];
  lines.forEach((line, i) => {
    const m = refLinePattern.exec(line);
    if (!m?.[1] || !m[2]) return;
    const depth = depthOf(line);
    let context = "";
    if (depth > 0) {
      // The block: from the nearest line above at a lower depth, to the next line at its depth or above.
      let start = i;
      while (start > 0 && depthOf(lines[start]!) >= depth) start--;
      const head = depthOf(lines[start]!);
      let end = i + 1;
      while (end < lines.length && depthOf(lines[end]!) > head) end++;
      context = lines.slice(start, end).map((l) => l.trim()).join("\n");
    }
    out.push({ ref: m[1], role: m[2], name: (m[3] ?? "").replace(/\\(.)/g, "$1"), context });
  });
  return out;
}
