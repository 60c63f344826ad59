import { access } from "node:fs/promises";
import type { Engine } from "@baton/sdk/engine";
import { connectCdpEndpoint, type GuardedChromium, launchGuardedChromium, openPage } from "@baton/sdk/node";
import { guardBrowser, openUrlPolicy, type UrlPolicy } from "@baton/sdk/policy";

/** The browser page a run acts on. */
export interface RunBrowser {
  readonly engine: Engine;
  close(): Promise<void>;
}

/**
 * Opens a fresh page: in a Chromium this run launches (headless unless `headed`, throwaway
 * profile, held to the site policy for every tab, frame, redirect, request and WebSocket:
 * `launchGuardedChromium`) or in a running browser at `cdpUrl` (the page's own requests are
 * held over CDP, and the engine holds where it goes and the tabs it opens: `attachedGuardNotice`
 * says what is not). Either way the engine refuses a page-changing call on a read-only site. Closing
 * closes the page, and the browser only when this run launched it.
 */
export async function openRunBrowser(o: { cdpUrl?: string; headed?: boolean; executablePath?: string; policy?: UrlPolicy }): Promise<RunBrowser> {
  let browser: GuardedChromium | undefined;
  const launch = { headless: !o.headed, ...(o.policy ? { policy: o.policy } : {}), ...(o.executablePath ? { executablePath: o.executablePath } : {}) };
  try {
    const transport = o.cdpUrl ? await connectCdpEndpoint(o.cdpUrl) : (browser = await launchGuardedChromium(launch)).transport;
    const engine = await openPage(transport, {
      viewport: { width: 1280, height: 800 },
      noBackForwardCache: !browser,
      // The loop asks for the whole page whenever the model no longer holds the last one (loop/snapshot-base.ts).
      snapshotDiffs: true,
      ...(o.policy ? { urlPolicy: o.policy } : {}),
      fileExists: (p) => access(p).then(() => true, () => false),
    });
    // Only our page: the attached browser's other tabs are the user's.
    if (!browser) await guardBrowser(transport, o.policy ?? openUrlPolicy, { sessionId: engine.page.rootId });
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
