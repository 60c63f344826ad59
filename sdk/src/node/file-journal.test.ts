import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { ToolcallResultSchema, ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import { afterEach, describe, expect, it } from "vitest";
import { toolError } from "../contract/index.js";
import { fileJournal } from "./file-journal.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const file = (): string => {
  const d = mkdtempSync(join(tmpdir(), "baton-journal-"));
  dirs.push(d);
  return join(d, "nested", "calls.jsonl");
};

describe("fileJournal", () => {
  it("keeps started calls and results across a reopen, results byte for byte", () => {
    const path = file();
    const a = fileJournal(path, { fsync: false });
    const result = create(ToolcallResultSchema, {
      toolcallId: "call_1_0",
      outcome: { case: "error", value: toolError(ToolErrorCode.STALE_REF, "The element e3 is gone.") },
    });
    a.started("ses_1", "call_1_0");
    a.done("ses_1", result);
    a.started("ses_1", "call_2_0");
    a.close();
    const b = fileJournal(path);
    expect(b.get("ses_1", "call_1_0")).toEqual({ state: "done", result });
    expect(b.get("ses_1", "call_2_0")).toEqual({ state: "started" });
    expect(b.get("ses_1", "call_3_0")).toBeUndefined();
    expect(b.get("ses_2", "call_1_0")).toBeUndefined();
    b.close();
  });

  it("skips a torn last line, and drops ended sessions when reopened", () => {
    const path = file();
    const a = fileJournal(path, { fsync: false });
    a.started("ses_1", "call_1_0");
    a.started("ses_2", "call_1_0");
    a.end("ses_1");
    a.close();
    appendFileSync(path, '{"s":"ses_2","id":"call_2');
    const b = fileJournal(path, { fsync: false });
    expect(b.get("ses_1", "call_1_0")).toBeUndefined();
    expect(b.get("ses_2", "call_1_0")).toEqual({ state: "started" });
    b.close();
    // The rewrite kept only the live session's record.
    expect(readFileSync(path, "utf8").trim().split("\n")).toEqual(['{"s":"ses_2","id":"call_1_0"}']);
  });
});
