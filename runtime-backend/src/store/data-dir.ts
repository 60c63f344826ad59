import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

/** Who holds a data directory: what `baton.lock` records. */
export interface LockHolder {
  readonly pid: number;
  /** The process's start time in clock ticks since boot (Linux), so a reused pid is not mistaken for it. */
  readonly startTicks?: number | undefined;
  /** "baton serve", "baton token", "baton run" … */
  readonly command: string;
  /** ISO time the lock was taken. */
  readonly since: string;
  /** Where the holder serves the API, once it listens. */
  readonly url?: string | undefined;
}

/** A data directory held by another live process. */
export class DataDirBusy extends Error {
  override readonly name = "DataDirBusy";

  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the data directory ${dir} is in use by ${holder.command} (pid ${holder.pid}${holder.url ? `, serving ${holder.url}` : ""}, since ${holder.since}); ` +
        "one process at a time may open an embedded store: stop that process first, or use another --data-dir",
    );
  }
}

/** An exclusive hold on a data directory, released on close. */
export interface DataDirLock {
  readonly dir: string;
  /** Records where the holder serves the API, so a refused process can say so. */
  setUrl(url: string): void;
  release(): void;
}

const lockName = "baton.lock";

/** This process's start time, from /proc (undefined where there is none). */
function startTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22, counted after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const v = Number(fields[19]);
    return Number.isFinite(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function alive(h: LockHolder): boolean {
  try {
    process.kill(h.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // Same pid, started at another time: the holder died and its pid was reused.
  const now = startTicks(h.pid);
  return h.startTicks === undefined || now === undefined || now === h.startTicks;
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, "utf8")) as LockHolder;
    return Number.isInteger(h.pid) && h.pid > 0 ? h : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes `dir` private to this user: the directory 0700 and everything in it 0600 (0700 for
 * directories). Typed text (passwords included) sits in the store's files and WAL, so no
 * other local user may read them. Store files created later get the same modes from the
 * process umask ({@link lockDataDir} sets 077).
 */
export function makePrivate(dir: string): void {
  const walk = (path: string) => {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return;
    if (st.isDirectory()) {
      if ((st.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if ((st.mode & 0o777) !== 0o600) chmodSync(path, 0o600);
  };
  walk(dir);
}

/**
 * Creates `dir` if needed (0700) and takes it for this process: an embedded store must be
 * opened by one process at a time, or the second one's acknowledged writes are lost. The lock is
 * `<dir>/baton.lock` with the holder's pid and start time; a lock left by a dead process is taken
 * over. Throws {@link DataDirBusy}, naming the holder, when a live process holds it. Sets the
 * process umask to 077 (where the runtime allows) so the store's files are created 0600.
 */
export function lockDataDir(dir: string, command: string): DataDirLock {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    process.umask(0o077);
  } catch {
    // Worker threads cannot change the umask; makePrivate below and at release covers them.
  }
  makePrivate(dir);
  const path = join(dir, lockName);
  const holder: LockHolder = { pid: process.pid, startTicks: startTicks(process.pid), command, since: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, JSON.stringify(holder));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const other = readHolder(path);
      if (other && alive(other)) throw new DataDirBusy(dir, other);
      if (attempt > 2) throw new DataDirBusy(dir, other ?? { pid: 0, command: "an unknown process", since: "?" });
      // A dead holder, or a lock torn by a crash while being written: take it over.
      rmSync(path, { force: true });
    }
  }
  let released = false;
  return {
    dir,
    setUrl(url) {
      if (!released) writeFileSync(path, JSON.stringify({ ...holder, url }), { mode: 0o600 });
    },
    release() {
      if (released) return;
      released = true;
      try {
        makePrivate(dir);
      } catch {
        // A directory removed under us has nothing left to protect.
      }
      // Only our own lock: never remove one another process took over.
      if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true });
    },
  };
}
