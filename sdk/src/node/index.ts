/**
 * Node-only parts of the SDK: the WebSocket CDP transport, the Chromium launcher, the Connect
 * transport to a backend, and the `baton snapshot` command.
 */
export { browserWebSocketUrl, connectCdpEndpoint } from "./cdp-endpoint.js";
export { type FileJournalOptions, fileJournal } from "./file-journal.js";
export {
  type ChromiumEnv,
  chromiumMissingExitCode,
  chromiumMissingMessage,
  ChromiumNotFoundError,
  type EnsureChromiumOptions,
  ensureChromium,
  findChromium,
  type FoundChromium,
} from "./find-chromium.js";
export { type GuardedChromium, type GuardedLaunchOptions, launchGuardedChromium } from "./guarded-chromium.js";
export { defaultChromiumPath, type LaunchedChromium, type LaunchOptions, launchChromium } from "./launch-chromium.js";
export { type NodeTransportOptions, nodeTransport } from "./node-transport.js";
export { type OpenPageOptions, openPage } from "./open-page.js";
export { type CommandOutput, snapshotCommand } from "./snapshot-command.js";
export { nodePathResolver } from "./upload-resolver.js";
export { WebSocketTransport } from "./ws-transport.js";
