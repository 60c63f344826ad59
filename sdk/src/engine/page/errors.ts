import { TimeoutError } from "../../cdp/timeouts.js";
import { CdpError } from "../../cdp/transport.js";
import { ToolErrorCode, ToolFailure } from "../../contract/index.js";
import { TargetGoneError } from "./page-session.js";

/** True for the CDP errors Chromium returns when a backend node id no longer exists. */
export function isNodeGone(e: unknown): boolean {
  return (
    e instanceof CdpError &&
    /No node with given id|Could not find node|Node with given id does not belong|Cannot find context|No node found|Node is detached/i.test(
      e.message,
    )
  );
}

/**
 * Turns what can go wrong underneath an action into the model-facing failure: a gone tab,
 * a cap reached, a vanished node. A `ToolFailure` passes through untouched.
 */
export function toFailure(e: unknown): ToolFailure {
  if (e instanceof ToolFailure) return e;
  if (e instanceof TargetGoneError) {
    return new ToolFailure(
      ToolErrorCode.TARGET_GONE,
      `The tab is gone (${e.message}). Open a new tab or navigate again.`,
    );
  }
  if (e instanceof TimeoutError) {
    return new ToolFailure(ToolErrorCode.TIMEOUT, `The page did not respond: ${e.message}. Take a snapshot and try again.`);
  }
  if (isNodeGone(e)) {
    return new ToolFailure(ToolErrorCode.STALE_REF, "The element is gone from the page. Use a ref from the fresh snapshot.", {
      field: "ref",
    });
  }
  const reason = e instanceof Error ? e.message : String(e);
  return new ToolFailure(ToolErrorCode.INTERNAL, `The browser reported an error: ${reason}`);
}
