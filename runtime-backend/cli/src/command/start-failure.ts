import { resolve } from "node:path";
import { ConsoleBuildMissing } from "@baton/backend/server";
import { DataDirBusy } from "@baton/backend/store";
import { flag, type Parsed } from "./args.js";
import type { Io } from "./io.js";

/**
 * A Postgres URL as it may be printed: host, port and database, without the user or password;
 * undefined when it is not a `postgres://` (or `postgresql://`) URL. A socket folder given as
 * `?host=/run/postgresql` (no host in the URL) stands in for the host.
 */
export function databaseWhere(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:") return undefined;
  return `postgres://${u.hostname || u.searchParams.get("host") || "localhost"}:${u.port || 5432}${u.pathname}`;
}

/** What to say of a database URL that {@link databaseWhere} refuses (it never repeats the URL, which may hold a password). */
export const notADatabaseUrl = "the database URL (--database-url or DATABASE_URL) is not a postgres:// URL: use postgres://user:password@host:port/db";

/** Where a command keeps its store: the flags it was given (one of the two). */
export interface StoreFlags {
  readonly databaseUrl?: string | undefined;
  /** The embedded store's folder, resolved. */
  readonly dataDir?: string | undefined;
}

/** Where `--database-url` / DATABASE_URL, else `--data-dir` / BATON_DATA_DIR (default ./.data), put a command's store. */
export function storeOf(p: Parsed, env: NodeJS.ProcessEnv): StoreFlags {
  const databaseUrl = flag(p, "database-url", env.DATABASE_URL) || undefined;
  return databaseUrl ? { databaseUrl } : { dataDir: resolve(flag(p, "data-dir", env.BATON_DATA_DIR ?? ".data") as string) };
}

/** File-system errors an operator fixes by choosing another folder. */
const fileCodes = new Set(["EACCES", "EPERM", "EROFS", "ENOSPC", "ENOTDIR", "EEXIST", "EISDIR"]);

/** Node's socket errors and Postgres's connection classes (08: connection, 28: authorization, 3D: no such database). */
const connectCodes = /^(E[A-Z]+|08...|28...|3D000)$/;

/**
 * One line saying why a server did not start and what to do about it, for the failures an
 * operator meets: the port taken or not allowed, the data directory in use, the database
 * unreachable, an incomplete install. Undefined for anything else (a bug, whose stack is worth
 * seeing). The database appears without its credentials.
 */
function startFailure(e: unknown, store: StoreFlags): string | undefined {
  if (e instanceof DataDirBusy || e instanceof ConsoleBuildMissing) return e.message;
  const code = (e as { code?: unknown } | undefined)?.code;
  const message = e instanceof Error ? e.message : String(e);
  const syscall = (e as { syscall?: unknown } | undefined)?.syscall;
  const path = (e as { path?: unknown } | undefined)?.path;
  if (store.dataDir && typeof path === "string" && (path === store.dataDir || path.startsWith(`${store.dataDir}/`)) && typeof code === "string" && fileCodes.has(code)) {
    return `cannot use the data directory ${store.dataDir} (${code} on ${syscall ?? "access"} ${path}): choose a directory this user may write (--data-dir), or --database-url`;
  }
  if (syscall === "listen") {
    const { address, port } = e as { address?: string; port?: number };
    if (code === "EADDRINUSE") return `port ${port} on ${address} is in use (by another server?): stop what holds it, or choose another port`;
    if (code === "EACCES") return `may not listen on ${address}:${port} (ports below 1024 need privileges): choose another port`;
    if (code === "EADDRNOTAVAIL") return `${address} is not an address of this machine: choose another host`;
    return `cannot listen on ${address}:${port}: ${message}`;
  }
  if (store.databaseUrl !== undefined) {
    const where = databaseWhere(store.databaseUrl) ?? "the database";
    if (typeof code === "string" && connectCodes.test(code)) {
      // The driver's messages never hold the password.
      return `cannot use the database at ${where}: ${message}; start it, fix --database-url (or DATABASE_URL), or leave both unset for the embedded store`;
    }
  }
  return undefined;
}

/** Says in one line why `baton <command>` could not start (see {@link startFailure}) and returns exit code 1; rethrows anything else. */
export function failedToStart(command: string, e: unknown, store: StoreFlags, io: Io): number {
  const why = startFailure(e, store);
  if (why === undefined) throw e;
  io.stderr(`baton ${command}: ${why}\n`);
  return 1;
}
