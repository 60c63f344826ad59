import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { microLinesSql } from "./context-lines.js";
import type { Db, Row } from "./db.js";
import { Grouper } from "./group.js";
import { type JsonPieces, joinRows, pushRecord, turnRowKeys, turnRows, type TurnRows } from "./turn-rows.js";
import type { CallDone } from "./records.js";
import { byteaHex } from "./literal.js";
import { type TraceRow, traceUpsert } from "./traces.js";

/**
 * The hot path of the loop as grouped statements: the read that starts a step, the write that
 * commits a model turn (Postgres, or the embedded store without its journal), and the
 * journal's apply of turns it already decided (`turn-journal.ts`). Each takes the rows of many
 * sessions at once as JSON parameters (`json_to_recordset`), so the SQL text is fixed,
 * identical on PGlite and Postgres, and a group of N turns costs one statement instead of N × 7.
 */

/** What a step reads first: the session, a stored response to its input, its current calls. */
export interface StepReadKey {
  readonly id: string;
  /** The input's idempotency key ("" for none). */
  readonly key: string;
}

// Sessions are looked up by `id = any(array(…))`, not by joining the recordset alone: the planner
// takes a recordset for 100 rows, and against a table of a few thousand sessions it then hashes
// the recordset and scans every session, a cost that grows with the store (a 1-turn write took
// 1.3–1.5 ms at 1,300 sessions and 2.5–2.7 ms at 5,000; by key, 0.9–1.3 ms at either size:
// `npm run bench:turn-write`).
const readSql = `
with x as (select * from json_to_recordset($1::json) as x(id text, key text))
select x.key as read_key, s.*,
       (select r.response from responses r where r.session_id = s.id and r.input_key = x.key) as stored_response,
       (select r.body from responses r where r.session_id = s.id and r.input_key = x.key) as stored_body,
       (select coalesce(json_agg(c order by c.ord), '[]'::json) from calls c where c.session_id = s.id and c.step = s.step) as step_calls,
       ${microLinesSql("s")} as context_micro
  from x
  join sessions s on s.id = x.id
 where s.id = any(array(select id from x))`;

/** A model turn's writes for one session. */
export interface TurnWrite {
  readonly sessionId: string;
  /** Version guard: the history length the turn was computed from. */
  readonly expectLen: number;
  /** This agent instance: its own lease does not block it; anyone else's live lease does. */
  readonly owner: string;
  /** Client results applied with this turn (calls moved to done). */
  readonly done: readonly CallDone[];
  /** The turn's new calls. */
  readonly calls: readonly {
    readonly toolcallId: string;
    readonly step: number;
    readonly ord: number;
    readonly name: string;
    readonly arguments: string;
    readonly side: string;
    readonly state: string;
    readonly message: string | null;
    readonly output: string | null;
  }[];
  /** History entries (protobuf JSON text) appended from `expectLen`. JSON-text fields (context, messages, entries, response) must be valid JSON. */
  readonly history: readonly { readonly step: number; readonly entry: string }[];
  /** The model call's trace (its usage also adds to the session's totals). */
  readonly trace: TraceRow;
  /** New context lines (micro summaries; see context-lines.ts). */
  readonly lines: readonly { readonly seq: number; readonly line: string }[];
  /** The session's new state. */
  readonly session: {
    readonly step: number;
    /** The context without its micro summaries (`contextRowJson`). */
    readonly context: string;
    /** The new `context_from`; with `trim`, lines below it are deleted. */
    readonly contextFrom: number;
    readonly trim: boolean;
    readonly goal: string;
    readonly status: SessionStatus;
    /** The status applies only while the stop flag is clear (else STOPPED), in this statement. */
    readonly stopGuard: boolean;
    readonly leaseUntil: Date | null;
    readonly leaseOwner: string | undefined;
  };
  /** The response stored under the input's key, unless the stop flag is set by then. */
  /** The step's response (its protobuf bytes), stored under the input's key. */
  readonly response?: { readonly key: string; readonly body: Uint8Array } | undefined;
}

// The rows a turn adds besides its session's, shared by both statements below: each keeps
// only the rows of sessions the statement's `s` updated.
const turnRowCtes = `done as (
  update calls c set state = 'done', output = x.output
    from json_to_recordset($2::json) as x(session_id text, id text, step int, output text)
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
)`;

