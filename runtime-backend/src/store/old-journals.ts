import { lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { fromBinary } from "@bufbuild/protobuf";
import { StepResponseSchema } from "@baton/gen/baton/v1/descriptors";
import type { Logger } from "../log/logger.js";
import { commitSql } from "./commit-sql.js";
import type { Db } from "./db.js";
import { RecordTexts } from "./record-texts.js";
import { fromHex } from "./literal.js";

/**
 * What the write-behind journals of earlier versions left in an embedded data directory, dealt
 * with when it is opened. Every commit now goes straight through `commitSql`; these files are
 * only read here, and only once.
 */

/**
 * Refuses a data directory that 0.1 left with unapplied model turns in its turn journal
 * (`baton_journal/`, a format no longer read): starting over it would lose turns that were
 * acknowledged. A clean stop of that version applies them and empties the journal.
 */
export function refuseOldTurnJournal(dataDir: string): void {
  const journal = join(dataDir, "baton_journal");
  let left: string[];
  try {
    left = readdirSync(journal).filter((n) => n.endsWith(".jnl") && lstatSync(join(journal, n)).size > 8);
  } catch {
    return;
  }
  if (left.length > 0) {
    throw new Error(
      `${journal} holds model turns an earlier version of baton acknowledged but did not apply (${left.join(", ")}): ` +
        "start that version once and stop it cleanly (it applies them), or delete the directory to drop them",
    );
  }
}

/** One record of the commit journal: its number and the six recordset parameters of `commitSql` it was written with. */
interface OldCommit {
  readonly seq: number;
  readonly texts: string[];
}

const magic = Buffer.from("BATONC01");

/**
 * The records of the commit journal's segments in `dir`, in order. A segment (`<16-digit first
 * number>.jnl`) is the magic, then records `u32 length, u32 crc32, payload`, the payload `f64
 * seq` and, per text, `u32 byte length + UTF-8`. Only the last segment's tail may be cut short
 * (a write the crash interrupted, never acknowledged): it is dropped. Damage anywhere else
 * throws, naming the file and offset, rather than skipping acknowledged commits.
 */
function readOldCommits(dir: string, segments: readonly string[]): OldCommit[] {
  const out: OldCommit[] = [];
  segments.forEach((name, i) => {
    const path = join(dir, name);
    const buf = readFileSync(path);
    const last = i === segments.length - 1;
    if (!buf.subarray(0, magic.length).equals(magic)) {
      if (last && buf.length < magic.length) return;
      throw new Error(`commit journal ${path} is not a journal segment (bad header)`);
    }
    for (let at = magic.length; at < buf.length; ) {
      const length = at + 8 <= buf.length ? buf.readUInt32LE(at) : Infinity;
      const payload = at + 8 + length <= buf.length ? buf.subarray(at + 8, at + 8 + length) : undefined;
      if (!payload || crc32(payload) !== buf.readUInt32LE(at + 4)) {
        if (last) break;
        throw new Error(`commit journal ${path} is damaged at byte ${at}; later segments follow it, so it is not a cut-off write`);
      }
      const texts: string[] = [];
      for (let p = 8; p < payload.length; ) {
        const n = payload.readUInt32LE(p);
        texts.push(payload.toString("utf8", p + 4, p + 4 + n));
        p += 4 + n;
      }
      out.push({ seq: payload.readDoubleLE(0), texts });
      at += 8 + length;
    }
  });
  return out;
}

/**
 * A journaled commit's parameters as `commitSql` takes them now: its session rows stored the
 * step's whole response as protobuf bytes (`response`, bytea hex), where a commit now stores
 * the step's messages as JSON.
 */
function asCommitParams(texts: readonly string[]): string[] {
  const sessions = (JSON.parse(texts[0] ?? "[]") as Record<string, unknown>[]).map((row) =>
    typeof row.response === "string" && row.response.startsWith("\\x")
      ? { ...row, response: JSON.parse(new RecordTexts().response(fromBinary(StepResponseSchema, fromHex(row.response)).messages)) as unknown }
      : row,
  );
  return [JSON.stringify(sessions), ...texts.slice(1, 6)];
}

/**
 * Applies, once, the commits an earlier version acknowledged from its commit journal
 * (`<data dir>/baton_commits/`) and had not applied when it stopped: those numbered past the
 * position that version recorded, in one transaction that then drops the position's table
 * (`old_commit_journal`, as migration 14 renamed it), then deletes the directory. A database
 * without a data directory (Postgres, memory) only has the table dropped. A data directory that
 * still holds records after that (copied back by hand) is refused rather than applied twice.
 *
 * It runs after the migrations, with today's `commitSql` (the records' rows converted where its
 * columns changed): the schema the statement needs is the migrated one, and columns added since
 * the records were written take their defaults. A record the statement refuses (its session
 * moved on) is logged as lost.
 */
export async function applyOldCommitJournal(db: Db, dataDir: string | undefined, logger?: Logger): Promise<void> {
  if (!dataDir) {
    // Postgres or memory: never had a journal. Several processes may open one database at once,
    // and a drop that finds the table gone is not an error.
    await db.query("drop table if exists old_commit_journal");
    return;
  }
  const dir = join(dataDir, "baton_commits");
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    // No journal directory: nothing to apply.
  }
  const segments = names.filter((n) => /^\d{16}\.jnl$/.test(n)).sort();
  const records = readOldCommits(dir, segments);
  const [known] = await db.query<{ t: unknown }>("select to_regclass('old_commit_journal') as t");
  if (records.length > 0 && !known?.t) {
    throw new Error(
      `${dir} holds commits an earlier version of baton journaled, but this database no longer records which of them it applied: ` +
        "they were applied when it was upgraded; delete the directory",
    );
  }
  if (known?.t) {
    const { applied, lost } = await db.transaction(async (tx) => {
      const [row] = await tx.query<{ applied_seq: string | number }>("select applied_seq from old_commit_journal");
      const position = Number(row?.applied_seq ?? 0);
      let applied = 0;
      let lost = 0;
      for (const r of records) {
        if (r.seq <= position) continue;
        const params = asCommitParams(r.texts);
        const [session] = JSON.parse(params[0] ?? "[]") as { id?: string }[];
        const rows = await tx.query(commitSql, params);
        if (rows.some((x) => x.id === session?.id)) applied++;
        else lost++;
      }
      await tx.query("drop table old_commit_journal");
      return { applied, lost };
    });
    if (applied + lost > 0) logger?.info({ applied, lost }, "commit journal of an earlier version: applied the commits it held");
    if (lost > 0) logger?.error({ lost }, "commit journal of an earlier version: acknowledged commits could not be applied");
  }
  rmSync(dir, { recursive: true, force: true });
}
