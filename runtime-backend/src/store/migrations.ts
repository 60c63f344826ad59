import type { Db } from "./db.js";

/**
 * Versioned schema migrations, applied in order, each once. Append new versions; never edit
 * an applied one (a server that already ran it would not see the change).
 */
export const migrations: readonly { readonly version: number; readonly name: string; readonly sql: string }[] = [
  {
    version: 1,
    // Protobuf-JSON blobs the store never queries into (context, history entries, messages,
    // responses) are text, not jsonb: no parse on write, no conversion on read.
    name: "initial schema",
    sql: `
create table users (
  id text primary key,
  name text not null,
  created_at timestamptz not null default now()
);
create table api_tokens (
  token_hash text primary key,
  user_id text not null references users(id),
  label text not null default '',
  created_at timestamptz not null default now()
);
create table sessions (
  id text primary key,
  user_id text not null references users(id),
  idempotency_key text,
  status integer not null,
  task text not null default '',
  goal text not null default '',
  model text not null,
  step integer not null default 0,
  max_steps integer not null,
  playbook text not null default '',
  playbook_instructions text not null default '',
  input_tokens bigint not null default 0,
  output_tokens bigint not null default 0,
  cached_tokens bigint not null default 0,
  cost_usd double precision not null default 0,
  answer text not null default '',
  reason text not null default '',
  stop_requested boolean not null default false,
  context text not null default '{}',
  history_len integer not null default 0,
  lease_until timestamptz,
  lease_owner text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index sessions_idempotency on sessions (user_id, idempotency_key) where idempotency_key is not null;
create index sessions_user on sessions (user_id, created_at);
create table history (
  session_id text not null references sessions(id) on delete cascade,
  seq integer not null,
  step integer not null,
  entry text not null,
  primary key (session_id, seq)
);
create table calls (
  session_id text not null references sessions(id) on delete cascade,
  toolcall_id text not null,
  step integer not null,
  ord integer not null,
  name text not null,
  arguments text not null,
  side text not null,
  state text not null,
  message text,
  output text,
  primary key (session_id, toolcall_id)
);
create index calls_open on calls (session_id, step);
create table responses (
  session_id text not null references sessions(id) on delete cascade,
  input_key text not null,
  response text not null,
  created_at timestamptz not null default now(),
  primary key (session_id, input_key)
);
create table traces (
  session_id text not null references sessions(id) on delete cascade,
  step integer not null,
  model text not null,
  latency_ms integer not null,
  input_tokens bigint not null default 0,
  output_tokens bigint not null default 0,
  cached_tokens bigint not null default 0,
  cost_usd double precision not null default 0,
  tool_calls jsonb not null default '[]'::jsonb,
  errors jsonb not null default '[]'::jsonb,
  created_at timestamptz not null default now(),
  primary key (session_id, step)
);
create table logs (
  id bigserial primary key,
  session_id text not null references sessions(id) on delete cascade,
  user_id text not null,
  level integer not null,
  message text not null,
  step integer not null default 0,
  tool text not null default '',
  toolcall_id text not null default '',
  time timestamptz not null default now(),
  attributes jsonb not null default '{}'::jsonb
);
create index logs_session on logs (session_id, step);
create table memories (
  id text primary key,
  user_id text not null references users(id),
  text text not null,
  tags jsonb not null default '[]'::jsonb,
  session_id text,
  created_at timestamptz not null default now(),
  tsv tsvector generated always as (to_tsvector('english', text)) stored
);
create index memories_tsv on memories using gin (tsv);
create index memories_user on memories (user_id);
create table playbooks (
  user_id text not null references users(id),
  name text not null,
  version integer not null,
  description text not null default '',
  instructions text not null,
  keywords jsonb not null default '[]'::jsonb,
  url_patterns jsonb not null default '[]'::jsonb,
  created_at timestamptz not null default now(),
  primary key (user_id, name, version)
);
`,
  },
  {
    version: 2,
    name: "client tools per session",
    // The tools a client declared at CreateSession (JSON), declared to the model on every turn.
    sql: "alter table sessions add column client_tools text not null default '[]'",
  },
  {
    version: 3,
    // Every model turn rewrites its session's row, context included (a few KB). Half-empty
    // pages let the new row version go on the same page (a HOT update: no index entries),
    // and keeping rows up to a page inline spares each turn a TOAST write and compression.
    name: "sessions rows updated in place",
    sql: `alter table sessions set (fillfactor = 50, toast_tuple_target = 8160);
alter table sessions alter column context set storage main`,
  },
  {
    version: 4,
    // Every turn marks its calls done. With full pages that update moved the row to another
    // page (two new index entries, and a dead version that only VACUUM reclaims); with room
    // on the page it is a HOT update, and the old version is pruned in place on a later visit.
    name: "calls updated in place",
    sql: "alter table calls set (fillfactor = 50)",
  },
  {
    version: 5,
    // The micro summaries leave the session row for one row each (src/store/context-lines.ts):
    // a turn appends a line instead of rewriting the whole context (about 20 KB at the 8k-token
    // budget). Existing sessions' summaries move over, numbered from 0.
    name: "context summaries as lines",
    sql: `create table context_lines (
  session_id text not null references sessions(id) on delete cascade,
  seq integer not null,
  line text not null,
  primary key (session_id, seq)
);
alter table sessions add column context_from integer not null default 0;
insert into context_lines (session_id, seq, line)
  select s.id, (m.ord - 1)::int, m.line
    from sessions s cross join lateral json_array_elements_text(s.context::json -> 'micro') with ordinality as m(line, ord)
   where json_typeof(s.context::json -> 'micro') = 'array';
update sessions set context = (context::jsonb - 'micro')::text where context::jsonb ? 'micro'`,
  },
  {
    version: 6,
    // The tables a turn writes stop checking their session in a trigger per row. The loop
    // writes them only for a session it has just read (most of them in the statement or batch
    // that also updates the session's row under its version guard), and sessions are never
    // deleted, so the check could not fail. It cost about a quarter of the embedded engine's
    // time per turn: a key-share lock and a lookup for each of the 5–6 rows a turn inserts.
    // The logs table keeps its check: a client's ReportLog names the session itself.
    name: "turn tables without per-row session checks",
    sql: `alter table calls drop constraint calls_session_id_fkey;
alter table history drop constraint history_session_id_fkey;
alter table traces drop constraint traces_session_id_fkey;
alter table responses drop constraint responses_session_id_fkey;
alter table context_lines drop constraint context_lines_session_id_fkey`,
  },
  {
    version: 7,
    // The embedded store's turn journal (turn-journal.ts) records here, in the transaction
    // that applies them, the number of the last journaled turn in the database; on start it
    // applies the journal's later turns. (Postgres commits turns directly and never uses it.)
    name: "turn journal position",
    sql: `create table journal_state (
  id integer primary key default 1 check (id = 1),
  applied_seq bigint not null default 0
);
insert into journal_state default values`,
  },
  {
    version: 8,
    // A stored response is kept as the protobuf bytes sent to the client (the same bytes are
    // the HTTP body, encoded once), not as protobuf JSON; rows stored before keep their JSON.
    name: "responses as protobuf bytes",
    sql: `alter table responses add column body bytea;
alter table responses alter column response drop not null`,
  },
  {
    version: 9,
    // The key (with a hash of the text) of the last user message applied: a retry after a
    // crash mid-turn resumes that step instead of being refused, and a key reused for another
    // message is refused instead of answered with the first one's result.
    name: "input key of the last user message",
    sql: "alter table sessions add column input_key text not null default ''",
  },
  {
    version: 10,
    // A screenshot a tool call returned, stored once: the call's history entry keeps only a
    // "screenshot:<id>" reference, and the prompt that replays the call reads it from here.
    // Like the other turn tables, no foreign key: the loop writes it for a session it owns.
    name: "screenshots stored once",
    sql: `create table screenshots (
  session_id text not null,
  id text not null,
  toolcall_id text not null,
  mime_type text not null,
  width integer not null default 0,
  height integer not null default 0,
  data bytea not null,
  created_at timestamptz not null default now(),
  primary key (session_id, id)
);
create index screenshots_call on screenshots (session_id, toolcall_id)`,
  },
  {
    version: 11,
    // The embedded store's write-behind turn journal is gone: turns commit with the same
    // statement on both engines (`commit-sql.ts`).
    name: "no turn journal",
    sql: "drop table if exists journal_state",
  },
  {
    version: 12,
    // The web console (src/console/): accounts with an admin flag, API tokens with an id, a
    // name, the device they are bound to and a revocation time, one-time sign-in links, the
    // console's cookie sessions, PKCE device links and daily quotas. Secrets (sign-in codes,
    // cookies, exchanged device codes) are kept as SHA-256 hashes, as tokens are.
    name: "console: accounts, tokens, sign-in, device links, quotas",
    sql: `alter table users add column admin boolean not null default false;
alter table api_tokens add column id text;
update api_tokens set id = 'tok_' || substr(token_hash, 1, 20);
alter table api_tokens alter column id set not null;
create unique index api_tokens_id on api_tokens (id);
create index api_tokens_user on api_tokens (user_id, created_at);
alter table api_tokens add column source text not null default '';
update api_tokens set source = label;
alter table api_tokens add column device text not null default '';
alter table api_tokens add column last_used_at timestamptz;
alter table api_tokens add column revoked_at timestamptz;
create table sign_in_links (
  code_hash text primary key,
  user_id text not null references users(id),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create table console_sessions (
  id_hash text primary key,
  user_id text not null references users(id),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  last_seen_at timestamptz not null default now()
);
create index console_sessions_user on console_sessions (user_id);
create table device_links (
  id text primary key,
  code_challenge text not null,
  device_name text not null,
  client text not null,
  origin text not null default '',
  user_code text not null,
  status integer not null,
  user_id text references users(id),
  token_name text not null default '',
  code text,
  code_hash text unique,
  code_expires_at timestamptz,
  token_id text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create table quotas (
  user_id text primary key references users(id),
  daily_cost_usd double precision not null default 0,
  daily_steps integer not null default 0,
  updated_at timestamptz not null default now()
)`,
  },
  {
    version: 13,
    // The embedded store's commit journal (renamed by 14; `old-journals.ts` reads it once and drops it):
    // the number of the last journaled commit applied, recorded by the statement that applied it.
    name: "commit journal position",
    sql: `create table commit_journal (
  id integer primary key default 1 check (id = 1),
  applied_seq bigint not null default 0
);
insert into commit_journal default values`,
  },
  {
    version: 14,
    // Every commit goes straight through commitSql again: the commit journal is gone. Its
    // position is kept under another name until opening has applied what a data directory's
    // journal held past it, with today's commitSql on the migrated schema (`old-journals.ts`),
    // which then drops the table.
    name: "no commit journal",
    sql: "alter table commit_journal rename to old_commit_journal",
  },
  {
    version: 15,
    // Where each memory record came from: the page the agent was on when it saved it (the
    // session is already there), or the user; and whether the user vouches for it (pinned),
    // which alone lets the model read it outside the untrusted-data fence.
    name: "memory provenance",
    sql: `alter table memories add column page_url text not null default '';
alter table memories add column by_user boolean not null default false;
alter table memories add column pinned boolean not null default false`,
  },
  {
    version: 16,
    // What a sign-in link is for: "start" marks the operator's link that `baton serve` prints
    // at each start, which the next start retires (it is in logs and scrollback); links made with
    // `baton user link` or in the console have "". Upkeep deletes expired links, codes and
    // console sessions by their expiry, so each gets an index on it.
    name: "sign-in link purpose; expiry indexes for upkeep",
    sql: `alter table sign_in_links add column purpose text not null default '';
create index sign_in_links_expiry on sign_in_links (expires_at);
create index console_sessions_expiry on console_sessions (expires_at);
create index device_links_expiry on device_links (expires_at)`,
  },
  {
    version: 17,
    // The client's verdict on a finished session (ReportVerdict): 0 none reported, 1 passed,
    // 2 did not pass, and what did not hold.
    name: "session verdicts",
    sql: `alter table sessions add column verdict smallint not null default 0;
alter table sessions add column verdict_reason text not null default ''`,
  },
  {
    version: 18,
    // A session's budget (0: no ceiling on that measure), set when it is created and checked by
    // the loop before each model call; and each user's default budget for new sessions.
    name: "session budgets; default budgets",
    sql: `alter table sessions add column budget_tokens bigint not null default 0;
alter table sessions add column budget_cost_usd double precision not null default 0;
alter table sessions add column budget_seconds integer not null default 0;
create table default_budgets (
  user_id text primary key references users(id) on delete cascade,
  tokens bigint not null default 0,
  cost_usd double precision not null default 0,
  seconds integer not null default 0,
  updated_at timestamptz not null default now()
)`,
  },
  {
    version: 19,
    // Trust a person configures (`trust.ts`): the approval decisions a user asked to have
    // remembered, one per site and action class (a new decision replaces the old one), and the
    // site policies — the team's (scope "team") and each user's ("user:<id>") — as their lists.
    name: "remembered approvals and site policies",
    sql: `create table approval_rules (
  id text primary key,
  user_id text not null references users(id),
  site text not null,
  risk text not null,
  allow boolean not null,
  tool text not null default '',
  created_at timestamptz not null default now(),
  expires_at timestamptz
);
create unique index approval_rules_site on approval_rules (user_id, site, risk);
create table site_policies (
  scope text primary key,
  allowed jsonb not null default '[]'::jsonb,
  blocked jsonb not null default '[]'::jsonb,
  read_only jsonb not null default '[]'::jsonb,
  updated_by text not null default '',
  updated_at timestamptz not null default now()
)`,
  },
];

/**
 * Brings the schema up to the latest version (or to `upTo`, for tests of a migration). Safe
 * to run on every start and from several replicas at once: on Postgres an advisory lock
 * serialises concurrent migrators.
 */
export async function migrate(db: Db, upTo = Number.POSITIVE_INFINITY): Promise<number> {
  await db.exec("create table if not exists schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())");
  return db.transaction(async (tx) => {
    if (db.kind === "postgres") {
      await tx.query("select pg_advisory_xact_lock(727274)");
    }
    const rows = await tx.query<{ version: number }>("select version from schema_migrations");
    const applied = new Set(rows.map((r) => Number(r.version)));
    let latest = Math.max(0, ...applied);
    for (const m of migrations) {
      if (applied.has(m.version) || m.version > upTo) continue;
      // Statements run one by one so both engines take them inside the same transaction.
      for (const statement of m.sql.split(/;\s*\n/).map((s) => s.trim()).filter(Boolean)) {
        await tx.query(statement);
      }
      await tx.query("insert into schema_migrations (version, name) values ($1, $2)", [m.version, m.name]);
      latest = m.version;
    }
    return latest;
  });
}
