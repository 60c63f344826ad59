import { WebSocketTransport } from "./ws-transport.js";

/**
 * The browser-level DevTools WebSocket of an endpoint given as `ws://…` (used as it is) or
 * `http://host:port` (read from its `/json/version`), as `chromium --remote-debugging-port`
 * prints and serves them.
 */
export async function browserWebSocketUrl(cdpUrl: string): Promise<string> {
  if (/^wss?:/i.test(cdpUrl)) return cdpUrl;
  const res = await fetch(new URL("/json/version", cdpUrl), { signal: AbortSignal.timeout(5_000) });
  const info = (await res.json()) as { webSocketDebuggerUrl?: string };
  if (!info.webSocketDebuggerUrl) throw new Error(`${cdpUrl}/json/version names no webSocketDebuggerUrl`);
  return info.webSocketDebuggerUrl;
}

/**
 * A browser-level connection to a running browser at `cdpUrl` (`ws://…` or `http://host:port`).
 * An endpoint that does not answer rejects with an error that names it and says what to check.
 */
export async function connectCdpEndpoint(cdpUrl: string): Promise<WebSocketTransport> {
  try {
    return await WebSocketTransport.connect(await browserWebSocketUrl(cdpUrl));
  } catch (e) {
    const why = e instanceof Error ? (e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message) : String(e);
    throw new Error(`the browser at ${cdpUrl} did not answer (${why}); is it running with --remote-debugging-port, at that address?`);
  }
}
