import type { ToolRisk } from "@baton/sdk/contract";
import type { RememberedDecision, SiteLists } from "@baton/sdk/policy";
import type { Queryable, Row } from "./db.js";
import { newId } from "./ids.js";

const risks = new Set<ToolRisk>(["read_only", "mutating", "irreversible"]);

function ms(v: unknown): number {
  return (v instanceof Date ? v : new Date(String(v))).getTime();
}

function decisionOf(r: Row): RememberedDecision {
  const risk = String(r.risk) as ToolRisk;
  return {
    id: String(r.id),
    site: String(r.site),
    risk: risks.has(risk) ? risk : "irreversible",
    allow: Boolean(r.allow),
    tool: String(r.tool ?? ""),
    createdAt: ms(r.created_at),
    ...(r.expires_at == null ? {} : { expiresAt: ms(r.expires_at) }),
  };
}

/** A user's remembered approval decisions still in force at `now` (ms), newest first. */
export async function listApprovalRules(q: Queryable, userId: string, now = Date.now()): Promise<RememberedDecision[]> {
  const rows = await q.query(
    "select * from approval_rules where user_id = $1 and (expires_at is null or expires_at > $2) order by created_at desc, id",
    [userId, new Date(now)],
  );
  return rows.map(decisionOf);
}

/**
 * Remembers a decision for a user, replacing the one on the same site and class (a person who
 * said "always" and later "never" means "never" now). Idempotent for a retried approval.
 */
export async function rememberApproval(q: Queryable, userId: string, d: Omit<RememberedDecision, "id" | "createdAt">): Promise<RememberedDecision> {
  const rows = await q.query(
    `insert into approval_rules (id, user_id, site, risk, allow, tool, expires_at) values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (user_id, site, risk) do update set allow = excluded.allow, tool = excluded.tool, expires_at = excluded.expires_at, created_at = now()
     returning *`,
    [newId("apr"), userId, d.site, d.risk, d.allow, d.tool, d.expiresAt === undefined ? null : new Date(d.expiresAt)],
  );
  return decisionOf(rows[0] as Row);
}

/** Forgets one of a user's remembered decisions; false when the user has none with that id. */
export async function revokeApprovalRule(q: Queryable, userId: string, id: string): Promise<boolean> {
  const rows = await q.query("delete from approval_rules where user_id = $1 and id = $2 returning id", [userId, id]);
  return rows.length > 0;
}

/** The store's key of a site policy: the team's, or one user's. */
export type PolicyScope = { readonly team: true } | { readonly userId: string };

const scopeKey = (s: PolicyScope) => ("team" in s ? "team" : `user:${s.userId}`);
const empty: SiteLists = { allowed: [], blocked: [], readOnly: [] };

function listOf(v: unknown): string[] {
  const a = typeof v === "string" ? (JSON.parse(v) as unknown) : v;
  return Array.isArray(a) ? a.map(String) : [];
}

/** The site policy stored for a scope (empty lists when none is). */
export async function getSitePolicy(q: Queryable, scope: PolicyScope): Promise<SiteLists> {
  const rows = await q.query("select allowed, blocked, read_only from site_policies where scope = $1", [scopeKey(scope)]);
  const r = rows[0];
  return r ? { allowed: listOf(r.allowed), blocked: listOf(r.blocked), readOnly: listOf(r.read_only) } : empty;
}

/** The team's and a user's site policies, in one read. */
export async function sitePoliciesFor(q: Queryable, userId: string): Promise<{ team: SiteLists; user: SiteLists }> {
  const rows = await q.query("select scope, allowed, blocked, read_only from site_policies where scope = any($1::text[])", [["team", `user:${userId}`]]);
  const of = (key: string): SiteLists => {
    const r = rows.find((x) => x.scope === key);
    return r ? { allowed: listOf(r.allowed), blocked: listOf(r.blocked), readOnly: listOf(r.read_only) } : empty;
  };
  return { team: of("team"), user: of(`user:${userId}`) };
}

/** Replaces a scope's site policy (checked by the caller). */
export async function setSitePolicy(q: Queryable, scope: PolicyScope, lists: SiteLists, by: string): Promise<void> {
  await q.query(
    `insert into site_policies (scope, allowed, blocked, read_only, updated_by) values ($1, $2, $3, $4, $5)
     on conflict (scope) do update set allowed = excluded.allowed, blocked = excluded.blocked, read_only = excluded.read_only,
       updated_by = excluded.updated_by, updated_at = now()`,
    [scopeKey(scope), JSON.stringify(lists.allowed), JSON.stringify(lists.blocked), JSON.stringify(lists.readOnly), by],
  );
}
