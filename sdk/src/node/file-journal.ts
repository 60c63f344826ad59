import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { type ToolcallResult } from "@baton/gen/baton/v1/agent_pb";
import { ToolcallResultSchema } from "@baton/gen/baton/v1/descriptors";
import { type CallJournal, memoryJournal } from "../client/journal.js";

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
  // The state lives in a memory journal; the file is its log.
  const mem = memoryJournal();
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
    if (line.end) mem.end(line.s);
    else if (line.r !== undefined) {
      try {
        mem.done(line.s, fromBinary(ToolcallResultSchema, Buffer.from(line.r, "base64")));
      } catch {
        // A damaged record: the call counts as started, so it is not run blindly again.
        if (line.id) mem.started(line.s, line.id);
      }
    } else if (line.id) mem.started(line.s, line.id);
  }
  // Rewrite without ended sessions and torn lines, atomically, then append from there.
  mkdirSync(dirname(path), { recursive: true });
  const kept: string[] = [];
  for (const [s, id, e] of mem.entries()) kept.push(`${JSON.stringify(e.state === "done" ? { s, id, r: encode(e.result) } : { s, id })}\n`);
  writeFileSync(`${path}.tmp`, kept.join(""));
  renameSync(`${path}.tmp`, path);
  const fd = openSync(path, "a");
  const append = (line: Line): void => {
    writeSync(fd, `${JSON.stringify(line)}\n`);
    if (sync) fsyncSync(fd);
  };
  return {
    get: (sessionId, toolcallId) => mem.get(sessionId, toolcallId),
    started(sessionId, toolcallId) {
      append({ s: sessionId, id: toolcallId });
      void mem.started(sessionId, toolcallId);
    },
    done(sessionId, result) {
      append({ s: sessionId, id: result.toolcallId, r: encode(result) });
      void mem.done(sessionId, result);
    },
    end(sessionId) {
      append({ s: sessionId, end: true });
      void mem.end(sessionId);
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
