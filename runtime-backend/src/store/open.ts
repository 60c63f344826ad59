import { mkdirSync } from "node:fs";
import type { Db } from "./db.js";
import { migrate } from "./migrations.js";
import { openPgDb } from "./pg-db.js";
import { openPgliteDb } from "./pglite-db.js";

/** Where the store lives. */
export interface StoreLocation {
  /** A Postgres connection string; wins over `dataDir`. */
  readonly databaseUrl?: string | undefined;
  /** Directory of the embedded database; in memory when both are unset. */
  readonly dataDir?: string | undefined;
}

/** Opens the database the location names and migrates it to the latest schema. */
export async function openDb(location: StoreLocation): Promise<Db> {
  let db: Db;
  if (location.databaseUrl) {
    db = await openPgDb(location.databaseUrl);
  } else {
    if (location.dataDir) mkdirSync(location.dataDir, { recursive: true });
    db = await openPgliteDb(location.dataDir);
  }
  try {
    await migrate(db);
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}
