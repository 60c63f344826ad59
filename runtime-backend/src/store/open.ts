import type { Logger } from "../log/logger.js";
import { lockDataDir, makePrivate } from "./data-dir.js";
import type { Db } from "./db.js";
import { migrate } from "./migrations.js";
import { applyOldCommitJournal, refuseOldTurnJournal } from "./old-journals.js";
import { openPgDb } from "./pg-db.js";
import { openPgliteDb } from "./pglite-db.js";
import { openWorkerDb } from "./worker-db.js";

/** Where the store lives. */
export interface StoreLocation {
  /** A Postgres connection string; wins over `dataDir`. */
  readonly databaseUrl?: string | undefined;
  /** Directory of the embedded database; in memory when both are unset. */
  readonly dataDir?: string | undefined;
  /**
   * Where the embedded engine runs: "worker" (default) in a worker thread, so statements
   * never block the event loop; "inline" on the calling thread.
   */
  readonly embeddedThread?: "worker" | "inline" | undefined;
  /** Who opens an embedded `dataDir` ("baton serve"), recorded in its lock for a refused second process. */
  readonly owner?: string | undefined;
  /** Where opening reports what it did to an embedded `dataDir` an earlier version left (`old-journals.ts`). */
  readonly logger?: Logger | undefined;
}

/**
 * The embedded engine in a worker thread, or on this thread when no worker can start (the
 * worker is TypeScript loaded by Node's own type stripping: Node 23.6+; the repo pins 24).
 */
async function openEmbeddedInWorker(dataDir: string | undefined): Promise<Db> {
  try {
    return await openWorkerDb(dataDir);
  } catch (e) {
    process.emitWarning(`embedded store: no worker thread (${e instanceof Error ? e.message : String(e)}); running it on the main thread`);
    return openPgliteDb(dataDir);
  }
}

/** Opens the database the location names and migrates it to the latest schema. */
export async function openDb(location: StoreLocation): Promise<Db> {
  let db: Db;
  if (location.databaseUrl) {
    db = await openPgDb(location.databaseUrl);
  } else {
    // One process per data directory (throws DataDirBusy naming the holder), files private.
    const lock = location.dataDir ? lockDataDir(location.dataDir, location.owner ?? "baton") : undefined;
    try {
      if (location.dataDir) refuseOldTurnJournal(location.dataDir);
      db = location.embeddedThread === "inline" ? await openPgliteDb(location.dataDir) : await openEmbeddedInWorker(location.dataDir);
    } catch (e) {
      lock?.release();
      throw e;
    }
    if (lock) {
      // The engine writes its initial files (and its relcache file at every start) with modes of
      // its own; from here on the umask keeps new files private.
      makePrivate(lock.dir);
      const close = db.close.bind(db);
      db = Object.assign(db, {
        dataDirLock: lock,
        async close() {
          try {
            await close();
          } finally {
            lock.release();
          }
        },
      });
    }
  }
  try {
    await migrate(db);
    await applyOldCommitJournal(db, db.dataDirLock?.dir, location.logger);
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}
