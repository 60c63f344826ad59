/** One element line of snapshot text: `[e12] button "Save" disabled`. */
export interface SnapshotRef {
  readonly ref: string;
  readonly role: string;
  readonly name: string;
}

const LINE = /^\s*\[(e\d+)\]\s+([A-Za-z][\w-]*)(?:\s+"((?:[^"\\]|\\.)*)")?/;

/**
 * The refs of a snapshot text with their roles and names, in document order. It reads the
 * format the engine writes (`[ref] role "name" states…`, names JSON-style escaped).
 */
export function snapshotRefs(text: string): SnapshotRef[] {
  const out: SnapshotRef[] = [];
  for (const line of text.split("\n")) {
    const m = LINE.exec(line);
    if (m?.[1] && m[2]) {
      out.push({ ref: m[1], role: m[2], name: (m[3] ?? "").replace(/\\(.)/g, "$1") });
    }
  }
  return out;
}
