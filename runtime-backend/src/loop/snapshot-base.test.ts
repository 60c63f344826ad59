import { create } from "@bufbuild/protobuf";
import { type ToolCall, ToolCallSchema } from "@baton/gen/baton/v1/tools_pb";
import { describe, expect, it } from "vitest";
import { TurnSnapshots } from "./snapshot-base.js";

const snap = (p: { ref?: string; offset?: number; full?: boolean } = {}): ToolCall => create(ToolCallSchema, { tool: { case: "takeSnapshot", value: p } });
const full = (c: ToolCall) => (c.tool.case === "takeSnapshot" ? c.tool.value.full : undefined);

describe("TurnSnapshots", () => {
  it("sends the turn's first whole-page snapshot full and leaves a later one free to be a diff", () => {
    const turn = new TurnSnapshots();
    const calls = [snap(), snap()];
    for (const c of calls) turn.admit(c);
    expect(calls.map(full)).toEqual([true, false]);
  });

  it("does not count a snapshot of one element or a later page as the base", () => {
    const turn = new TurnSnapshots();
    const calls = [snap({ ref: "e3" }), snap({ offset: 40 }), snap()];
    for (const c of calls) turn.admit(c);
    expect(calls.map(full)).toEqual([false, false, true]);
  });
});
