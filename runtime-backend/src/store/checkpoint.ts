import type { Db } from "./db.js";

/**
 * Postgres bounds its WAL with checkpoints: the checkpointer process runs one every
 * `checkpoint_timeout`, and a backend that has written `max_wal_size` of WAL asks for one. The
 * embedded engine has neither: it is a standalone backend, which never asks (that request is
 * made only under a postmaster), and it has no checkpointer. So it checkpoints only when it
 * shuts down cleanly or starts after a crash, and in between its WAL grows without bound, as
 * fast as turns are committed, and a restart after a crash replays all of it.
 * The embedded backend therefore checkpoints itself, from the same timer as its vacuum
 * (`upkeep.ts`), once `maxWalBytes` of WAL has been written since the last checkpoint.
 */

/** WAL written since the last checkpoint's redo point, in bytes. */
export async function walSinceCheckpoint(db: Db): Promise<number> {
  const [r] = await db.query<{ b: string | number }>("select pg_wal_lsn_diff(pg_current_wal_lsn(), (pg_control_checkpoint()).redo_lsn)::bigint as b");
  return Number(r?.b ?? 0);
}

/** Default WAL between checkpoints: 64 MB (four 16 MB segments). */
export const defaultMaxWalBytes = 64 * 2 ** 20;

/** What one check did. */
export interface CheckpointPass {
  /** WAL since the previous checkpoint when checked, in bytes. */
  readonly walBytes: number;
  /** Whether it checkpointed. */
  readonly checkpointed: boolean;
  readonly ms: number;
}

/** Checkpoints when more than `maxWalBytes` of WAL was written since the last checkpoint. */
export async function checkpointDue(db: Db, maxWalBytes = defaultMaxWalBytes): Promise<CheckpointPass> {
  const t0 = performance.now();
  const walBytes = await walSinceCheckpoint(db);
  const checkpointed = walBytes > maxWalBytes;
  if (checkpointed) await db.exec("checkpoint");
  return { walBytes, checkpointed, ms: performance.now() - t0 };
}
