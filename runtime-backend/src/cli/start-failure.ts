import { ConsoleBuildMissing } from "../server/console-pages.js";
import { DataDirBusy } from "../store/data-dir.js";
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

/** Node's socket errors and Postgres's connection classes (08: connection, 28: authorization, 3D: no such database). */
const connectCodes = /^(E[A-Z]+|08...|28...|3D000)$/;

/**
 * One line saying why a server did not start and what to do about it, for the failures an
 * operator meets: the port taken or not allowed, the data directory in use, the database
 * unreachable, an incomplete install. Undefined for anything else (a bug, whose stack is worth
 * seeing). The database appears without its credentials.
 */
function startFailure(e: unknown, databaseUrl?: string): string | undefined {
  if (e instanceof DataDirBusy || e instanceof ConsoleBuildMissing) return e.message;
  const code = (e as { code?: unknown } | undefined)?.code;
  const message = e instanceof Error ? e.message : String(e);
  const syscall = (e as { syscall?: unknown } | undefined)?.syscall;
  if (syscall === "listen") {
    const { address, port } = e as { address?: string; port?: number };
    if (code === "EADDRINUSE") return `port ${port} on ${address} is in use (by another server?): stop what holds it, or choose another port`;
    if (code === "EACCES") return `may not listen on ${address}:${port} (ports below 1024 need privileges): choose another port`;
    if (code === "EADDRNOTAVAIL") return `${address} is not an address of this machine: choose another host`;
    return `cannot listen on ${address}:${port}: ${message}`;
  }
  if (databaseUrl !== undefined) {
    const where = databaseWhere(databaseUrl) ?? "the database";
    if (typeof code === "string" && connectCodes.test(code)) {
      // The driver's messages never hold the password.
      return `cannot use the database at ${where}: ${message}; start it, fix --database-url (or DATABASE_URL), or leave both unset for the embedded store`;
    }
  }
  return undefined;
}

/** Says in one line why `baton <command>` could not start (see {@link startFailure}) and returns exit code 1; rethrows anything else. */
export function failedToStart(command: string, e: unknown, databaseUrl: string | undefined, io: Io): number {
  const why = startFailure(e, databaseUrl);
  if (why === undefined) throw e;
  io.stderr(`baton ${command}: ${why}\n`);
  return 1;
}
