import type { PageState } from "./page-state.js";
import type { Targeting } from "./targeting.js";
import type { Evidence } from "./evidence.js";

/**
 * The parts an engine is made of. An action names the parts it uses
 * (`Pick<EngineParts, "state" | "targeting">`), so it depends on those, not on everything.
 */
export interface EngineParts {
  /** The page, its refs and snapshots, the options, and failures that carry a fresh snapshot. */
  readonly state: PageState;
  /** From a ref to a live element and the point to act at. */
  readonly targeting: Targeting;
  /** Marks before an action, settle and what changed after it. */
  readonly evidence: Evidence;
}
