import { create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { type AgentMessage, type HistoryEntry, MessageStatus, type ToolcallResult, type ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import type { ToolCall } from "@baton/gen/baton/v1/tools_pb";
import { AgentMessageSchema, HistoryEntrySchema, ToolcallResultSchema, UserMessageSchema } from "@baton/gen/baton/v1/descriptors";
import { encodeToolError, riskEnum, toolError, type ToolRisk } from "@baton/sdk/contract";
import type { CallRow } from "../store/records.js";
import type { CallUpdate } from "../store/session-store.js";

/** A text message from the agent. Ids are deterministic per step, so a replayed step reuses them. */
export function textMessage(step: number, n: number, text: string, status = MessageStatus.COMPLETED): AgentMessage {
  return create(AgentMessageSchema, {
    id: `msg_${step}_${n}`,
    content: { case: "text", value: { text } },
    status,
    step,
    createdAt: timestampNow(),
  });
}

/** A reasoning summary from the agent. */
export function reasoningMessage(step: number, n: number, text: string): AgentMessage {
  return create(AgentMessageSchema, {
    id: `msg_${step}_${n}`,
    content: { case: "reasoning", value: { text } },
    status: MessageStatus.COMPLETED,
    step,
    createdAt: timestampNow(),
  });
}

/** What a call awaiting approval says about itself: the site and action class a remembered answer would cover. */
export interface AskedAbout {
  readonly site: string;
  readonly risk: ToolRisk;
}

const asked = (a: AskedAbout | undefined) => (a ? { site: a.site, risk: riskEnum(a.risk) } : {});

/** A function call for the client (or awaiting approval, with what it asks about). */
export function callMessage(step: number, n: number, toolcallId: string, call: ToolCall, status: MessageStatus, ask?: AskedAbout): AgentMessage {
  return create(AgentMessageSchema, {
    id: `msg_${step}_${n}`,
    content: { case: "functionCall", value: { toolcallId, call, ...asked(ask) } },
    status,
    step,
    createdAt: timestampNow(),
  });
}

/** A call to a client-declared tool: the model's arguments travel as JSON for the client to read. */
export function extensionCallMessage(
  step: number,
  n: number,
  toolcallId: string,
  name: string,
  argumentsJson: string,
  status: MessageStatus,
  ask?: AskedAbout,
): AgentMessage {
  return create(AgentMessageSchema, {
    id: `msg_${step}_${n}`,
    content: { case: "functionCall", value: { toolcallId, extension: { name, argumentsJson }, ...asked(ask) } },
    status,
    step,
    createdAt: timestampNow(),
  });
}

/** History entry of an agent message. */
export function agentEntry(m: AgentMessage): HistoryEntry {
  return create(HistoryEntrySchema, { step: m.step, entry: { case: "agentMessage", value: m } });
}

/** History entry of a tool result. */
export function resultEntry(step: number, r: ToolcallResult): HistoryEntry {
  return create(HistoryEntrySchema, { step, entry: { case: "toolResult", value: r } });
}

/**
 * A call closed without running (a stop, a refused call before it, `done` before it): its
 * store update, whose output is the error the model reads, and its result in the history.
 */
export function closedUnrun(c: CallRow, code: ToolErrorCode, text: string): { update: CallUpdate & { output: string }; entry: HistoryEntry } {
  const err = toolError(code, text, { tool: c.name });
  return {
    update: { id: c.toolcallId, step: c.step, state: "done", output: encodeToolError(err) },
    entry: resultEntry(c.step, create(ToolcallResultSchema, { toolcallId: c.toolcallId, outcome: { case: "error", value: err } })),
  };
}

/** History entry of a user message. */
export function userEntry(step: number, text: string): HistoryEntry {
  return create(HistoryEntrySchema, { step, entry: { case: "userMessage", value: create(UserMessageSchema, { text }) } });
}
