import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Playbook } from "@baton/gen/baton/v1/agent_pb";
import { DiffOp, type DiffPlaybookVersionsResponse, type MatchPlaybooksResponse } from "@baton/gen/baton/v1/console_pb";
import { DiffPlaybookVersionsResponseSchema, MatchPlaybooksResponseSchema, PlaybookMatchSchema } from "@baton/gen/baton/v1/descriptors";
import { diffLines } from "diff";
import { matchDetails } from "../loop/playbook-match.js";
import { getPlaybook, listPlaybooks, playbookVersions } from "../store/playbooks.js";
import type { ConsoleDeps } from "./deps.js";

/** Every version of a playbook, newest first; NotFound when it has none. */
export async function versionsOf(deps: ConsoleDeps, userId: string, name: string): Promise<Playbook[]> {
  const versions = await playbookVersions(deps.db, userId, name);
  if (versions.length === 0) throw new ConnectError(`playbook "${name.slice(0, 100)}" not found`, Code.NotFound);
  return versions;
}

/** A playbook version as the lines a diff compares: what it is for, its match rules, its instructions. */
export function playbookText(p: Playbook): string {
  const lines = [
    `Description: ${p.description}`,
    `Keywords: ${p.keywords.join(", ")}`,
    `URL patterns: ${p.urlPatterns.join(", ")}`,
    "Instructions:",
    ...p.instructions.split(/\r?\n/),
  ];
  return `${lines.join("\n")}\n`;
}

/** A line diff from one version to another (the latest when `to` is 0). */
export async function diffVersions(deps: ConsoleDeps, userId: string, name: string, from: number, to: number): Promise<DiffPlaybookVersionsResponse> {
  const [a, b] = await Promise.all([getPlaybook(deps.db, userId, name, from), getPlaybook(deps.db, userId, name, to)]);
  if (!a || !b) throw new ConnectError(`playbook "${name.slice(0, 100)}" has no version ${!a ? from : to}`, Code.NotFound);
  const out = create(DiffPlaybookVersionsResponseSchema, {});
  for (const part of diffLines(playbookText(a), playbookText(b))) {
    const op = part.added ? DiffOp.ADDED : part.removed ? DiffOp.REMOVED : DiffOp.SAME;
    const lines = part.value.replace(/\n$/, "").split("\n");
    for (const text of lines) out.lines.push({ $typeName: "baton.v1.DiffLine", op, text });
    if (op === DiffOp.ADDED) out.added += lines.length;
    if (op === DiffOp.REMOVED) out.removed += lines.length;
  }
  return out;
}

/** Saves an earlier version's content as the new latest version (the history keeps everything). */
export async function rollBack(deps: ConsoleDeps, userId: string, name: string, version: number): Promise<Playbook> {
  const old = await getPlaybook(deps.db, userId, name, version);
  if (!old || version === 0) throw new ConnectError(`playbook "${name.slice(0, 100)}" has no version ${version}`, Code.NotFound);
  return deps.agent.savePlaybook(userId, old, false);
}

/** Which playbook a session with this task and start URL would get, and what each one's rules matched. */
export async function matchPlaybooks(deps: ConsoleDeps, userId: string, task: string, url: string): Promise<MatchPlaybooksResponse> {
  const text = url ? `${task} ${url}` : task;
  const scored = (await listPlaybooks(deps.db, userId)).map((p) => ({ p, m: matchDetails(p, text) }));
  // The order bestPlaybook picks in: the first of the highest score wins.
  const best = scored.reduce<(typeof scored)[number] | undefined>((acc, x) => (x.m.score > (acc?.m.score ?? 0) ? x : acc), undefined);
  const ranked = [...scored].sort((x, y) => y.m.score - x.m.score);
  return create(MatchPlaybooksResponseSchema, {
    chosen: best ? `${best.p.name}@${best.p.version}` : "",
    matches: ranked.map(({ p, m }) =>
      create(PlaybookMatchSchema, { name: p.name, version: p.version, keywords: m.keywords, urlPatterns: m.urlPatterns, score: m.score }),
    ),
  });
}
