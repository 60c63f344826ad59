/**
 * Snapshot diffs through the loop, with a script model on real Chromium: the first whole
 * snapshot of a turn is the whole page (the prompt no longer holds the one before), a later one
 * in the same turn is a diff, and the model's next action uses a ref it saw only in that diff.
 */
import { runTask } from "@baton/sdk/client";
import { describe, expect, it } from "vitest";
import { unfence } from "../base/page-fence.js";
import { browserHandlers, evaluate, useBrowserRig } from "./rig.js";

const rig = useBrowserRig();

interface SnapshotOut {
  readonly text: string;
  readonly snapshot_id?: number;
  readonly diff_base?: number;
}

describe("snapshot diffs in the loop", { timeout: 120_000 }, () => {
  it("sends the first snapshot of a turn whole, a later one as a diff, and the model acts on a ref seen only in the diff", async () => {
    const { backend, engine } = await rig.setup(
      {
        turns: [
          { text: "<goal>Archive the inbox</goal>", calls: [{ name: "take_snapshot" }] },
          // The page is as the last snapshot left it, but that snapshot is folded away by the next prompt.
          { calls: [{ name: "take_snapshot" }, { name: "click", args: { ref: { role: "button", name: "More actions" } } }, { name: "take_snapshot" }] },
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Archive" } } }] },
          { calls: [{ name: "done", args: { answer: "Archived." } }] },
        ],
      },
      { snapshotDiffs: true },
    );
    const outcome = await runTask(backend.client, {
      task: "Archive the inbox",
      startUrl: `${rig.site.a}/reveal`,
      handlers: browserHandlers(engine),
      model: "script:test",
    });
    expect(outcome.status).toBe("completed");
    expect(await evaluate<string>(engine, `document.getElementById("state").textContent`)).toBe("Archived");

    const outputs = (i: number) =>
      backend.model.requests[i]!.items.flatMap((it) => (it.type === "tool_result" ? [JSON.parse(unfence(it.output)) as SnapshotOut & { evidence?: unknown }] : []));
    const [first] = outputs(1);
    const [again, , diff] = outputs(2);
    expect(first!.diff_base ?? 0).toBe(0);
    // Nothing changed since `first`, but the model no longer holds it: whole, not "(nothing changed)".
    expect(again!.diff_base ?? 0).toBe(0);
    expect(again!.text).toContain('## Messages');
    expect(diff!.diff_base).toBe(again!.snapshot_id);
    expect(diff!.text).toMatch(/^Diff against snapshot \d+/);
    expect(diff!.text).not.toContain("Message 12 from the team");
    const archive = /(e\d+) button "Archive"/.exec(diff!.text)?.[1];
    expect(archive, diff!.text).toBeDefined();
    // The ref was in the diff only: no whole snapshot the model read listed it.
    for (const o of [first, again]) expect(o!.text).not.toContain('"Archive"');
    const click = backend.model.requests[3]!.items.find((it) => it.type === "assistant");
    expect(click?.type === "assistant" && click.calls?.[0]?.arguments).toBe(JSON.stringify({ ref: archive }));
  });
});
