/**
 * Rows, list items and cards (`DomNode.group`) hold their lines: a row's text and its actions
 * are printed under a header line (`row`, `listitem`, `article`, `group`) and indented, so
 * which row a "delete" link belongs to is read from the snapshot, not guessed from reading
 * order. Done on the finished lines from the DOM each line came from, so both AX reads (whole
 * tree and viewport-first) group alike whatever the accessibility tree keeps of a `<div>` row.
 */
import { attrOf, type DomIndex, type DomNode } from "../read/dom-index.js";
import type { SnapshotLine } from "./render-text.js";

/** The DOM node a line was printed for. */
export interface LineSource {
  readonly index: DomIndex;
  /** A key for the index's session, so groups of different documents never merge. */
  readonly session: string;
  readonly backendId: number;
}

/** A group with more refs at its top than this is a section of the page, not a row: it is not indented. */
const maxGroupRefs = 10;

/** The header word of a group: what kind of container it is. */
function groupWord(index: DomIndex, dom: DomNode): string {
  const role = (attrOf(index, dom, "role") ?? "").trim().split(/\s+/)[0];
  if (role === "row" || dom.nodeName === "TR") return "row";
  if (role === "listitem" || dom.nodeName === "LI") return "listitem";
  if (role === "article" || dom.nodeName === "ARTICLE") return "article";
  return "group";
}

/**
 * Indents runs of consecutive lines that lie in the same group under a header line, when the
 * run holds at least one ref and one more line and at most `maxGroupRefs` refs at its top. The
 * header is the group's word with the run's first line when that is text (`row "Matches: …"`,
 * as the row's name), else the word alone. A line inside a ref belongs where its ref belongs; a
 * line lies in the nearest group around its node. `sourceOf` gives each line's node (undefined:
 * no group).
 */
export function groupLines(lines: readonly SnapshotLine[], sourceOf: (line: SnapshotLine) => LineSource | undefined): SnapshotLine[] {
  const memo = new Map<DomIndex, Map<number, DomNode | null>>();
  const nearest = (src: LineSource): DomNode | null => {
    let known = memo.get(src.index);
    if (!known) memo.set(src.index, (known = new Map()));
    const chain: number[] = [];
    let found: DomNode | null = null;
    for (let id: number | undefined = src.backendId, hops = 0; id !== undefined && hops < 100; hops++) {
      const hit = known.get(id);
      if (hit !== undefined) {
        found = hit;
        break;
      }
      chain.push(id);
      const n = src.index.nodes.get(id);
      if (!n || n.nodeName === "BODY") break;
      // The line's own node counts only when it is not the line's ref (a row that is a target is a ref).
      if (n.group && (id !== src.backendId || !n.target)) {
        found = n;
        break;
      }
      id = n.parent;
    }
    for (const c of chain) known.set(c, found);
    return found;
  };
  // Each line's group key, "" for none; a line inside a ref takes its ref's.
  const keys: string[] = [];
  const groups = new Map<string, { index: DomIndex; dom: DomNode }>();
  const refs: { depth: number; key: string }[] = [];
  for (const line of lines) {
    while (refs.length && refs[refs.length - 1]!.depth >= line.depth) refs.pop();
    let key = refs.length ? refs[refs.length - 1]!.key : "";
    if (!refs.length) {
      const src = sourceOf(line);
      const g = src ? nearest(src) : null;
      if (src && g) {
        key = `${src.session} ${g.backendId}`;
        groups.set(key, { index: src.index, dom: g });
      }
    }
    keys.push(key);
    if (line.ref) refs.push({ depth: line.depth, key });
  }
  const out: SnapshotLine[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i + 1;
    const key = keys[i]!;
    while (j < lines.length && key !== "" && keys[j] === key) j++;
    const run = lines.slice(i, j);
    const base = Math.min(...run.map((l) => l.depth));
    const topRefs = run.filter((l) => l.ref && l.depth === base).length;
    const g = groups.get(key);
    if (g && run.length >= 2 && run.some((l) => l.ref) && topRefs <= maxGroupRefs) {
      // The header carries the group's first text line when it starts with one (`row "Matches: …"`).
      const first = run[0]!;
      const merge = !first.ref && first.depth === base && first.text.startsWith('"');
      out.push(merge ? { ...first, text: `${groupWord(g.index, g.dom)} ${first.text}` } : { depth: base, text: groupWord(g.index, g.dom) });
      for (const l of merge ? run.slice(1) : run) out.push({ ...l, depth: l.depth + 1 });
    } else {
      out.push(...run);
    }
    i = j;
  }
  return out;
}
