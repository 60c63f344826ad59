import type { CaptureSnapshotResult } from "../../cdp/protocol.js";
import type { Rect } from "../base/coordinates.js";
import { rules } from "../in-page/element-rules.js";

/** The control a `<label>` stands for when that control is not rendered (a custom toggle). */
export interface HiddenControl {
  /** The control's tag and, for inputs, its type: `checkbox`, `radio`, `select`, `text` … */
  readonly type: string;
  /** For checkboxes and radios: whether it is checked. */
  readonly checked: boolean;
}

const labelable: ReadonlySet<string> = new Set(["INPUT", "SELECT", "TEXTAREA", "BUTTON", "METER", "OUTPUT", "PROGRESS"]);

/**
 * Finds, in one document of a DOMSnapshot, the labels whose control is hidden from a person
 * (`rules.controlHidden`: no box, a box of a pixel or two, `visibility: hidden`, opacity 0 on
 * it or an ancestor), keyed by the label's node index. Pages build custom
 * checkboxes and switches that way: the input is hidden and the label is what the user clicks.
 * The control is the element the label's `for` names (the first with that id, if labelable),
 * or else its first labelable descendant (HTML's rules).
 */
export function hiddenLabelControls(
  d: CaptureSnapshotResult["documents"][number],
  str: (i: number | undefined) => string,
  boxes: ReadonlyMap<number, Rect>,
  invisible: ReadonlySet<number>,
  transparent: ReadonlySet<number>,
): Map<number, HiddenControl> {
  const n = d.nodes;
  const names = n.nodeName ?? [];
  const parents = n.parentIndex ?? [];
  const attrOf = (i: number, name: string): string | undefined => {
    const attrs = n.attributes?.[i] ?? [];
    for (let a = 0; a + 1 < attrs.length; a += 2) if (str(attrs[a]) === name) return str(attrs[a + 1]);
    return undefined;
  };
  const labels: number[] = [];
  for (let i = 0; i < names.length; i++) if (str(names[i]) === "LABEL") labels.push(i);
  if (labels.length === 0) return new Map();
  const firstControl = new Map<number, number>();
  // The first element with each id (HTML's rule for `for`), or -1 when that one is not labelable.
  const byId = new Map<string, number>();
  for (let i = 0; i < names.length; i++) {
    const name = str(names[i]);
    const control = labelable.has(name) && !(name === "INPUT" && attrOf(i, "type") === "hidden");
    const id = attrOf(i, "id");
    if (id && !byId.has(id)) byId.set(id, control ? i : -1);
    if (!control) continue;
    // Nodes come in document order, so the first control found under a label is its first.
    for (let p = parents[i] ?? -1; p >= 0; p = parents[p] ?? -1) {
      if (str(names[p]) !== "LABEL") continue;
      if (!firstControl.has(p)) firstControl.set(p, i);
      break;
    }
  }
  const checked = new Set(d.nodes.inputChecked?.index ?? []);
  const out = new Map<number, HiddenControl>();
  for (const label of labels) {
    const target = attrOf(label, "for");
    const control = target === undefined ? firstControl.get(label) : byId.get(target);
    if (control === undefined || control < 0) continue;
    let painted = !invisible.has(control);
    for (let p = control; painted && p >= 0; p = parents[p] ?? -1) if (transparent.has(p)) painted = false;
    if (!rules.controlHidden(boxes.get(control), painted)) continue;
    const tag = str(names[control]);
    out.set(label, { type: tag === "INPUT" ? (attrOf(control, "type") ?? "text").toLowerCase() : tag.toLowerCase(), checked: checked.has(control) });
  }
  return out;
}
