import { type ApprovalDecision, type BatonClient, describeCall, type RefLookup, type RunEvent, runTask, type TaskBudget, type TaskOutcome } from "@baton/sdk/client";
import { Code, ConnectError } from "@connectrpc/connect";
import { keepalivePort, type WorkerMessage } from "../messages.js";
import { clearRun, loadRun, type RunRecord, saveRun } from "../run-record.js";
import { loadSecrets } from "../secrets-store.js";
import { onSiteListsChange } from "../site-policy-store.js";
import { saveAuth, type Settings, taskBudgetOf } from "../settings.js";
import { AgentTabs, waitLoaded } from "./agent-tabs.js";
import { serviceApprovalRules } from "./approval-rules.js";
import { PauseGate } from "./pause-gate.js";
import { runPolicy } from "./run-policy.js";
import { storageJournal } from "./storage-journal.js";
import type { PanelEvent } from "./timeline.js";
import { createExecutor, type ExecutorUi } from "./tool-executor.js";
import type { ToolCall } from "@baton/gen/baton/v1/tools_pb";
import type { UrlPolicy } from "@baton/sdk/policy";

/** What a run needs from the panel. */
export interface RunnerUi extends Omit<ExecutorUi, "notice"> {
  /** Every event, for the timeline (and diagnostics, logs). */
  event(e: PanelEvent): void;
  /** Decides a call the backend holds for approval. */
  approveHeld(request: { toolcallId: string; description: string }, signal: AbortSignal): Promise<ApprovalDecision>;
}

/** Options of {@link TaskRunner}. */
export interface TaskRunnerOptions {
  /**
   * The AgentService client: the user's backend (connected mode) or the service in the panel's
   * own page over an in-memory transport (standalone mode).
   */
  readonly client: BatonClient;
  readonly settings: Settings;
  readonly ui: RunnerUi;
}

/** A run this panel holds: start one, or resume the one a closed panel left. */
export interface RunHandle {
  readonly sessionId: () => string | undefined;
  readonly done: Promise<TaskOutcome>;
}

/** The lock a panel holds while it runs a task, so two panels (two windows) never run the same one. */
const runLock = "baton-run";

/**
 * One task, from the panel's side: owns the agent's tabs, runs `runTask` with the executor's
 * handlers and a call journal on `chrome.storage`, keeps the service worker awake while it
 * runs, and keeps the run record that lets a reopened panel reattach with no step repeated.
 * The UI stays out: it gets events and answers questions through `RunnerUi`.
 */
export class TaskRunner {
  readonly pause = new PauseGate();
  readonly #stopper = new AbortController();
  #tabs: AgentTabs | undefined;
  #sessionId: string | undefined;
  #lookup: RefLookup = () => undefined;

  constructor(private readonly o: TaskRunnerOptions) {}

  /** The session, once created. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** A call in words, with elements named from the engine's snapshots. */
  describe(call: ToolCall): string {
    return describeCall(call, this.#lookup);
  }

  /** Stops the run: no tool runs after this, and the session's stop flag is set. */
  stop(): void {
    this.#stopper.abort(new Error("stopped by the user"));
  }

  /** Starts a task in `startTabId`. */
  start(task: string, startTabId: number): Promise<TaskOutcome> {
    const owned = { startTabId, activeTabId: startTabId, tabIds: [startTabId] };
    this.o.ui.event({ type: "task", text: task });
    const { model, maxSteps } = this.o.settings;
    // The same in both modes: the standalone AgentService holds the session to CreateSession's budget as a backend does.
    const budget = taskBudgetOf(this.o.settings);
    return this.#locked(() => this.#run({ task, ...(model ? { model } : {}), ...(maxSteps > 0 ? { maxSteps } : {}), ...(budget ? { budget } : {}) }, owned, task));
  }

  /** Sends a follow-up message in an earlier session, acting in `tabId`. */
  followUp(sessionId: string, text: string, tabId: number): Promise<TaskOutcome> {
    this.#sessionId = sessionId;
    this.o.ui.event({ type: "task", text });
    return this.#locked(() => this.#run({ sessionId, task: text }, { startTabId: tabId, activeTabId: tabId, tabIds: [tabId] }, text));
  }

  /** Resumes the run a closed panel left (its record); `announceTask` when the timeline does not show it yet. */
  resume(record: RunRecord, announceTask = true): Promise<TaskOutcome> {
    this.#sessionId = record.sessionId;
    if (announceTask) this.o.ui.event({ type: "task", text: record.task });
    this.o.ui.event({ type: "resuming" });
    return this.#locked(() => this.#run({ sessionId: record.sessionId }, record, record.task));
  }

  /** Re-attaches after the user cancelled Chrome's debugging bar. */
  resumeDebugger(): void {
    this.pause.resume();
  }

  /** Goes on through the page (the DOM fallback) after the user cancelled the debugging bar. */
  async continueWithoutDebugger(): Promise<void> {
    await this.#tabs?.withoutDebugger();
    this.pause.resume();
  }

  async #locked<T>(fn: () => Promise<T>): Promise<T> {
    return navigator.locks.request(runLock, { ifAvailable: true }, async (lock) => {
      if (!lock) throw new Error("A task is already running in another Baton panel (another window).");
      return fn();
    });
  }

