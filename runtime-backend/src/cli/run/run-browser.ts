import { access } from "node:fs/promises";
import type { Engine } from "@baton/sdk/engine";
import { browserWebSocketUrl, launchChromium, type LaunchedChromium, openPage, WebSocketTransport } from "@baton/sdk/node";

/** The browser page a run acts on. */
export interface RunBrowser {
  readonly engine: Engine;
  close(): Promise<void>;
}

/**
 * Opens a fresh page: in a Chromium this run launches (headless unless `headed`, throwaway
 * profile) or in a running browser at `cdpUrl`. Closing closes the page, and the browser only
 * when this run launched it.
 */
export async function openRunBrowser(o: { cdpUrl?: string; headed?: boolean; executablePath?: string }): Promise<RunBrowser> {
  let browser: LaunchedChromium | undefined;
  const launch = { headless: !o.headed, ...(o.executablePath ? { executablePath: o.executablePath } : {}) };
  const ws = o.cdpUrl ? await browserWebSocketUrl(o.cdpUrl) : (browser = await launchChromium(launch)).wsEndpoint;
  try {
    const transport = await WebSocketTransport.connect(ws);
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
        await transport.close().catch(() => undefined);
        await browser?.close();
      },
    };
  } catch (e) {
    await browser?.close();
    throw e;
  }
}
