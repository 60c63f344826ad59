/**
 * The app-like fixtures, measured against the live page: every target a person can click gets
 * a ref (ground truth from the page's own listeners and styles, `fixtures/ground-truth.ts`),
 * no ref is a phantom, and clicking any ref reaches the handler of the element it names.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema, TakeSnapshotParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appFixtures } from "./fixtures/apps/index.js";
import { handledSince } from "./fixtures/apps/kit.js";
import { compareRefs, groundTruth } from "./fixtures/ground-truth.js";
import { type Harness, startHarness } from "./fixtures/harness.js";
import { captureLabelledScreenshot } from "./snapshot/screenshot.js";

/** Where the labelled screenshots of the app pages go (`.tmp-*` is git-ignored). */
const artefacts = join(import.meta.dirname, "../../../.tmp-artefacts/apps");

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** The current snapshot's refs with their nodes. */
async function snapshotRefs(): Promise<{ ref: string; role: string; name: string; backendNodeId: number }[]> {
  await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined);
  const snap = h.engine.lastSnapshot!;
  return snap.elements.map((e) => {
    const entry = h.engine.refs.get(e.ref)!;
    return { ref: e.ref, role: e.role, name: e.name, backendNodeId: entry.backendNodeId };
  });
}

/** The element of a node, held before a click that may remove it. */
async function elementOf(backendNodeId: number): Promise<string> {
  const { object } = await h.engine.page.send<{ object: { objectId: string } }>("DOM.resolveNode", { backendNodeId });
  return object.objectId;
}

/** Whether the page's handlers recorded an element related to `objectId`'s since `from`. */
async function handled(objectId: string, from: number): Promise<boolean> {
  const r = await h.engine.page.send<{ result: { value?: boolean } }>("Runtime.callFunctionOn", {
    objectId,
    functionDeclaration: handledSince,
    arguments: [{ value: from }],
    returnByValue: true,
  });
  return r.result.value === true;
}

describe.each(appFixtures.map((f) => [f.path, f] as const))("app %s", (path) => {
  it("gives every target a ref and lists no phantom", async () => {
    await h.goto(path);
    const refs = await snapshotRefs();
    // The screenshot with each ref's number drawn is kept as a test artefact (git-ignored) for a
    // person to look at.
    const shot = await captureLabelledScreenshot(h.engine.page, h.engine.lastSnapshot!.elements, { format: "png" });
    mkdirSync(artefacts, { recursive: true });
    writeFileSync(join(artefacts, `${path.split("/").pop()}.png`), shot.data as Uint8Array);
    const report = compareRefs(await groundTruth(h.engine.page), refs);
    const text = h.engine.lastSnapshot?.lines.map((l) => `${"  ".repeat(l.depth)}${l.text}`).join("\n");
    expect(report.missed.map((t) => `<${t.tag}> "${t.text}" (${t.signs})`), `missed in\n${text}`).toEqual([]);
    expect(report.phantoms, `phantoms in\n${text}`).toEqual([]);
    expect(report.targets).toBeGreaterThan(3);
  });

  it("clicks every ref and reaches the handler of the element it names", async () => {
    await h.goto(path);
    const first = await snapshotRefs();
    const failed: string[] = [];
    let refs = first;
    let dirty = false;
    for (let i = 0; i < first.length; i++) {
      if (dirty) {
        // The last click changed the page (a dialog, a navigation, a list re-rendered): start over.
        await h.goto(path);
        refs = await snapshotRefs();
        dirty = false;
      }
      const r = refs[i];
      if (!r || r.role !== first[i]!.role || r.name !== first[i]!.name) {
        failed.push(`${first[i]!.role} "${first[i]!.name}": not there after a reload`);
        continue;
      }
      const before = await h.evaluate<number>("window.__handled.length");
      const element = await elementOf(r.backendNodeId);
      const result = await h.tools.click(create(ClickParamsSchema, { ref: r.ref }), undefined).catch((e: Error) => e);
      if (result instanceof Error) {
        failed.push(`${r.ref} ${r.role} "${r.name}": ${result.message}`);
        dirty = true;
        continue;
      }
      const e = result.evidence;
      // An element replaced by its hover version hands the click to its replacement, and says so.
      const replaced = e?.notes?.some((n) => n.startsWith(`${r.ref} was replaced by`)) && (await h.evaluate<number>("window.__handled.length")) > before;
      if (!replaced && !(await handled(element, before).catch(() => false))) failed.push(`${r.ref} ${r.role} "${r.name}": no handler ran`);
      dirty = !!(e?.navigated || e?.refsAdded?.length || e?.refsRemoved?.length || e?.dialog);
    }
    expect(failed).toEqual([]);
  });
});