// Every table of the turn is written in one data-modifying CTE. Each sub-statement keeps only
// the rows of sessions whose guarded update succeeded, so one session's lost race (another
// replica or request got there first) skips that session's writes and nobody else's.
const writeSql = `
with v as (
  select * from json_to_recordset($1::json) as x(
    id text, expect_len int, owner text, step int, context json, context_from int, trim_lines boolean, goal text, history_len int, status int,
    stop_guard boolean, lease_until timestamptz, lease_owner text,
    input_tokens bigint, output_tokens bigint, cached_tokens bigint, cost_usd double precision,
    input_key text, response bytea)
), s as (
  update sessions t
     set updated_at = now(), step = v.step, context = v.context::text, context_from = v.context_from, goal = v.goal, history_len = v.history_len,
         status = case when v.stop_guard and t.stop_requested then ${SessionStatus.STOPPED} else v.status end,
         lease_until = v.lease_until, lease_owner = coalesce(v.lease_owner, t.lease_owner),
         input_tokens = t.input_tokens + v.input_tokens, output_tokens = t.output_tokens + v.output_tokens,
         cached_tokens = t.cached_tokens + v.cached_tokens, cost_usd = t.cost_usd + v.cost_usd
    from v
   where t.id = any(array(select id from v)) -- the index, not a scan of every session (see readSql)
     and t.id = v.id and t.history_len = v.expect_len
     and (t.lease_until is null or t.lease_until < now() or t.lease_owner = v.owner)
  returning t.id, t.status, t.stop_requested, t.reason, t.answer, t.input_tokens, t.output_tokens, t.cached_tokens,
            t.cost_usd, t.lease_until, t.lease_owner, t.updated_at
), ${turnRowCtes}, resp as (
  insert into responses (session_id, input_key, body)
  select s.id, v.input_key, v.response from s join v on v.id = s.id
   where v.input_key is not null and not s.stop_requested
  on conflict (session_id, input_key) do nothing
)
select * from s`;

// The journal's statement (`turn-journal.ts`): the same rows, but every value of the session
// row was decided when the turn was acknowledged (guard, stop flag, totals, timestamp), so it
// sets them as given. It runs behind the journal, in order, and returns the sessions it
// updated (every turn's, or the journal and the store disagree).
const applySql = `
with v as (
  select * from json_to_recordset($1::json) as x(
    id text, step int, context json, context_from int, trim_lines boolean, goal text, history_len int, status int,
    lease_until timestamptz, lease_owner text, input_tokens bigint, output_tokens bigint, cached_tokens bigint,
    cost_usd double precision, updated_at timestamptz, input_key text, response bytea)
), s as (
  update sessions t
     set updated_at = v.updated_at, step = v.step, context = v.context::text, context_from = v.context_from, goal = v.goal,
         history_len = v.history_len, status = v.status, lease_until = v.lease_until, lease_owner = v.lease_owner,
         input_tokens = v.input_tokens, output_tokens = v.output_tokens, cached_tokens = v.cached_tokens, cost_usd = v.cost_usd
    from v
   where t.id = any(array(select id from v)) and t.id = v.id
  returning t.id
), ${turnRowCtes}, resp as (
  insert into responses (session_id, input_key, body)
  select v.id, v.input_key, v.response from v
   where v.input_key is not null and v.id in (select id from s)
  on conflict (session_id, input_key) do nothing
)
select id from s`;

/** The hot path's statements (parameters `$1`…), for tests that EXPLAIN them and the journal that prepares one. */
export const turnStatements = { read: readSql, write: writeSql, apply: applySql } as const;

async function readGroup(db: Db, items: StepReadKey[]): Promise<(Row | undefined)[]> {
  const rows = await db.prepared("baton_step_read", readSql, [JSON.stringify(items)]);
  const byKey = new Map(rows.map((r) => [`${String(r.id)}\u0000${String(r.read_key)}`, r]));
  return items.map((i) => byKey.get(`${i.id}\u0000${i.key}`));
}

const rawSession = new Set(["context"] as const);

/** What both statements' `$1` rows say of a turn's session whatever decides the rest: what the turn computed. */
function turnSession(t: TurnWrite) {
  return {
    id: t.sessionId,
    step: t.session.step,
    context: t.session.context,
    context_from: t.session.contextFrom,
    trim_lines: t.session.trim,
    goal: t.session.goal,
    history_len: t.expectLen + t.history.length,
    lease_until: t.session.leaseUntil?.toISOString() ?? null,
  };
}

