/**
 * The service worker: a stateless relay (Chrome may stop it at any moment, so it keeps no
 * state the run needs). It opens the side panel from the toolbar
 * button, keeps itself awake while a panel runs a turn (offscreen keepalive), checks the token
 * on an alarm, and cleans up after a panel that closed mid-run: the mask comes off the agent's
 * tabs, the debugger detaches and the site policy's network rules are lifted, so the user gets their tabs back until the panel reopens and
 * resumes the run. No agent state lives here; what it reads is in `chrome.storage`.
 */
import { isWorkerMessage, keepalivePort, type ContentMessage } from "../messages.js";
import { loadRun } from "../run-record.js";
import { releaseTabRequests } from "../run/net-rules.js";
import { Keepalive } from "./keepalive.js";
import { restrictStorage } from "../storage-access.js";
import { checkToken, tokenAlarm } from "./token-check.js";

// First, on every start of the worker: the content script may not read what storage holds.
void restrictStorage().catch((e: unknown) => console.error("Baton could not close its storage to content scripts:", e));

const keepalive = new Keepalive();

function setUp(): void {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
  void chrome.alarms.create(tokenAlarm, { periodInMinutes: 30, delayInMinutes: 1 });
}
chrome.runtime.onInstalled.addListener(setUp);
chrome.runtime.onStartup.addListener(setUp);

chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === tokenAlarm) void checkToken();
});

/** Takes the mask off the run's tabs, detaches the debugger and lifts the site policy's network rules from them. */
async function releaseTabs(): Promise<void> {
  const run = await loadRun();
  if (!run) return;
  await releaseTabRequests().catch(() => undefined);
  const off: ContentMessage = { to: "content", kind: "mask", state: "off" };
  await Promise.all(
    run.tabIds.map(async (tabId) => {
      await chrome.tabs.sendMessage(tabId, off).catch(() => undefined);
      await chrome.debugger.detach({ tabId }).catch(() => undefined);
    }),
  );
}

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== keepalivePort) return;
  let released = false;
  port.onMessage.addListener((m: unknown) => {
    if (isWorkerMessage(m) && m.kind === "release") released = true;
  });
  port.onDisconnect.addListener(() => {
    void keepalive.release(port);
    // A panel that went away without releasing was closed mid-run.
    if (!released) void releaseTabs();
  });
  void keepalive.acquire(port);
});

// The offscreen document's pings only need a listener to arrive at: each resets the idle timer.
chrome.runtime.onMessage.addListener(() => false);
