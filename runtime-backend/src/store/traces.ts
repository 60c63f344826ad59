import { create } from "@bufbuild/protobuf";
import { type StepTrace, StepTraceSchema, UsageSchema } from "@baton/gen/baton/v1/agent_pb";
import type { Queryable, Stmt } from "./db.js";
import type { UsageTotals } from "./sessions.js";

/** What one model call cost and did. */
export interface TraceRow {
  readonly step: number;
  readonly model: string;
  readonly latencyMs: number;
  readonly usage: UsageTotals;
  readonly toolCalls: readonly string[];
  readonly errors: readonly string[];
}

/** Records the trace of a step; a retried step (after a failed model call) adds to the same row. */
export async function insertTrace(q: Queryable, sessionId: string, t: TraceRow): Promise<void> {
  const st = insertTraceStmt(sessionId, t);
  await q.query(st.sql, st.params);
}

/**
 * What a second trace of the same step does (a step whose model call was retried after a
 * restart): usage and latency add up, the latest tool calls win, errors accumulate. Shared by
 * the single insert here and the grouped turn write (`turns.ts`).
 */
export const traceUpsert = `on conflict (session_id, step) do update set
     latency_ms = traces.latency_ms + excluded.latency_ms,
     input_tokens = traces.input_tokens + excluded.input_tokens,
     output_tokens = traces.output_tokens + excluded.output_tokens,
     cached_tokens = traces.cached_tokens + excluded.cached_tokens,
     cost_usd = traces.cost_usd + excluded.cost_usd,
     tool_calls = excluded.tool_calls,
     errors = traces.errors || excluded.errors`;

/** The statement of {@link insertTrace}. */
export function insertTraceStmt(sessionId: string, t: TraceRow): Stmt {
  return {
    sql: 
    `insert into traces (session_id, step, model, latency_ms, input_tokens, output_tokens, cached_tokens, cost_usd, tool_calls, errors)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ${traceUpsert}`,
    params: [
      sessionId,
      t.step,
      t.model,
      Math.round(t.latencyMs),
      t.usage.input,
      t.usage.output,
      t.usage.cached,
      t.usage.cost,
      JSON.stringify(t.toolCalls),
      JSON.stringify(t.errors),
    ],
  };
}

/** All traces of a session as wire messages, by step. */
export async function readTraces(q: Queryable, sessionId: string): Promise<StepTrace[]> {
  // Each step's screenshots: those its tool calls returned (stored once, by id).
  const rows = await q.query(
    `select t.*, (select coalesce(json_agg(s.id order by s.id), '[]'::json) from screenshots s
                    join calls c on c.session_id = s.session_id and c.toolcall_id = s.toolcall_id
                   where s.session_id = t.session_id and c.step = t.step) as screenshots
       from traces t where t.session_id = $1 order by step`,
    [sessionId],
  );
  return rows.map((r) =>
    create(StepTraceSchema, {
      step: Number(r.step),
      model: String(r.model),
      latencyMs: Number(r.latency_ms),
      usage: create(UsageSchema, {
        inputTokens: BigInt(String(r.input_tokens)),
        outputTokens: BigInt(String(r.output_tokens)),
        cachedTokens: BigInt(String(r.cached_tokens)),
        costUsd: Number(r.cost_usd),
      }),
      toolCalls: (r.tool_calls as string[]) ?? [],
      errors: (r.errors as string[]) ?? [],
      screenshots: (typeof r.screenshots === "string" ? JSON.parse(r.screenshots) : r.screenshots) ?? [],
    }),
  );
}
