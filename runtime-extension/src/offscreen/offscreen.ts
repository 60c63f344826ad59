/**
 * The keepalive document: while it exists (a run is in progress), it pings the service worker
 * every 20 s, within the 30 s after which Chrome stops an idle worker.
 */
import type { WorkerMessage } from "../messages.js";

const ping: WorkerMessage = { to: "worker", kind: "ping" };
setInterval(() => void chrome.runtime.sendMessage(ping).catch(() => undefined), 20_000);
