import { access } from "node:fs/promises";
import { browserWebSocketUrl, launchChromium, type LaunchedChromium, openPage, WebSocketTransport } from "@baton/sdk/node";
import type { McpPage } from "./mcp-server.js";
import { guardBrowserRequests, isRestricted, type OriginPolicy } from "./origin-policy.js";

/** The browser `baton mcp` serves from: one per server, a page per client session. */
export interface McpBrowser {
  /** How the browser was reached, for the start-up line. */
  readonly where: string;
  openPage(): Promise<McpPage>;
  close(): Promise<void>;
}

/** Options of {@link startMcpBrowser}. */
export interface McpBrowserOptions {
  /** Attach to a running browser (`ws://…` or `http://host:port`) instead of launching one. */
  readonly cdpUrl?: string;
  /** The Chromium to launch (found by `ensureChromium`). */
  readonly executablePath?: string;
  readonly headed: boolean;
  readonly policy: OriginPolicy;
  readonly viewport: { width: number; height: number };
}

/**
 * Launches Chromium (throwaway profile; headless unless `headed`) or attaches to `cdpUrl`. In
 * a launched browser the origin policy holds for every request (`guardBrowserRequests`); in an
 * attached one — the user's, with their other tabs — only the URLs tools are given are checked.
 */
export async function startMcpBrowser(o: McpBrowserOptions): Promise<McpBrowser> {
  let browser: LaunchedChromium | undefined;
  const ws = o.cdpUrl
    ? await browserWebSocketUrl(o.cdpUrl)
    : (browser = await launchChromium({ headless: !o.headed, ...(o.executablePath ? { executablePath: o.executablePath } : {}) })).wsEndpoint;
  let transport: WebSocketTransport;
  try {
    transport = await WebSocketTransport.connect(ws);
    if (browser && isRestricted(o.policy)) await guardBrowserRequests(transport, o.policy);
  } catch (e) {
    await browser?.close();
    throw e;
  }
  return {
    where: browser ? `Chromium (${o.headed ? "headed" : "headless"}, launched)` : `the browser at ${o.cdpUrl}`,
    async openPage() {
      const engine = await openPage(transport, { viewport: o.viewport, fileExists: (p) => access(p).then(() => true, () => false) });
      return {
        engine,
        async close() {
          engine.dispose();
          await transport.send("Target.closeTarget", { targetId: engine.page.targetId }).catch(() => undefined);
        },
      };
    },
    async close() {
      await transport.close().catch(() => undefined);
      await browser?.close();
    },
  };
}
