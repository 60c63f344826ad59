import { type HeadlessOptions, headlessVia } from "./headless-via.js";
import { type Via, type ViaName, ViaUnavailable } from "./via.js";

/** The names --via accepts. */
export const viaNames: readonly ViaName[] = ["headless", "extension"];

/**
 * The runner for `--via NAME`. `extension` (the suite driven through the Baton extension in
 * Chromium) is not wired yet: it fails here, before anything starts, with what to use instead.
 */
export function viaFor(name: string, o: HeadlessOptions = {}): Via {
  switch (name) {
    case "headless":
      return headlessVia(o);
    case "extension":
      throw new ViaUnavailable(
        "--via extension is not available yet: it runs the suite through the Baton extension, which is still being built. Use --via headless (the default) for now.",
      );
    default:
      throw new ViaUnavailable(`--via must be one of ${viaNames.join(", ")}, not "${name}"`);
  }
}
