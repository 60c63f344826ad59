import type { CdpTransport } from "../cdp/transport.js";
import { Engine, type EngineOptions } from "../engine/engine.js";

/** Options for `openPage`. */
export interface OpenPageOptions extends EngineOptions {
  /** Viewport size in CSS pixels (default 1280×800). */
  viewport?: { width: number; height: number };
  /** The browser context to open the page in (`Target.createBrowserContext`); default the browser's own. */
  browserContextId?: string;
  /**
   * Keep the page's documents out of the back/forward cache, for a browser Baton did not launch
   * (a launched one has `--disable-back-forward-cache`): a page left behind is not kept alive
   * with its open requests (an app's event stream per page spends the host's six connections
   * in six loads). An `unload` listener, in a world of our own, makes a page ineligible.
   */
  noBackForwardCache?: boolean;
}

/**
 * Creates a fresh page target over a browser-level connection, sizes its viewport, and opens
 * an engine on it. The caller closes the target with `Target.closeTarget` when done.
 */
export async function openPage(transport: CdpTransport, options: OpenPageOptions = {}): Promise<Engine> {
  const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", {
    url: "about:blank",
    ...(options.browserContextId ? { browserContextId: options.browserContextId } : {}),
  });
  const engine = await Engine.attach(transport, targetId, options);
  if (options.noBackForwardCache) {
    await engine.page.send("Page.addScriptToEvaluateOnNewDocument", { source: "addEventListener('unload', () => {})", worldName: "baton-no-bfcache" });
  }
  const vp = options.viewport ?? { width: 1280, height: 800 };
  await engine.page.send("Emulation.setDeviceMetricsOverride", {
    width: vp.width,
    height: vp.height,
    deviceScaleFactor: 1,
    mobile: false,
  });
  return engine;
}
