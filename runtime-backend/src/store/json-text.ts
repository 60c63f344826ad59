import { toJson } from "@bufbuild/protobuf";
import type { AgentMessage, HistoryEntry } from "@baton/gen/baton/v1/agent_pb";
import { AgentMessageSchema, HistoryEntrySchema } from "@baton/gen/baton/v1/descriptors";

/**
 * Protobuf-JSON texts of one commit's records, each agent message encoded once: a turn's
 * message goes into its call row and its history entry, and encoding it once instead of twice
 * is most of the loop's JSON work. The texts are what `toJson` + `JSON.stringify` produce for
 * the same messages (`fromJson` reads them back), assembled by concatenation.
 *
 * One per commit, dropped with it: a map kept across commits (a `WeakMap` by message, until
 * 2026-11-28) holds an entry per message for seconds, and every major GC of the server's main
 * thread then spent 4–8 ms of its pause on those entries (docs/benchmarks.md, "sixth session").
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

  /** JSON text of a history entry. */
  entry(e: HistoryEntry): string {
    if (e.entry.case === "agentMessage") {
      const m = this.message(e.entry.value);
      return e.step === 0 ? `{"agentMessage":${m}}` : `{"step":${e.step},"agentMessage":${m}}`;
    }
    return JSON.stringify(toJson(HistoryEntrySchema, e));
  }
}
