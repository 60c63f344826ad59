import { type DocActivity, readDoc, trackedDocs } from "./activity-tracker.js";
import type { PageSession } from "./page-session.js";

/** The page's activity state at one moment, to tell later whether anything changed since. */
export interface ActivityMark {
  /** `Date.now()` when the mark was started. */
  readonly at: number;
  readonly structureVersion: number;
  readonly inputEpoch: number;
  /** Per document, keyed by frame id and loader id. */
  readonly docs: ReadonlyMap<string, DocActivity>;
  /**
   * False when the mark cannot vouch for a still page: a document could not be read or had
   * just got its tracker, an animation or transition was running, a dialog was open, or the
   * documents changed while it was read.
   */
  readonly still: boolean;
}

/** Default maximum age of a reused snapshot (docs/engine.md). */
export const defaultSnapshotMaxAgeMs = 1000;

/** Reads every tracked document's activity in parallel: one cheap call per document. */
export async function markActivity(page: PageSession, timeoutMs = 500): Promise<ActivityMark> {
  const at = Date.now();
  const structureVersion = page.structureVersion;
  const inputEpoch = page.inputEpoch;
  const docs = trackedDocs(page);
  const read = await Promise.all(docs.map((d) => readDoc(page, d, timeoutMs).catch(() => undefined)));
  const byDoc = new Map<string, DocActivity>();
  let still = !page.gone && page.openDialogs === 0 && docs.length > 0;
  docs.forEach((d, i) => {
    const a = read[i];
    if (!a || a.installedNow || a.animating) still = false;
    if (a) byDoc.set(`${d.frameId}:${d.loaderId}`, a);
  });
  if (page.structureVersion !== structureVersion || page.inputEpoch !== inputEpoch) still = false;
  return { at, structureVersion, inputEpoch, docs: byDoc, still };
}

/**
 * Whether nothing on the page can have changed between two marks: both still, the same
 * documents and sessions, no page-changing command sent, and every document with the same
 * tracker, change counter, scroll position and viewport.
 */
export function unchangedBetween(before: ActivityMark, after: ActivityMark): boolean {
  if (!before.still || !after.still) return false;
  if (before.structureVersion !== after.structureVersion || before.inputEpoch !== after.inputEpoch) return false;
  if (before.docs.size !== after.docs.size) return false;
  for (const [key, a] of before.docs) {
    const b = after.docs.get(key);
    if (!b || a.id !== b.id || a.changes !== b.changes || a.sx !== b.sx || a.sy !== b.sy || a.w !== b.w || a.h !== b.h) return false;
  }
  return true;
}

/**
 * Whether the page did nothing between two marks that a user would notice as a reaction: every
 * document the same (same tracker), no mutation, input, change, toggle, scroll or load counted
 * (`DocActivity.effects`; the pointer passing over things and focus moving do not count), the
 * same scroll position. False when either mark could not read a document.
 */
export function noEffectsBetween(before: ActivityMark, after: ActivityMark): boolean {
  if (before.docs.size === 0 || before.docs.size !== after.docs.size) return false;
  for (const [key, a] of before.docs) {
    const b = after.docs.get(key);
    if (!b || a.id !== b.id || a.installedNow || a.effects !== b.effects || a.sx !== b.sx || a.sy !== b.sy) return false;
  }
  return true;
}