/** Token and cost columns (the turn's usage in the guarded write, the session's totals in the journal's). */
function usageColumns(u: { readonly input: number; readonly output: number; readonly cached: number; readonly cost: number }) {
  return { input_tokens: u.input, output_tokens: u.output, cached_tokens: u.cached, cost_usd: u.cost };
}

/** The response stored under the input's key (its bytes in bytea's hex form), or none. */
function responseColumns(r: TurnWrite["response"]) {
  return { input_key: r?.key ?? null, response: r ? byteaHex(r.body) : null };
}

function sessionJson(row: object): JsonPieces {
  const out: JsonPieces = [];
  pushRecord(out, row as Record<string, unknown>, rawSession as ReadonlySet<string>);
  return out;
}

/** The `$1` row of the guarded write: the turn's session update, checked and completed by the store. */
function guardedSessionJson(t: TurnWrite): JsonPieces {
  return sessionJson({
    ...turnSession(t),
    expect_len: t.expectLen,
    owner: t.owner,
    status: t.session.status,
    stop_guard: t.session.stopGuard,
    lease_owner: t.session.leaseOwner ?? null,
    ...usageColumns(t.trace.usage),
    ...responseColumns(t.response),
  });
}

/** What the journal decided for a turn's session row (the values {@link applySql} sets). */
export interface DecidedSession {
  readonly status: SessionStatus;
  readonly leaseOwner: string;
  readonly totals: { readonly input: number; readonly output: number; readonly cached: number; readonly cost: number };
  readonly updatedAt: Date;
  /** Whether the turn's response is stored (not when the stop flag was set). */
  readonly storeResponse: boolean;
}

/** The `$1` row of the journal's statement. */
export function appliedSessionJson(t: TurnWrite, d: DecidedSession): JsonPieces {
  return sessionJson({
    ...turnSession(t),
    status: d.status,
    lease_owner: d.leaseOwner,
    ...usageColumns(d.totals),
    updated_at: d.updatedAt.toISOString(),
    ...responseColumns(d.storeResponse ? t.response : undefined),
  });
}

/** The six recordset parameters of a group of turns, from each turn's session row and other rows. */
function groupParams(sessions: readonly JsonPieces[], rows: readonly TurnRows[]): string[] {
  return [joinRows(sessions), ...turnRowKeys.map((k) => joinRows(rows.map((r) => r[k])))];
}

async function writeGroup(db: Db, items: TurnWrite[]): Promise<(Row | undefined)[]> {
  const params = groupParams(items.map(guardedSessionJson), items.map(turnRows));
  const rows = await db.prepared("baton_turn_write", writeSql, params);
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  return items.map((t) => byId.get(t.sessionId));
}

interface TurnGroups {
  readonly read: Grouper<StepReadKey, Row | undefined>;
  readonly write: Grouper<TurnWrite, Row | undefined>;
}

const groups = new WeakMap<Db, TurnGroups>();

function groupsOf(db: Db): TurnGroups {
  let g = groups.get(db);
  if (!g) {
    // The embedded engine runs one statement at a time anyway; a pool takes a few at once.
    // (A second embedded group queued behind the running one was measured: smaller groups,
    // about 10% more CPU per turn, lower throughput.)
    const concurrency = db.kind === "embedded" ? 1 : 4;
    g = {
      read: new Grouper((items) => readGroup(db, items), concurrency),
      write: new Grouper((items) => writeGroup(db, items), concurrency),
    };
    groups.set(db, g);
  }
  return g;
}

/** The row a step starts from (session + `stored_response` + `step_calls`), grouped with other sessions' reads. */
export function readStepState(db: Db, id: string, key: string): Promise<Row | undefined> {
  return groupsOf(db).read.submit({ id, key });
}

/**
 * Commits a model turn, grouped with other sessions' turns in one statement; resolves after
 * the group committed, with the session's stored-side columns (id, status, stop_requested,
 * reason, answer, usage totals, lease, updated_at), or undefined when the version guard
 * failed (the session moved on: another request or replica committed first).
 */
export function commitTurn(db: Db, t: TurnWrite): Promise<Row | undefined> {
  return db.turnJournal ? db.turnJournal.commit(t) : groupsOf(db).write.submit(t);
}
