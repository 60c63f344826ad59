import { access } from "node:fs/promises";
import { connectCdpEndpoint, type GuardedChromium, launchGuardedChromium, openPage } from "@baton/sdk/node";
import { guardBrowser, type UrlPolicy } from "@baton/sdk/policy";
import type { McpPage } from "./mcp-server.js";

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
  /** The URL policy (`--allowed-origins`, `--blocked-origins`). */
  readonly policy: UrlPolicy;
  readonly viewport: { width: number; height: number };
  /**
   * Snapshot diffs (`--snapshot-diffs`): a take_snapshot of the page the client read last returns
   * what changed. Off unless asked: an MCP client may drop old tool results from its context.
   */
  readonly snapshotDiffs?: boolean;
}

/**
 * Launches Chromium (throwaway profile; headless unless `headed`) or attaches to `cdpUrl`. A
 * launched browser holds every request, frame, tab and WebSocket to the URL policy itself
 * (`launchGuardedChromium`); in an attached one — the user's, with their other tabs — each
 * page's own requests are held over CDP and the engine holds what it opens and the tabs and
 * pages its actions lead to (`attachedGuardNotice` says what is not).
 */
export async function startMcpBrowser(o: McpBrowserOptions): Promise<McpBrowser> {
  let browser: GuardedChromium | undefined;
  const transport = o.cdpUrl
    ? await connectCdpEndpoint(o.cdpUrl)
    : (browser = await launchGuardedChromium({ headless: !o.headed, policy: o.policy, ...(o.executablePath ? { executablePath: o.executablePath } : {}) })).transport;
  return {
    where: browser ? `Chromium (${o.headed ? "headed" : "headless"}, launched)` : `the browser at ${o.cdpUrl}`,
    async openPage() {
      const engine = await openPage(transport, { viewport: o.viewport, noBackForwardCache: !browser, urlPolicy: o.policy, snapshotDiffs: o.snapshotDiffs ?? false, fileExists: (p) => access(p).then(() => true, () => false) });
      // Only our page: the attached browser's other tabs are the user's.
      if (!browser) await guardBrowser(transport, o.policy, { sessionId: engine.page.rootId });
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
