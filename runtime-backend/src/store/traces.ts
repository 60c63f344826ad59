import { create } from "@bufbuild/protobuf";
import { type StepTrace } from "@baton/gen/baton/v1/agent_pb";
import { StepTraceSchema, UsageSchema } from "@baton/gen/baton/v1/descriptors";
import type { Queryable } from "./db.js";
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

/**
 * What a second trace of the same step does (a step whose model call was retried after a
 * restart): usage and latency add up, the latest tool calls win, errors accumulate. Used by the
 * commit statement (`commit-sql.ts`).
 */
export const traceUpsert = `on conflict (session_id, step) do update set
     latency_ms = traces.latency_ms + excluded.latency_ms,
     input_tokens = traces.input_tokens + excluded.input_tokens,
     output_tokens = traces.output_tokens + excluded.output_tokens,
     cached_tokens = traces.cached_tokens + excluded.cached_tokens,
     cost_usd = traces.cost_usd + excluded.cost_usd,
     tool_calls = excluded.tool_calls,
     errors = traces.errors || excluded.errors`;

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
