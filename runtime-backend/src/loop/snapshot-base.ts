/**
 * Snapshot diffs in the loop. The prompt carries the latest interaction in full and every
 * earlier step only as a summary, so a snapshot the model read in an earlier step is folded
 * away by the time it reads the next one: a diff against it would describe a page the model no
 * longer holds. The first whole-page take_snapshot of a turn is therefore sent with `full` set;
 * a later one in the same turn may come back as a diff against that one, which the model reads
 * beside it in the next prompt. The arguments the model wrote are kept as it wrote them.
 */
import type { ToolCall } from "@baton/gen/baton/v1/tools_pb";

/** Tracks, across one turn's calls in order, whether a whole-page snapshot was already asked for. */
export class TurnSnapshots {
  #whole = false;

  /**
   * Sets `full` on a take_snapshot that has no whole-page snapshot of this turn before it to
   * diff against; calls of other tools pass unchanged.
   */
  admit(call: ToolCall): void {
    if (call.tool.case !== "takeSnapshot") return;
    const p = call.tool.value;
    // A snapshot of one element or a later page is never a diff, and the engine does not diff against it.
    if (p.ref || p.offset > 0) return;
    if (!this.#whole) p.full = true;
    this.#whole = true;
  }
}
