import { documentToViewport, intersect, type Rect } from "../base/coordinates.js";
import { ancestorClip, type DomNode } from "./dom-index.js";
import type { SessionLayout } from "./layout.js";

/**
 * The part of a node a user can see, in top-level viewport coordinates: its box cut to the
 * ancestors that clip it (`ancestorClip`) and to its frames' clip; undefined when none of it
 * is in view. Snapshots, early hit tests and actions all use this one rectangle, so they probe
 * the same points.
 */
export function visibleRect(l: SessionLayout, node: DomNode): Rect | undefined {
  const origin = l.docOrigins[node.doc];
  if (!node.box || !origin) return undefined;
  const clip = ancestorClip(l.index, node);
  if (clip === undefined) return undefined;
  const box = documentToViewport(node.box, origin);
  const inFrame = intersect(box, origin.clip);
  return inFrame && clip !== null ? intersect(inFrame, documentToViewport(clip, origin)) : inFrame;
}
