/**
 * The record of the run in progress, in `chrome.storage.local`: what a reopened panel needs to
 * reattach to it (the session, the tabs the agent owns) and what the service worker needs to
 * clean up after a panel that closed mid-run (the mask, the debugger). It holds no agent
 * state: the session lives in the backend, the calls' outcomes in the call journal.
 */

/** The run in progress. */
export interface RunRecord {
  readonly sessionId: string;
  readonly task: string;
  /** The tab the task started in. */
  readonly startTabId: number;
  /** The tab the agent acts in now. */
  readonly activeTabId: number;
  /** Every tab the agent may touch: the start tab and the tabs it opened. */
  readonly tabIds: readonly number[];
  /** The tab group `Task(<id>)`, once made. */
  readonly groupId?: number;
  readonly startedAt: number;
}

const key = "run";

/** The run in progress, if any. */
export async function loadRun(): Promise<RunRecord | undefined> {
  return (await chrome.storage.local.get(key))[key] as RunRecord | undefined;
}

/** Records the run in progress. */
export async function saveRun(run: RunRecord): Promise<void> {
  await chrome.storage.local.set({ [key]: run });
}

/** Forgets the run (it ended). */
export async function clearRun(): Promise<void> {
  await chrome.storage.local.remove(key);
}
