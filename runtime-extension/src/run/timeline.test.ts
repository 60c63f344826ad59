import { create } from "@bufbuild/protobuf";
import { SessionSchema, SessionStatus, ToolcallResultSchema, ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import type { ToolCall } from "@baton/gen/baton/v1/tools_pb";
import { toolByCase, toolError } from "@baton/sdk/contract";
import { describe, expect, it } from "vitest";
import { type PanelEvent, reduceTimeline, type TimelineItem } from "./timeline.js";

const ctx = { describe: (call: ToolCall) => `did ${call.tool.case}` };
const click = toolByCase(toolCatalog, "click");
const call = create(toolCatalog.call, { tool: { case: "click", value: { ref: "e1" } } }) as ToolCall;

function run(events: PanelEvent[]): TimelineItem[] {
  return events.reduce<TimelineItem[]>((items, e) => reduceTimeline(items, e, ctx), []);
}

const shape = (items: TimelineItem[]) =>
  items.map((i) => (i.kind === "step" ? `step:${i.state}:${i.description}` : i.kind === "text" ? `text:${i.text}` : i.kind === "outcome" ? `outcome:${i.status}:${i.text}` : i.kind));

describe("the timeline", () => {
  it("shows thinking only while the model works, then the text, the step and the answer", () => {
    if (!click) throw new Error("no click tool");
    const session = create(SessionSchema, { id: "ses_1", status: SessionStatus.COMPLETED, answer: "Done it." });
    const items = run([
      { type: "task", text: "Do it" },
      { type: "thinking" },
      { type: "thinking" },
      { type: "text_delta", delta: "Clicking " },
      { type: "text_delta", delta: "now." },
      { type: "text", text: "Clicking now." },
      { type: "tool_start", toolcallId: "c1", tool: click, call },
      { type: "tool_end", toolcallId: "c1", tool: click, ms: 120 },
      { type: "thinking" },
      { type: "done", outcome: { sessionId: "ses_1", status: "completed", answer: "Done it.", reason: "", session } },
    ]);
    expect(shape(items)).toEqual(["task", "text:Clicking now.", "step:done:did click", "outcome:completed:Done it."]);
  });

  it("drops streamed text that no final message confirmed (a reply that was only tags)", () => {
    if (!click) throw new Error("no click tool");
    const items = run([
      { type: "text_delta", delta: "<goal>x</goal>" },
      { type: "tool_start", toolcallId: "c1", tool: click, call },
    ]);
    expect(shape(items)).toEqual(["step:running:did click"]);
  });

  it("runs a resumed call in place of its history entry, marks a replayed one, and puts a policy card before its step", () => {
    if (!click) throw new Error("no click tool");
    const history: TimelineItem[] = [
      { kind: "step", id: "c1", tool: "click", description: "Clicking 'Buy'", state: "done", images: [] },
      { kind: "step", id: "c2", tool: "wait_for", description: "Waiting", state: "done", images: [] },
    ];
    const ok = create(ToolcallResultSchema, { toolcallId: "c1" });
    let items = reduceTimeline(history, { type: "tool_replayed", toolcallId: "c1", result: ok }, ctx);
    items = reduceTimeline(items, { type: "tool_start", toolcallId: "c2", tool: click, call }, ctx);
    items = reduceTimeline(items, { type: "approval_request", id: "c2", description: "Clicking 'Buy'", page: { title: "", url: "" }, source: "policy" }, ctx);
    expect(items.map((i) => `${i.kind}:${i.id}:${"state" in i ? i.state : ""}`)).toEqual(["step:c1:replayed", "approval:c2:pending", "step:c2:running"]);
    expect(items[0]).toMatchObject({ note: "done before the panel closed: not repeated" });
  });

  it("marks failures, replays and decisions", () => {
    if (!click) throw new Error("no click tool");
    const items = run([
      { type: "tool_start", toolcallId: "c1", tool: click, call },
      { type: "tool_end", toolcallId: "c1", tool: click, ms: 5, error: toolError(ToolErrorCode.STALE_REF, "gone") },
      { type: "approval_request", id: "c2", description: "Clicking 'Pay'", page: { title: "Shop", url: "https://shop" }, source: "backend" },
      { type: "approval_decided", id: "c2", approved: false },
      { type: "question", id: "q1", question: "Which?", choices: ["A"] },
      { type: "answered", id: "q1", answer: "A" },
      { type: "paused", reason: "debugger-cancelled" },
      { type: "paused", reason: undefined },
    ]);
    expect(items.map((i) => `${i.kind}:${"state" in i ? i.state : ""}`)).toEqual(["step:failed", "approval:denied", "question:answered", "paused:resolved"]);
    expect(items[0]).toMatchObject({ error: "gone" });
  });

  it("writes a stop's or a failure's reason as a sentence", () => {
    const session = create(SessionSchema, { id: "ses_1", status: SessionStatus.STOPPED });
    const items = run([{ type: "done", outcome: { sessionId: "ses_1", status: "stopped", answer: "", reason: "stopped by the user", session } }]);
    expect(shape(items)).toEqual(["outcome:stopped:Stopped by the user."]);
    const failed = run([{ type: "done", outcome: { sessionId: "ses_1", status: "failed", answer: "", reason: "model error (429)", session } }]);
    expect(shape(failed)).toEqual(["outcome:failed:Model error (429)"]);
  });
});
