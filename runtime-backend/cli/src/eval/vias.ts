import type { ExtensionViaOptions } from "./extension-via.js";
import { type HeadlessOptions, headlessVia } from "./headless-via.js";
import { type Via, type ViaName, ViaUnavailable } from "./via.js";

/** The names --via accepts. */
export const viaNames: readonly ViaName[] = ["headless", "extension"];

/** Options of every via; each takes what it uses. */
export type ViaOptions = HeadlessOptions & ExtensionViaOptions;

/**
 * The runner for `--via NAME`: `headless` (Chromium driven from this process) or `extension`
 * (the suite run through the built Baton extension in Chromium). A via that cannot run here
 * fails before anything starts, with what to do. The extension's way is loaded only when asked
 * for: it drives the extension through `@baton/extension/testing`, an optional peer of the
 * command (the repository has it; an installed command may not).
 */
export async function viaFor(name: string, o: ViaOptions = {}): Promise<Via> {
  switch (name) {
    case "headless":
      return headlessVia(o);
    case "extension":
      return (await loadExtensionVia()).extensionVia(o);
    default:
      throw new ViaUnavailable(`--via must be one of ${viaNames.join(", ")}, not "${name}"`);
  }
}

async function loadExtensionVia(): Promise<typeof import("./extension-via.js")> {
  try {
    return await import("./extension-via.js");
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_MODULE_NOT_FOUND" && String(e).includes("@baton/extension")) {
      throw new ViaUnavailable("--via extension needs the Baton extension's package (@baton/extension), which this install does not have: run baton eval --via extension from a clone of the repository");
    }
    throw e;
  }
}
