import { spendLine, wireSpend } from "@baton/backend/budget";
import type { Session } from "@baton/gen/baton/v1/agent_pb";
import type { ApprovalDecision, BatonClient } from "@baton/sdk/client";
import { describeCall } from "@baton/sdk/client";
import { type PastSession, rememberSession } from "../past-sessions.js";
import { loadSettings, type Settings } from "../settings.js";
import { type DiagnosticsData, providerOf, record } from "../run/diagnostics.js";
import { historyTimeline } from "../run/history-timeline.js";
import { LogReporter } from "../run/log-reporter.js";
import { pendingRun, TaskRunner } from "../run/task-runner.js";
import { type PanelEvent, reduceTimeline, type TimelineItem } from "../run/timeline.js";
import type { CardDecision } from "../run/tool-executor.js";
import type { RunRecord } from "../run-record.js";

/** How the panel reaches an AgentService: the seam between connected and standalone modes. */
export interface PanelServices {
  /** A client for these settings: the user's backend over connect-web, or the AgentService in this page (standalone). */
  client(settings: Settings): BatonClient;
}

/** What the panel shows. */
export interface PanelState {
  readonly items: readonly TimelineItem[];
  readonly running: boolean;
  readonly paused: boolean;
  /** The session on screen (running, or a past one reopened), for follow-ups. */
  readonly sessionId?: string;
  /** What the task spent against its budget ("2,200 of 5,000 tokens used, $0.01 of $0.5 spent"); "" without a budget. */
  readonly spend: string;
}

/** A session's spend against its budget, in words, as the backend words it ("" when it has no budget). */
function spendOf(session: Session): string {
  const w = wireSpend(session, Date.now());
  return spendLine(w.budget, w.spent);
}

const diagnosticsKey = "diagnostics";

/**
 * The panel's state outside the UI library: the timeline (reduced from the run's events), the
 * run in progress, the cards waiting for the user, diagnostics, logs and the past-sessions
 * list. The view subscribes and renders; every decision lives here.
 */
export class PanelModel {
  #state: PanelState = { items: [], running: false, paused: false, spend: "" };
  readonly #listeners = new Set<() => void>();
  readonly #waiting = new Map<string, (value: unknown) => void>();
  #runner: TaskRunner | undefined;
  #logs: LogReporter | undefined;
  #thinkingSince = 0;
  #provider = "default";
  #task = "";
  #startedAt = 0;

  constructor(private readonly services: PanelServices) {}

