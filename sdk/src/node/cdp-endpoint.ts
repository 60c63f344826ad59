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
