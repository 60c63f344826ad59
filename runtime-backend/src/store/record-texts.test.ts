import { create, toJson } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { AgentMessageSchema, HistoryEntrySchema, MessageStatus, StepResponseSchema, ToolcallResultSchema } from "@baton/gen/baton/v1/agent_pb";
import { describe, expect, it } from "vitest";
import { RecordTexts } from "./record-texts.js";

const message = create(AgentMessageSchema, {
  id: "msg_3_1",
  content: { case: "functionCall", value: { toolcallId: "call_3_0", call: { tool: { case: "click", value: { ref: "e1" } } } } },
  status: MessageStatus.COMPLETED,
  step: 3,
  createdAt: timestampNow(),
});

describe("stored JSON text", () => {
  it("is what toJson + JSON.stringify produce, for messages, entries and a step's stored response", () => {
    const texts = new RecordTexts();
    expect(JSON.parse(texts.message(message))).toEqual(toJson(AgentMessageSchema, message));
    for (const e of [
      create(HistoryEntrySchema, { step: 3, entry: { case: "agentMessage", value: message } }),
      create(HistoryEntrySchema, { step: 0, entry: { case: "agentMessage", value: message } }),
      create(HistoryEntrySchema, { step: 2, entry: { case: "toolResult", value: create(ToolcallResultSchema, { toolcallId: "call_2_0" }) } }),
    ]) {
      expect(JSON.parse(texts.entry(e))).toEqual(toJson(HistoryEntrySchema, e));
    }
    const other = create(AgentMessageSchema, { id: "msg_3_2", step: 3 });
    expect(JSON.parse(texts.response([message, other]))).toEqual(toJson(StepResponseSchema, create(StepResponseSchema, { messages: [message, other] })));
  });
});
