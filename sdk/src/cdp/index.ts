/**
 * CDP transports: the interface the engine speaks, and the `chrome.debugger` implementation.
 * The WebSocket implementation is Node-only and lives under `@baton/sdk/node`.
 */
export { ChromeDebuggerTransport, type ChromeDebuggerApi, type ChromeDebuggerTarget } from "./chrome-debugger-transport.js";
export type * from "./protocol.js";
export { delay, TimeoutError, withTimeout } from "./timeouts.js";
export { CdpClosedError, CdpError, type CdpEvent, type CdpTransport, Listeners } from "./transport.js";
