import type { TurnWrite } from "./turns.js";

/**
 * A model turn's rows as JSON text, for the `json_to_recordset` parameters of the turn
 * statements (`turns.ts`). Each turn is encoded on its own, per table, as comma-separated
 * objects, so a group of turns is these texts joined, and the turn journal
 * (`turn-journal.ts`) can write a turn's texts as they are and join them again when it
 * applies them. Both write paths, grouped SQL and journal, store exactly these texts.
 *
 * A text is kept as its pieces (`string[]`): the JSON already encoded elsewhere (a context, a
 * message, a response: kilobytes) is a piece of its own, so it is never concatenated on the
 * heap. The journal writes the pieces straight into its buffer; the SQL path joins them.
 */
export type JsonPieces = string[];

/** A turn's rows other than its session's, one text per table. */
export interface TurnRows {
  /** The calls the turn's input moved to done. */
  readonly done: JsonPieces;
  /** The turn's new calls. */
  readonly calls: JsonPieces;
  /** Its history entries. */
  readonly history: JsonPieces;
  /** Its trace (one object). */
  readonly traces: JsonPieces;
  /** Its new context lines. */
  readonly lines: JsonPieces;
}

/** The recordset parameters, in the order both turn statements take them after the sessions' (`$2`…`$6`). */
export const turnRowKeys = ["done", "calls", "history", "traces", "lines"] as const;

// An escaped NUL (`\u0000`) preceded by an even number of backslashes, so an escaped
// backslash followed by the letters "u0000" is left alone.
const escapedNul = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * Postgres text cannot hold NUL, and `json_to_recordset` rejects the whole statement (every
 * turn of a group) over one `\u0000` in a tool result or a model's text. A NUL carries nothing
 * a model or a reader needs, so it is stored as U+FFFD instead.
 */
export function scrubNul(json: string): string {
  return json.includes("\\u0000") ? json.replace(escapedNul, "$1\\ufffd") : json;
}

/**
 * Appends one JSON object to `out` (after a comma when `out` already holds one): `raw` names
 * the fields whose values are already JSON text (or null), which go in as they are — no
 * second escaping of a context or a message, and Postgres reads them back with `::text`
 * exactly as written. Undefined fields are left out.
 */
export function pushRecord<T extends object>(out: JsonPieces, row: T, raw?: ReadonlySet<keyof T>): void {
  let acc = out.length > 0 ? ",{" : "{";
  let first = true;
  for (const k in row) {
    const v = row[k];
    if (v === undefined) continue;
    acc += `${first ? "" : ","}"${k}":`;
    first = false;
    if (raw?.has(k) && v !== null) {
      out.push(acc, scrubNul(v as string));
      acc = "";
    } else {
      acc += raw?.has(k) ? "null" : scrubNul(JSON.stringify(v));
    }
  }
  out.push(`${acc}}`);
}

const rawCall = new Set(["message"] as const);
const rawHistory = new Set(["entry"] as const);

/** Encodes a turn's rows other than its session's. */
export function turnRows(t: TurnWrite): TurnRows {
  const sessionId = t.sessionId;
  const rows: TurnRows = { done: [], calls: [], history: [], traces: [], lines: [] };
  for (const d of t.done) pushRecord(rows.done, { session_id: sessionId, id: d.id, step: d.step, output: d.output });
  for (const c of t.calls) {
    pushRecord(
      rows.calls,
      {
        session_id: sessionId,
        toolcall_id: c.toolcallId,
        step: c.step,
        ord: c.ord,
        name: c.name,
        arguments: c.arguments,
        side: c.side,
        state: c.state,
        message: c.message,
        output: c.output,
      },
      rawCall,
    );
  }
  t.history.forEach((h, i) => pushRecord(rows.history, { session_id: sessionId, seq: t.expectLen + i, step: h.step, entry: h.entry }, rawHistory));
  pushRecord(rows.traces, {
    session_id: sessionId,
    step: t.trace.step,
    model: t.trace.model,
    latency_ms: Math.round(t.trace.latencyMs),
    input_tokens: t.trace.usage.input,
    output_tokens: t.trace.usage.output,
    cached_tokens: t.trace.usage.cached,
    cost_usd: t.trace.usage.cost,
    tool_calls: t.trace.toolCalls,
    errors: t.trace.errors,
  });
  for (const l of t.lines) pushRecord(rows.lines, { session_id: sessionId, seq: l.seq, line: l.line });
  return rows;
}

/** One JSON array of the texts (each a comma-separated list of objects, possibly empty). */
export function joinRows(texts: readonly JsonPieces[]): string {
  return `[${texts.filter((t) => t.length > 0).map((t) => t.join("")).join(",")}]`;
}
