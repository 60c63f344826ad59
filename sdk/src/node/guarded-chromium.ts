import { guardBrowser } from "../policy/browser-guard.js";
import { hostResolverRules } from "../policy/host-resolver-rules.js";
import { openUrlPolicy, type UrlPolicy } from "../policy/url-policy.js";
import { type LaunchedChromium, type LaunchOptions, launchChromium } from "./launch-chromium.js";
import { WebSocketTransport } from "./ws-transport.js";

/** Options of {@link launchGuardedChromium}. */
export interface GuardedLaunchOptions extends LaunchOptions {
  /** The URL policy the browser is held to (default: no site lists, schemes only). */
  readonly policy?: UrlPolicy;
}

/** A Chromium Baton launched and holds to a URL policy, with the connection that holds it. */
export interface GuardedChromium {
  readonly chromium: LaunchedChromium;
  /** The browser-level connection; the guard lives as long as it is open. */
  readonly transport: WebSocketTransport;
  /** Closes the connection and the browser. */
  close(): Promise<void>;
}

/**
 * Launches Chromium (see `launchChromium`) held to a URL policy for every tab, frame, redirect,
 * subresource and WebSocket: the policy's site lists as `--host-resolver-rules`
 * (`hostResolverRules`: WebSockets and any other host lookup), and `guardBrowser` on the
 * browser-level connection before any page is opened (requests, and tabs showing `file:` or
 * the browser's own pages). `baton run`, `baton eval` and `baton mcp` launch through here.
 */
export async function launchGuardedChromium(options: GuardedLaunchOptions = {}): Promise<GuardedChromium> {
  const { policy = openUrlPolicy, ...launch } = options;
  const rules = hostResolverRules(policy);
  const chromium = await launchChromium({ ...launch, args: [...(launch.args ?? []), ...(rules ? [`--host-resolver-rules=${rules}`] : [])] });
  try {
    const transport = await WebSocketTransport.connect(chromium.wsEndpoint);
    try {
      await guardBrowser(transport, policy);
    } catch (e) {
      await transport.close();
      throw e;
    }
    return {
      chromium,
      transport,
      async close() {
        await transport.close().catch(() => undefined);
        await chromium.close();
      },
    };
  } catch (e) {
    await chromium.close();
    throw e;
  }
}
