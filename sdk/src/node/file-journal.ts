import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { type ToolcallResult, ToolcallResultSchema } from "@baton/gen/baton/v1/agent_pb";
import type { CallJournal, JournalEntry } from "../client/journal.js";

/** One line of the file: a call started, or its result (protobuf binary, base64). */
interface Line {
  readonly s: string;
  readonly id?: string;
  readonly r?: string;
  /** The session ended. */
  readonly end?: true;
}

/** Options of {@link fileJournal}. */
export interface FileJournalOptions {
  /** fsync after every record (default true): a record survives a power cut, not just a crash of this process. */
  readonly fsync?: boolean;
}

/**
 * A `CallJournal` in a file of JSON lines, for clients that must not run a call twice across
 * restarts (`runTask({ journal: fileJournal(path), sessionId })`). Each record is appended and
 * (by default) fsynced before `started` returns, so the call never runs before its record is
 * on disk. A torn last line (the process died mid-write) is skipped on load. Ended sessions
 * are dropped when the file is next opened.
 */
export function fileJournal(path: string, options: FileJournalOptions = {}): CallJournal & { close(): void } {
  const sync = options.fsync !== false;
  const entries = new Map<string, Map<string, JournalEntry>>();
  const of = (sessionId: string): Map<string, JournalEntry> => {
    let m = entries.get(sessionId);
    if (!m) entries.set(sessionId, (m = new Map()));
    return m;
  };
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  for (const raw of text.split("\n")) {
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      continue;
    }
    if (typeof line.s !== "string") continue;
    if (line.end) entries.delete(line.s);
    else if (line.r !== undefined) {
      try {
        const result = fromBinary(ToolcallResultSchema, Buffer.from(line.r, "base64"));
        of(line.s).set(result.toolcallId, { state: "done", result });
      } catch {
        // A damaged record: the call counts as started, so it is not run blindly again.
        if (line.id) of(line.s).set(line.id, { state: "started" });
      }
    } else if (line.id) of(line.s).set(line.id, { state: "started" });
  }
  // Rewrite without ended sessions and torn lines, atomically, then append from there.
  mkdirSync(dirname(path), { recursive: true });
  const kept: string[] = [];
  for (const [s, calls] of entries) {
    for (const [id, e] of calls) kept.push(JSON.stringify(e.state === "done" ? { s, id, r: encode(e.result) } : { s, id }));
  }
  writeFileSync(`${path}.tmp`, kept.map((l) => `${l}\n`).join(""));
  renameSync(`${path}.tmp`, path);
  const fd = openSync(path, "a");
  const append = (line: Line): void => {
    writeSync(fd, `${JSON.stringify(line)}\n`);
    if (sync) fsyncSync(fd);
  };
  return {
    get: (sessionId, toolcallId) => entries.get(sessionId)?.get(toolcallId),
    started(sessionId, toolcallId) {
      append({ s: sessionId, id: toolcallId });
      of(sessionId).set(toolcallId, { state: "started" });
    },
    done(sessionId, result) {
      append({ s: sessionId, id: result.toolcallId, r: encode(result) });
      of(sessionId).set(result.toolcallId, { state: "done", result });
    },
    end(sessionId) {
      if (!entries.has(sessionId)) return;
      append({ s: sessionId, end: true });
      entries.delete(sessionId);
    },
    /** Closes the file; the journal must not be used afterwards. */
    close() {
      closeSync(fd);
    },
  };
}

function encode(result: ToolcallResult): string {
  return Buffer.from(toBinary(ToolcallResultSchema, result)).toString("base64");
}
