import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { microLinesSql } from "./context-lines.js";
import { changedColumns } from "./sessions.js";
import { traceUpsert } from "./traces.js";

/**
 * The two statements of a step's hot path, as SQL: the read that starts a step and the write
 * that commits a change to a session (an input, a model turn, a step's end). Each takes the
 * rows of many sessions at once as JSON parameters (`json_to_recordset`), so the text is fixed,
 * identical on PGlite and Postgres, prepared once, and a group of N sessions' commits costs one
 * statement instead of N × 7. `session-store.ts` builds their parameters and reads their rows.
 *
 * The rules that keep a session consistent are written here once:
 * - the **version**: a commit names the history length it was computed from, and applies only
 *   if the session is still there (another request or replica that got there first wins);
 * - the **lease** ({@link leaseFreeSql}): free, expired, or held by the committing instance;
 * - the **stop guard**: with `stop_guard`, a stop requested meanwhile makes the new status
 *   STOPPED and keeps the step's response from being stored, in the same statement.
 */

/** SQL true when the session row `alias` has no live lease of another instance than `owner` (an SQL expression). */
export function leaseFreeSql(alias: string, owner: string): string {
  return `(${alias}.lease_until is null or ${alias}.lease_until < now() or ${alias}.lease_owner = ${owner})`;
}

// Sessions are looked up by `id = any(array(…))`, not by joining the recordset alone: the planner
// takes a recordset for 100 rows, and against a table of a few thousand sessions it then hashes
// the recordset and scans every session, a cost per turn that grows with the store. By key, a
// turn costs the same however many sessions the store holds (the store suite checks the plan).

/** `$1`: `[{id, key}]` → each session with its stored response to `key` and its current step's calls. */
export const readStepSql = `
with x as (select * from json_to_recordset($1::json) as x(id text, key text))
select x.key as read_key, s.*,
       (select r.response from responses r where r.session_id = s.id and r.input_key = x.key) as stored_response,
       (select r.body from responses r where r.session_id = s.id and r.input_key = x.key) as stored_body,
       (select coalesce(json_agg(c order by c.ord), '[]'::json) from calls c where c.session_id = s.id and c.step = s.step) as step_calls,
       ${microLinesSql("s")} as context_micro
  from x
  join sessions s on s.id = x.id
 where s.id = any(array(select id from x))`;

/**
 * `$1` the sessions' rows (see `session-commit.ts` for every column), `$2` call updates, `$3`
 * new calls, `$4` history entries, `$5` traces, `$6` context lines. Every table is written in one
 * data-modifying statement; each sub-statement keeps only the rows of sessions whose guarded
 * update succeeded, so one session's lost race skips that session's writes and nobody else's.
 * Returns, for each session it updated, every column a commit may change (`changedColumns`):
 * the session after the commit is what the statement wrote, never worked out beside it.
 */
export const commitSql = `
with v as (
  select * from json_to_recordset($1::json) as x(
    id text, expect_len int, owner text, history_len int, step int, goal text, context json, context_from int, trim_lines boolean,
    status int, stop_guard boolean, answer text, reason text, clear_stop boolean, input_key text, hold boolean, lease_until timestamptz,
    input_tokens bigint, output_tokens bigint, cached_tokens bigint, cost_usd double precision, response_key text, response json)
), s as (
  update sessions t
     set updated_at = now(), history_len = v.history_len, step = coalesce(v.step, t.step), goal = coalesce(v.goal, t.goal),
         context = coalesce(v.context::text, t.context), context_from = coalesce(v.context_from, t.context_from),
         status = case when v.stop_guard and t.stop_requested then ${SessionStatus.STOPPED} else coalesce(v.status, t.status) end,
         answer = coalesce(v.answer, t.answer), reason = coalesce(v.reason, t.reason),
         stop_requested = t.stop_requested and not v.clear_stop, input_key = coalesce(v.input_key, t.input_key),
         lease_until = case when v.hold then v.lease_until end, lease_owner = case when v.hold then v.owner else t.lease_owner end,
         input_tokens = t.input_tokens + v.input_tokens, output_tokens = t.output_tokens + v.output_tokens,
         cached_tokens = t.cached_tokens + v.cached_tokens, cost_usd = t.cost_usd + v.cost_usd
    from v
   where t.id = any(array(select id from v)) -- the index, not a scan of every session (see readStepSql)
     and t.id = v.id and t.history_len = v.expect_len and ${leaseFreeSql("t", "v.owner")}
  returning ${changedColumns.map((c) => `t.${c}`).join(", ")}
), call_updates as (
  update calls c set state = x.state, output = coalesce(x.output, c.output), message = coalesce(x.message::text, c.message)
    from json_to_recordset($2::json) as x(session_id text, id text, step int, state text, output text, message json)
   where c.session_id = x.session_id and c.step = x.step and c.toolcall_id = x.id and x.session_id in (select id from s)
), new_calls as (
  insert into calls (session_id, toolcall_id, step, ord, name, arguments, side, state, message, output)
  select x.session_id, x.toolcall_id, x.step, x.ord, x.name, x.arguments, x.side, x.state, x.message::text, x.output
    from json_to_recordset($3::json) as x(session_id text, toolcall_id text, step int, ord int, name text,
         arguments text, side text, state text, message json, output text)
   where x.session_id in (select id from s)
), hist as (
  insert into history (session_id, seq, step, entry)
  select x.session_id, x.seq, x.step, x.entry::text
    from json_to_recordset($4::json) as x(session_id text, seq int, step int, entry json)
   where x.session_id in (select id from s)
), trace as (
  insert into traces (session_id, step, model, latency_ms, input_tokens, output_tokens, cached_tokens, cost_usd, tool_calls, errors)
  select x.session_id, x.step, x.model, x.latency_ms, x.input_tokens, x.output_tokens, x.cached_tokens, x.cost_usd, x.tool_calls, x.errors
    from json_to_recordset($5::json) as x(session_id text, step int, model text, latency_ms int, input_tokens bigint,
         output_tokens bigint, cached_tokens bigint, cost_usd double precision, tool_calls jsonb, errors jsonb)
   where x.session_id in (select id from s)
  ${traceUpsert}
), lines as (
  insert into context_lines (session_id, seq, line)
  select x.session_id, x.seq, x.line
    from json_to_recordset($6::json) as x(session_id text, seq int, line text)
   where x.session_id in (select id from s)
), trimmed as (
  delete from context_lines l using v
   where v.trim_lines and l.session_id = v.id and l.seq < v.context_from and v.id in (select id from s)
), resp as (
  insert into responses (session_id, input_key, response)
  select s.id, v.response_key, v.response::text from s join v on v.id = s.id
   where v.response_key is not null and not (v.stop_guard and s.stop_requested)
  on conflict (session_id, input_key) do nothing
)
select * from s`;

/**
 * `$1` session id, `$2` lease end, `$3` owner: renews a running step's lease under the lease
 * rule; returns the stop flag (no row: another instance holds the session).
 */
export const renewLeaseSql = `update sessions t set lease_until = $2, lease_owner = $3
 where t.id = $1 and ${leaseFreeSql("t", "$3")}
 returning t.stop_requested`;
