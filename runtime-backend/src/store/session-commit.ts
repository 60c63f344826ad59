import { type AgentMessage, type HistoryEntry, type SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import type { ContextState } from "../context/state.js";
import { contextRowJson, microDelta } from "./context-lines.js";
import { RecordTexts } from "./record-texts.js";
import type { CallRow, CallState } from "./records.js";
import type { SessionRow } from "./sessions.js";
import type { TraceRow } from "./traces.js";

/** A change to one of a step's calls: a client's result, an approval, a call closed by a stop. */
export interface CallUpdate {
  readonly id: string;
  /** The step the call belongs to (part of its lookup: the `calls_open` index). */
  readonly step: number;
  readonly state: CallState;
  /** What the model reads back; unchanged when undefined. */
  readonly output?: string | undefined;
  /** A new function-call message (an approved call's new status); unchanged when undefined. */
  readonly message?: AgentMessage | undefined;
}

/** Session columns a commit sets; anything undefined stays as stored. */
export interface SessionSet {
  readonly status?: SessionStatus;
  readonly step?: number;
  readonly goal?: string;
  /** The new folded context; its micro summaries are stored as lines (`context-lines.ts`). */
  readonly context?: ContextState;
  readonly answer?: string;
  readonly reason?: string;
  /** Clears the stop flag (a new user message starts afresh). */
  readonly clearStop?: boolean;
  /** The key of the user message being applied (`SessionRow.inputKey`). */
  readonly inputKey?: string;
}

/**
 * Everything one step persists at once for a session: an input, a model turn, or a step's end.
 * It applies only if the session is still at `from.historyLen` and no other instance holds a
 * live lease on it; otherwise nothing of it is written and the store throws `SessionConflict`.
 */
export interface SessionCommit {
  /** The state the commit was computed from: its history length is the version checked. */
  readonly from: SessionRow;
  /** The committing instance (its own lease never blocks it). */
  readonly owner: string;
  readonly callUpdates?: readonly CallUpdate[];
  /** A model turn's new calls. */
  readonly newCalls?: readonly CallRow[];
  /** History entries appended at `from.historyLen`. */
  readonly history?: readonly HistoryEntry[];
  /** A model call's trace; its usage adds to the session's totals. */
  readonly trace?: TraceRow;
  readonly set?: SessionSet;
  /** Holds the session until this time (the step runs on), or releases it (null: the step ended). */
  readonly lease: Date | null;
  /** A stop requested meanwhile makes the status STOPPED and stores no response. */
  readonly stopGuard?: boolean;
  /**
   * The step's messages, stored under the input's key as its response: a retry of the input is
   * answered with them and the session as it then stands (`stored-response.ts`).
   */
  readonly response?: { readonly key: string; readonly messages: readonly AgentMessage[] } | undefined;
}

// Postgres text cannot hold NUL, and `json_to_recordset` rejects the whole statement (every
// commit of a group) over one `\u0000` in a tool result or a model's text. A NUL carries nothing
// a model or a reader needs, so it is stored as U+FFFD. Only an escape preceded by an even
// number of backslashes is one (an escaped backslash followed by "u0000" is left alone).
const escapedNul = /(?<!\\)((?:\\\\)*)\\u0000/g;

/** `json` with every escaped NUL replaced by U+FFFD. */
export function scrubNul(json: string): string {
  return json.includes("\\u0000") ? json.replace(escapedNul, "$1\\ufffd") : json;
}

/**
 * One JSON object of a recordset: `raw` names the fields whose values are already JSON text
 * (or null), which go in as they are — no second escaping of a context or a message, and
 * Postgres reads them back with `::text` exactly as written. Undefined fields are left out.
 */
export function jsonRecord(row: Record<string, unknown>, raw: ReadonlySet<string> = noRaw): string {
  const parts: string[] = [];
  for (const k in row) {
    const v = row[k];
    if (v === undefined) continue;
    parts.push(`"${k}":${raw.has(k) && v !== null ? scrubNul(v as string) : scrubNul(JSON.stringify(v))}`);
  }
  return `{${parts.join(",")}}`;
}

const noRaw: ReadonlySet<string> = new Set();
const rawSession = new Set(["context", "response"]);
const rawMessage = new Set(["message"]);
const rawEntry = new Set(["entry"]);

/** A commit's rows, one JSON object text per row, by recordset parameter of `commitSql`. */
export interface CommitRows {
  readonly session: string;
  readonly callUpdates: string[];
  readonly newCalls: string[];
  readonly history: string[];
  readonly traces: string[];
  readonly lines: string[];
}

/** Encodes a commit as the rows of `commitSql`. */
export function commitRows(c: SessionCommit): CommitRows {
  const s = c.from;
  const id = s.id;
  const set = c.set ?? {};
  const history = c.history ?? [];
  const delta = set.context ? microDelta(s.contextFrom, s.context.micro, set.context.micro) : undefined;
  const usage = c.trace?.usage ?? { input: 0, output: 0, cached: 0, cost: 0 };
  const texts = new RecordTexts();
  const session = jsonRecord(
    {
      id,
      expect_len: s.historyLen,
      owner: c.owner,
      history_len: s.historyLen + history.length,
      step: set.step ?? null,
      goal: set.goal ?? null,
      context: set.context ? contextRowJson(set.context) : null,
      context_from: delta?.from ?? null,
      trim_lines: delta?.trim ?? false,
      status: set.status ?? null,
      stop_guard: c.stopGuard ?? false,
      answer: set.answer ?? null,
      reason: set.reason ?? null,
      clear_stop: set.clearStop ?? false,
      input_key: set.inputKey ?? null,
      hold: c.lease !== null,
      lease_until: c.lease?.toISOString() ?? null,
      input_tokens: usage.input,
      output_tokens: usage.output,
      cached_tokens: usage.cached,
      cost_usd: usage.cost,
      response_key: c.response?.key ?? null,
      response: c.response ? texts.response(c.response.messages) : null,
    },
    rawSession,
  );
  const callUpdates = (c.callUpdates ?? []).map((u) =>
    jsonRecord({ session_id: id, id: u.id, step: u.step, state: u.state, output: u.output ?? null, message: u.message ? texts.message(u.message) : null }, rawMessage),
  );
  const newCalls = (c.newCalls ?? []).map((k) =>
    jsonRecord(
      {
        session_id: id,
        toolcall_id: k.toolcallId,
        step: k.step,
        ord: k.ord,
        name: k.name,
        arguments: k.arguments,
        side: k.side,
        state: k.state,
        message: k.message ? texts.message(k.message) : null,
        output: k.output,
      },
      rawMessage,
    ),
  );
  const entries = history.map((e, i) => jsonRecord({ session_id: id, seq: s.historyLen + i, step: e.step, entry: texts.entry(e) }, rawEntry));
  const t = c.trace;
  const traces = t
    ? [
        jsonRecord({
          session_id: id,
          step: t.step,
          model: t.model,
          latency_ms: Math.round(t.latencyMs),
          input_tokens: usage.input,
          output_tokens: usage.output,
          cached_tokens: usage.cached,
          cost_usd: usage.cost,
          tool_calls: t.toolCalls,
          errors: t.errors,
        }),
      ]
    : [];
  const lines = (delta?.lines ?? []).map((l) => jsonRecord({ session_id: id, seq: l.seq, line: l.line }));
  return { session, callUpdates, newCalls, history: entries, traces, lines };
}

/** The six recordset parameters of `commitSql` for a group of commits. */
export function commitParams(group: readonly CommitRows[]): string[] {
  const list = (texts: readonly string[]) => `[${texts.join(",")}]`;
  return [
    list(group.map((r) => r.session)),
    list(group.flatMap((r) => r.callUpdates)),
    list(group.flatMap((r) => r.newCalls)),
    list(group.flatMap((r) => r.history)),
    list(group.flatMap((r) => r.traces)),
    list(group.flatMap((r) => r.lines)),
  ];
}
