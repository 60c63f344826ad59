import { type ExtensionViaOptions, extensionVia } from "./extension-via.js";
import { type HeadlessOptions, headlessVia } from "./headless-via.js";
import { type Via, type ViaName, ViaUnavailable } from "./via.js";

/** The names --via accepts. */
export const viaNames: readonly ViaName[] = ["headless", "extension"];

/** Options of every via; each takes what it uses. */
export type ViaOptions = HeadlessOptions & ExtensionViaOptions;

/**
 * The runner for `--via NAME`: `headless` (Chromium driven from this process) or `extension`
 * (the suite run through the built Baton extension in Chromium). A via that cannot run here
 * fails before anything starts, with what to do.
 */
export function viaFor(name: string, o: ViaOptions = {}): Via {
  switch (name) {
    case "headless":
      return headlessVia(o);
    case "extension":
      return extensionVia(o);
    default:
      throw new ViaUnavailable(`--via must be one of ${viaNames.join(", ")}, not "${name}"`);
  }
}
