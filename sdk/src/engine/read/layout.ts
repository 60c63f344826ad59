import type { AXNode, LayoutMetrics } from "../../cdp/protocol.js";
import type { FrameOrigin, Rect } from "../base/coordinates.js";
import type { SessionInfo } from "../page/page-session.js";
import type { DomIndex } from "./dom-index.js";

/** Everything read from one session for a snapshot. */
export interface SessionLayout {
  readonly session: SessionInfo;
  readonly index: DomIndex;
  /** AX nodes per frame id rendered by this session. */
  readonly ax: Map<string, AXNode[]>;
  /** Origin of each document of `index.documents`, in top-level viewport coordinates. */
  readonly docOrigins: FrameOrigin[];
  /** For an OOPIF session: the owner iframe's backend id in the parent session. */
  ownerBackendId: number | undefined;
}

/** The whole page as read for one snapshot. */
export interface PageLayout {
  readonly viewport: Rect;
  readonly metrics: LayoutMetrics;
  readonly sessions: Map<string, SessionLayout>;
}

/**
 * The top document's layout, handed out as soon as its DOMSnapshot and the layout metrics are
 * in, while the AX trees are still being read. Its origin is final (the top document needs no
 * frame owner), so hit tests started from it are the same hit tests the snapshot would make.
 */
export interface EarlyRootLayout {
  readonly layout: SessionLayout;
  readonly sessions: Map<string, SessionLayout>;
}
