import type { ToolcallResult } from "@baton/gen/baton/v1/agent_pb";

/** What a journal remembers of one tool call. */
export type JournalEntry = { readonly state: "started" } | { readonly state: "done"; readonly result: ToolcallResult };

/**
 * Where `runTask` records each tool call that may change something (not read-only ones), so
 * that a later run of the same session (a new process after a crash, an extension service
 * worker that was shut down) never runs such a call twice: a call with a recorded result sends
 * that result again, and a call that was started but never finished is answered with
 * `TOOL_ERROR_CODE_INTERRUPTED`. `started` must be durable before it resolves: the call runs
 * right after.
 */
export interface CallJournal {
  /** What this journal knows of a call, if anything. */
  get(sessionId: string, toolcallId: string): JournalEntry | undefined | Promise<JournalEntry | undefined>;
  /** The call is about to run. */
  started(sessionId: string, toolcallId: string): void | Promise<void>;
  /** The call ended with this result (or error). */
  done(sessionId: string, result: ToolcallResult): void | Promise<void>;
  /** The session ended: its entries may go. */
  end(sessionId: string): void | Promise<void>;
}

/**
 * A journal in memory: shared by runs in one process (a run that lost its backend and a run
 * that resumes the session later). For a journal that outlives the process, see `fileJournal`
 * in `@baton/sdk/node`, or implement `CallJournal` on the storage at hand (`chrome.storage`).
 */
export function memoryJournal(): CallJournal & { entries(): Iterable<[sessionId: string, toolcallId: string, entry: JournalEntry]> } {
  const bySession = new Map<string, Map<string, JournalEntry>>();
  const of = (sessionId: string): Map<string, JournalEntry> => {
    let m = bySession.get(sessionId);
    if (!m) bySession.set(sessionId, (m = new Map()));
    return m;
  };
  return {
    get: (sessionId, toolcallId) => bySession.get(sessionId)?.get(toolcallId),
    started: (sessionId, toolcallId) => void of(sessionId).set(toolcallId, { state: "started" }),
    done: (sessionId, result) => void of(sessionId).set(result.toolcallId, { state: "done", result }),
    end: (sessionId) => void bySession.delete(sessionId),
    /** Every entry, by session (for journals that persist this one). */
    *entries() {
      for (const [s, calls] of bySession) for (const [id, e] of calls) yield [s, id, e];
    },
  };
}
