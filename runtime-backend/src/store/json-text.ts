import { toJson } from "@bufbuild/protobuf";
import { type AgentMessage, type HistoryEntry, type StepResponse } from "@baton/gen/baton/v1/agent_pb";
import { AgentMessageSchema, HistoryEntrySchema, SessionSchema } from "@baton/gen/baton/v1/descriptors";

/**
 * Protobuf-JSON text of the records the store keeps, each message encoded once: a turn's
 * agent message goes into its call row, its history entry and the stored response, and
 * encoding it once (kept per message object) instead of three times is most of the loop's
 * JSON work. The texts are what `toJson` + `JSON.stringify` produce for the same messages
 * (`fromJson` reads them back), assembled by concatenation.
 */
const messageText = new WeakMap<AgentMessage, string>();

/** JSON text of an agent message. Messages are not changed after they are first stored. */
export function agentMessageJson(m: AgentMessage): string {
  let t = messageText.get(m);
  if (t === undefined) {
    t = JSON.stringify(toJson(AgentMessageSchema, m));
    messageText.set(m, t);
  }
  return t;
}

/** JSON text of a history entry. */
export function historyEntryJson(e: HistoryEntry): string {
  if (e.entry.case === "agentMessage") {
    return e.step === 0 ? `{"agentMessage":${agentMessageJson(e.entry.value)}}` : `{"step":${e.step},"agentMessage":${agentMessageJson(e.entry.value)}}`;
  }
  return JSON.stringify(toJson(HistoryEntrySchema, e));
}
