import { access } from "node:fs/promises";
import type { Engine } from "@baton/sdk/engine";
import { browserWebSocketUrl, type GuardedChromium, launchGuardedChromium, openPage, WebSocketTransport } from "@baton/sdk/node";

/** The browser page a run acts on. */
export interface RunBrowser {
  readonly engine: Engine;
  close(): Promise<void>;
}

/**
 * Opens a fresh page: in a Chromium this run launches (headless unless `headed`, throwaway
 * profile, held to the URL policy for every tab, frame, redirect and request:
 * `launchGuardedChromium`) or in a running browser at `cdpUrl` (the engine holds what it
 * opens). Closing closes the page, and the browser only when this run launched it.
 */
export async function openRunBrowser(o: { cdpUrl?: string; headed?: boolean; executablePath?: string }): Promise<RunBrowser> {
  let browser: GuardedChromium | undefined;
  const launch = { headless: !o.headed, ...(o.executablePath ? { executablePath: o.executablePath } : {}) };
  try {
    const transport = o.cdpUrl ? await WebSocketTransport.connect(await browserWebSocketUrl(o.cdpUrl)) : (browser = await launchGuardedChromium(launch)).transport;
    const engine = await openPage(transport, {
      viewport: { width: 1280, height: 800 },
      fileExists: (p) => access(p).then(() => true, () => false),
    });
    return {
      engine,
      async close() {
        engine.dispose();
        // An attached browser is the user's: close only our page.
        if (!browser) await transport.send("Target.closeTarget", { targetId: engine.page.targetId }).catch(() => undefined);
        await (browser ?? transport).close().catch(() => undefined);
      },
    };
  } catch (e) {
    await browser?.close();
    throw e;
  }
}