  /** The current state. */
  get state(): PanelState {
    return this.#state;
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #set(change: Partial<PanelState>): void {
    this.#state = { ...this.#state, ...change };
    for (const l of this.#listeners) l();
  }

  #push(e: PanelEvent): void {
    const runner = this.#runner;
    const items = reduceTimeline(this.#state.items, e, { describe: (call) => runner?.describe(call) ?? describeCall(call, () => undefined) });
    // Updated after every step, so the spend shows while the task runs; it stays once it ends.
    this.#set(e.type === "session" || e.type === "spend" ? { items, spend: spendOf(e.session) } : { items });
    void this.#observe(e);
  }

  /** Side effects of an event: diagnostics, logs, the past-sessions list. */
  async #observe(e: PanelEvent): Promise<void> {
    const settings = await loadSettings();
    if (e.type === "session") {
      this.#provider = providerOf(e.session.model);
      this.#logs?.at(e.session.id, e.session.step);
      this.#set({ sessionId: e.session.id });
      await rememberSession({ sessionId: e.session.id, task: this.#task || e.session.task, status: "running", answer: "", at: this.#startedAt });
    } else if (e.type === "tool_end" && e.error) {
      this.#logs?.report("warn", `${e.tool.name} failed: ${e.error.message}`, { tool: e.tool.name, toolcallId: e.toolcallId, attributes: { code: String(e.error.code) } });
    } else if (e.type === "error") {
      this.#logs?.report("error", e.message);
    } else if (e.type === "done") {
      const o = e.outcome;
      await rememberSession({ sessionId: o.sessionId, task: this.#task || o.session.task, status: o.status, answer: o.answer || o.reason, at: this.#startedAt });
      await this.#logs?.flush();
    }
    if (!settings.diagnostics) return;
    const data = ((await chrome.storage.local.get(diagnosticsKey))[diagnosticsKey] as DiagnosticsData | undefined) ?? {};
    let changed = false;
    if (e.type === "thinking") this.#thinkingSince ||= performance.now();
    else if (this.#thinkingSince && (e.type === "tool_start" || e.type === "text" || e.type === "done" || e.type === "approval_request")) {
      record(data, this.#provider, "model", performance.now() - this.#thinkingSince, !(e.type === "done" && e.outcome.status === "failed"));
      this.#thinkingSince = 0;
      changed = true;
    }
    if (e.type === "tool_end") {
      record(data, this.#provider, `tool:${e.tool.name}`, e.ms, !e.error);
      changed = true;
    }
    if (changed) await chrome.storage.local.set({ [diagnosticsKey]: data });
  }

  /** Reports a panel error (an exception nobody caught) to the backend. */
  reportError(message: string, stack?: string): void {
    this.#logs?.report("error", message, stack ? { attributes: { stack } } : {});
  }

  #wait<T>(id: string, signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, resolve as (v: unknown) => void);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  }

  async #run(go: (runner: TaskRunner) => Promise<unknown>): Promise<void> {
    const settings = await loadSettings();
    const client = this.services.client(settings);
    this.#logs = new LogReporter(client);
    const runner = new TaskRunner({
      client,
      settings,
      ui: {
        event: (e) => this.#push(e),
        ask: (question, choices, signal) => {
          const id = `q-${Date.now()}`;
          this.#push({ type: "question", id, question, choices });
          return this.#wait<string>(id, signal);
        },
        approve: (req, signal) => {
          this.#push({
            type: "approval_request",
            id: req.toolcallId,
            description: req.description,
            page: req.page,
            source: "policy",
            ...(req.upload ? { upload: req.upload } : {}),
            ...(req.remember ? { remember: req.remember } : {}),
          });
          return this.#wait<CardDecision>(req.toolcallId, signal);
        },
        approveHeld: (req, signal) => this.#wait<ApprovalDecision>(req.toolcallId, signal),
        image: (toolcallId, image) => {
          const src = URL.createObjectURL(new Blob([image.data as Uint8Array<ArrayBuffer>], { type: image.mimeType || "image/jpeg" }));
          this.#push({ type: "image", toolcallId, src });
        },
      },
    });
    this.#runner = runner;
    const offPause = runner.pause.onChange((reason) => this.#set({ paused: !!reason }));
    this.#set({ running: true, paused: false });
    try {
      await go(runner);
    } catch {
      // The timeline already says why (an "error" event); the record stays for a resume.
    } finally {
      offPause();
      this.#waiting.clear();
      this.#set({ running: false, paused: false });
    }
  }

  /** Starts a task in a tab (or sends a follow-up in the session on screen). */
  start(task: string, tabId: number): Promise<void> {
    this.#task = task;
    this.#startedAt = Date.now();
    const follow = this.#state.sessionId && !this.#state.running ? this.#state.sessionId : undefined;
    if (!follow) this.#set({ items: [], spend: "" });
    return this.#run((r) => (follow ? r.followUp(follow, task, tabId) : r.start(task, tabId)));
  }

  /** Reattaches to the run a closed panel left, if there is one; true when it did. */
  async resumePending(): Promise<boolean> {
    const rec: RunRecord | undefined = await pendingRun();
    if (!rec) return false;
    this.#task = rec.task;
    this.#startedAt = rec.startedAt;
    // What happened before the panel closed, from the backend's history.
    const settings = await loadSettings();
    const before = await this.services
      .client(settings)
      .getSession({ sessionId: rec.sessionId })
      .then((got) => historyTimeline(got).filter((i) => i.kind !== "outcome"))
      .catch(() => []);
    this.#set({ items: before, sessionId: rec.sessionId });
    void this.#run((r) => r.resume(rec, before.length === 0));
    return true;
  }

  /** Stops the run in progress. */
  stop(): void {
    this.#runner?.stop();
  }

  /**
   * Approves or denies a call (either kind of approval card). With `keepMs` the answer is
   * remembered for every call of its action class on its site (always or never), for that long
   * (0: until revoked); only a card that offers it (`remember`) passes one.
   */
  decide(id: string, approved: boolean, keepMs?: number): void {
    const resolve = this.#waiting.get(id);
    if (!resolve) return;
    this.#waiting.delete(id);
    const onSite = keepMs !== undefined;
    this.#push({ type: "approval_decided", id, approved, ...(onSite ? { onSite } : {}) });
    resolve({
      approved,
      ...(approved ? {} : { reason: onSite ? "The user never allows this on this site." : "The user denied it in the panel." }),
      ...(onSite ? { scope: "site" as const, ...(keepMs > 0 ? { expiresAt: Date.now() + keepMs } : {}) } : {}),
    } satisfies ApprovalDecision);
  }

  /** Approves an upload card's files and adds the folders it offered to the upload folders ("Always allow files from"). */
  allowFolders(id: string, folders: readonly string[]): void {
    const resolve = this.#waiting.get(id);
    if (!resolve) return;
    this.#waiting.delete(id);
    this.#push({ type: "approval_decided", id, approved: true, addedFolders: folders });
    resolve({ approved: true, addFolders: true } satisfies CardDecision);
  }

  /** Answers an ask_user question. */
  answer(id: string, answer: string): void {
    const resolve = this.#waiting.get(id);
    if (!resolve) return;
    this.#waiting.delete(id);
    this.#push({ type: "answered", id, answer });
    resolve(answer);
  }

  /** Resumes after the debugger bar was cancelled. */
  resumeDebugger(): void {
    this.#runner?.resumeDebugger();
  }

  /** Goes on through the page after the debugger bar was cancelled. */
  continueWithoutDebugger(): void {
    void this.#runner?.continueWithoutDebugger();
  }

  /** Clears the screen for a new task. */
  newTask(): void {
    if (this.#state.running) return;
    this.#set({ items: [], sessionId: undefined, spend: "" });
  }

  /** Shows a past session, rebuilt from the backend's history. */
  async openPast(s: PastSession): Promise<void> {
    if (this.#state.running) return;
    const settings = await loadSettings();
    this.#set({ items: [{ kind: "task", id: "loading", text: s.task }], sessionId: s.sessionId, spend: "" });
    try {
      const got = await this.services.client(settings).getSession({ sessionId: s.sessionId });
      this.#set({ items: historyTimeline(got) });
    } catch (e) {
      this.#push({ type: "error", message: `Could not load this session: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
}
