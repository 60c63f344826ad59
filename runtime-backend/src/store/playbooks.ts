import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Playbook } from "@baton/gen/baton/v1/agent_pb";
import { PlaybookSchema } from "@baton/gen/baton/v1/descriptors";
import type { Queryable, Row } from "./db.js";

function fromRow(r: Row): Playbook {
  return create(PlaybookSchema, {
    name: String(r.name),
    version: Number(r.version),
    description: String(r.description),
    instructions: String(r.instructions),
    keywords: (r.keywords as string[]) ?? [],
    urlPatterns: (r.url_patterns as string[]) ?? [],
    createdAt: timestampFromDate(r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at))),
  });
}

/**
 * Saves a playbook as the next version of its name (1 for a new name). Returns undefined when
 * `expectNew` is set and the name exists, or unset and it does not.
 */
export async function savePlaybookVersion(q: Queryable, userId: string, p: Playbook, expectNew: boolean): Promise<Playbook | undefined> {
  const cur = await q.query<{ v: number | null }>("select max(version) as v from playbooks where user_id = $1 and name = $2", [userId, p.name]);
  const latest = cur[0]?.v == null ? 0 : Number(cur[0].v);
  if (expectNew !== (latest === 0)) return undefined;
  const rows = await q.query(
    `insert into playbooks (user_id, name, version, description, instructions, keywords, url_patterns)
     values ($1, $2, $3, $4, $5, $6, $7) returning *`,
    [userId, p.name, latest + 1, p.description, p.instructions, JSON.stringify(p.keywords), JSON.stringify(p.urlPatterns)],
  );
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/** One version of a playbook (the latest when version is 0). */
export async function getPlaybook(q: Queryable, userId: string, name: string, version = 0): Promise<Playbook | undefined> {
  const rows =
    version > 0
      ? await q.query("select * from playbooks where user_id = $1 and name = $2 and version = $3", [userId, name, version])
      : await q.query("select * from playbooks where user_id = $1 and name = $2 order by version desc limit 1", [userId, name]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/** The latest version of each of a user's playbooks, by name. */
export async function listPlaybooks(q: Queryable, userId: string): Promise<Playbook[]> {
  const rows = await q.query(
    "select distinct on (name) * from playbooks where user_id = $1 order by name, version desc",
    [userId],
  );
  return rows.map(fromRow);
}

/** Every version of one playbook, newest first. */
export async function playbookVersions(q: Queryable, userId: string, name: string): Promise<Playbook[]> {
  const rows = await q.query("select * from playbooks where user_id = $1 and name = $2 order by version desc", [userId, name]);
  return rows.map(fromRow);
}
