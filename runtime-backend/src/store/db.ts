/**
 * The one SQL surface the store needs. Both the embedded engine (PGlite) and a Postgres server
 * (`pg`) implement it, so every query in the store is written once, in one dialect.
 */

import type { DataDirLock } from "./data-dir.js";

/** A row as returned by a query: column name → value. */
export type Row = Record<string, unknown>;

/** Something that can run parameterised SQL: the database itself or an open transaction. */
export interface Queryable {
  /** Runs one statement with `$1`-style parameters and returns its rows. */
  query<R extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

/** A database handle: queries, transactions and shutdown. */
export interface Db extends Queryable {
  /** Which engine this is, for logs and the CLI banner. */
  readonly kind: "embedded" | "postgres";
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * Keep it short: the embedded engine has a single connection.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs a statement the hot path repeats, prepared once (per connection) under `name`, so
   * later runs skip parsing and planning. `sql` must be the same text on every call and take
   * only JSON parameters (`$1::json`): each of `params` is a JSON text. Returns the rows, as
   * {@link Queryable.query} does.
   */
  prepared<R extends Row = Row>(name: string, sql: string, params: readonly string[]): Promise<R[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Closes the handle; the store flushes and releases its files or pool. */
  close(): Promise<void>;
  /**
   * Calls `fn` with the payload of every notification on `channel` (Postgres LISTEN/NOTIFY, on a
   * connection of its own), until the returned function is called. Only a Postgres server has
   * it: several replicas share one, while an embedded store has one process.
   */
  listen?(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  /** The embedded store's hold on its data directory (`data-dir.ts`), when it has one. */
  dataDirLock?: DataDirLock;
}