  async #run(
    what: { task: string; model?: string; maxSteps?: number; budget?: TaskBudget } | { sessionId: string; task?: string },
    owned: { startTabId: number; activeTabId: number; tabIds: readonly number[]; groupId?: number },
    task: string,
  ): Promise<TaskOutcome> {
    const { ui } = this.o;
    const signal = this.#stopper.signal;
    const startedAt = Date.now();
    const persist = async () => {
      if (!this.#sessionId || !this.#tabs) return;
      const record: RunRecord = { sessionId: this.#sessionId, task, startedAt, ...this.#tabs.owned };
      await saveRun(record);
    };
    let policy: UrlPolicy;
    try {
      policy = await runPolicy(this.o.client, this.o.settings, signal);
    } catch (e) {
      ui.event({ type: "error", message: `Could not read the site policy, so nothing ran: ${e instanceof Error ? e.message : String(e)}` });
      await noteRefusal(e);
      throw e;
    }
    const tabs = new AgentTabs(owned, {
      onChange: () => void persist(),
      onDetach: (_tabId, reason) => {
        if (reason === "canceled_by_user") this.pause.pause("debugger-cancelled");
      },
    }, policy);
    this.#tabs = tabs;
    try {
      // The tabs' requests are held before the agent does anything in them.
      await tabs.holdRequests();
    } catch (e) {
      await tabs.releaseRequests().catch(() => undefined);
      ui.event({ type: "error", message: `Could not hold the agent's tabs to the site policy, so nothing ran: ${e instanceof Error ? e.message : String(e)}` });
      throw e;
    }
    // A tab still loading its page when the task starts is read once it has loaded, as the user sees it.
    await waitLoaded(owned.activeTabId);
    // The policy as it is now, for the tabs, the engine and the tabs' requests: read again when
    // the user saves new lists and before each model call (the backend's may have changed). A
    // backend that cannot say keeps the policy the run has.
    const refreshPolicy = () => void runPolicy(this.o.client, this.o.settings, signal).then((p) => tabs.usePolicy(p)).catch(() => undefined);
    const offPolicy = onSiteListsChange(refreshPolicy);
    const offPause = this.pause.onChange((reason) => ui.event({ type: "paused", reason }));
    const executor = createExecutor({
      tabs,
      pause: this.pause,
      ui: { ...ui, notice: (notice) => ui.event({ type: "notice", notice }) },
      askEveryChange: () => this.o.settings.approval === "every-change",
      rules: serviceApprovalRules(this.o.client),
    });

    // Tabs the agent's tabs open become the agent's; closed ones leave; a new document gets the mask again.
    const onCreated = (tab: chrome.tabs.Tab) => void tabs.adopt(tab);
    const onRemoved = (tabId: number) => tabs.removed(tabId);
    const onUpdated = (tabId: number, info: chrome.tabs.OnUpdatedInfo) => {
      if (info.status === "complete" && tabs.owns(tabId)) {
        // The state it is in now: the agent may be acting in it at this very moment.
        void tabs.drivers().find((x) => x.tabId === tabId)?.remask();
      }
    };
    chrome.tabs.onCreated.addListener(onCreated);
    chrome.tabs.onRemoved.addListener(onRemoved);
    chrome.tabs.onUpdated.addListener(onUpdated);
    const keepalive = holdWorker();
    this.#lookup = executor.lookup;
    const describe = (call: ToolCall) => describeCall(call, executor.lookup);
    void tabs.active.mask("watching").catch(() => undefined);
    let ended = false;
    try {
      const outcome = await runTask(this.o.client, {
        ...what,
        handlers: executor.handlers,
        journal: storageJournal(),
        // The user's secrets: typed where the model wrote their placeholders, on the agent's
        // active tab when its origin allows; masked in everything that leaves this panel.
        secrets: await loadSecrets(),
        page: { url: async () => (await pageOf(tabs.owned.activeTabId)).url },
        signal,
        onEvent: (e: RunEvent) => {
          if (e.type === "session") {
            this.#sessionId = e.session.id;
            tabs.nameAfter(e.session.id);
            void persist().then(() => tabs.group());
          }
          if (e.type === "done") ended = true;
          if (e.type === "thinking" && (e.attempt ?? 1) === 1) refreshPolicy();
          ui.event(e);
        },
        onApproval: async (req) => {
          ui.event({
            type: "approval_request",
            id: req.toolcallId,
            description: req.extension ? req.tool.title : describe(req.call),
            page: await pageOf(tabs.owned.activeTabId),
            source: "backend",
            // Where the backend can place the call, "always" and "never on this site" can be answered.
            ...(req.site && req.risk ? { remember: { site: req.site, risk: req.risk } } : {}),
          });
          return ui.approveHeld({ toolcallId: req.toolcallId, description: req.extension ? req.tool.title : describe(req.call) }, signal);
        },
      });
      // The run is over from this panel's side (completed, stopped, failed, or waiting for a message).
      await clearRun();
      return outcome;
    } catch (e) {
      // The backend refused the run or stayed unreachable: the record stays, so reopening the
      // panel (or pressing Resume) picks the session up again.
      if (!ended) ui.event({ type: "error", message: e instanceof Error ? e.message : String(e) });
      await noteRefusal(e);
      throw e;
    } finally {
      offPause();
      offPolicy();
      chrome.tabs.onCreated.removeListener(onCreated);
      chrome.tabs.onRemoved.removeListener(onRemoved);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      await Promise.all(tabs.drivers().map((d) => d.release()));
      await tabs.releaseRequests().catch((e: unknown) => console.error("Baton could not lift the site policy's rules from the tabs it let go:", e));
      keepalive.release();
    }
  }
}

/** The page a tab shows, for an approval card. */
async function pageOf(tabId: number): Promise<{ title: string; url: string }> {
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  return { title: tab?.title ?? "", url: tab?.url ?? "" };
}

/** Holds a keepalive port to the service worker, reconnecting if the worker restarts. */
function holdWorker(): { release(): void } {
  let released = false;
  let port: chrome.runtime.Port | undefined;
  const connect = () => {
    port = chrome.runtime.connect({ name: keepalivePort });
    port.onDisconnect.addListener(() => {
      if (!released) setTimeout(connect, 100);
    });
  };
  connect();
  return {
    release() {
      released = true;
      const bye: WorkerMessage = { to: "worker", kind: "release" };
      port?.postMessage(bye);
      port?.disconnect();
    },
  };
}

/** The run a closed panel left, if its tabs are still there. */
export async function pendingRun(): Promise<RunRecord | undefined> {
  const record = await loadRun();
  if (!record) return undefined;
  const alive: number[] = [];
  for (const id of record.tabIds) if (await chrome.tabs.get(id).then(() => true, () => false)) alive.push(id);
  if (alive.length === 0) {
    await clearRun();
    return undefined;
  }
  const activeTabId = alive.includes(record.activeTabId) ? record.activeTabId : (alive[0] as number);
  return { ...record, tabIds: alive, activeTabId };
}

/**
 * A call the backend refused for the token (revoked since the last check, say): the panel says
 * "Signed out" now, not at the next check. The run's first call may be any of its requests.
 */
async function noteRefusal(e: unknown): Promise<void> {
  const refused = ConnectError.from(e);
  if (refused.code === Code.Unauthenticated) await saveAuth({ state: "rejected", at: Date.now(), detail: refused.rawMessage });
}
