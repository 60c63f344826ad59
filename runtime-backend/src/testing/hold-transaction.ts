import type { Db } from "../store/db.js";

/**
 * Opens a transaction that runs `sql` and then stays open until `end()` is called, so that the
 * embedded engine (one connection) holds every other statement meanwhile; it commits then, or
 * rolls back with `rollBack`. Resolves once `sql` ran inside it.
 */
export async function holdTransaction(db: Db, sql: string, rollBack = false): Promise<{ end: () => void; done: Promise<void> }> {
  let end!: () => void;
  const ended = new Promise<void>((r) => (end = r));
  let opened!: () => void;
  const isOpen = new Promise<void>((r) => (opened = r));
  const done = db.transaction(async (q) => {
    await q.query(sql);
    opened();
    await ended;
    if (rollBack) throw new Error("roll back");
  });
  await Promise.race([isOpen, done]);
  return { end, done };
}
