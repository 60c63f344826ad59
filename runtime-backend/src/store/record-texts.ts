import { toJson } from "@bufbuild/protobuf";
import type { AgentMessage, HistoryEntry } from "@baton/gen/baton/v1/agent_pb";
import { AgentMessageSchema, HistoryEntrySchema } from "@baton/gen/baton/v1/descriptors";

/**
 * Protobuf-JSON texts of one commit's records, each agent message encoded once: a turn's
 * message goes into its call row, its history entry and the step's stored response, and
 * encoding it once instead of each time is most of the loop's JSON work. The texts are what
 * `toJson` + `JSON.stringify` produce for the same messages (`fromJson` reads them back),
 * assembled by concatenation.
 *
 * One per commit, dropped with it: a cache that outlived the commit would hold an entry per
 * message for as long as the session runs, and every major GC would walk those entries.
 */
export class RecordTexts {
  readonly #messages = new Map<AgentMessage, string>();

  /** JSON text of an agent message. */
  message(m: AgentMessage): string {
    let t = this.#messages.get(m);
    if (t === undefined) {
      t = JSON.stringify(toJson(AgentMessageSchema, m));
      this.#messages.set(m, t);
    }
    return t;
  }

  /** JSON text of a step's stored response: its messages (the session is read when it is answered). */
  response(messages: readonly AgentMessage[]): string {
    return `{"messages":[${messages.map((m) => this.message(m)).join(",")}]}`;
  }

  /** JSON text of a history entry. */
  entry(e: HistoryEntry): string {
    if (e.entry.case === "agentMessage") {
      const m = this.message(e.entry.value);
      return e.step === 0 ? `{"agentMessage":${m}}` : `{"step":${e.step},"agentMessage":${m}}`;
    }
    return JSON.stringify(toJson(HistoryEntrySchema, e));
  }
}
