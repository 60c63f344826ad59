import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { parseScriptFile, type ScriptFile, ScriptFileError } from "@baton/sdk/script";

/** The largest script file the backend reads (a script is a few KB; benchmarks loop). */
export const maxScriptBytes = 2 * 1024 * 1024;

/**
 * A script model that cannot be used: the client named a file that is not a readable script
 * inside the operator's script directory. The message never quotes the file (it could be any
 * file the process can read if the path checks were wrong) nor the directory's location.
 */
export class ScriptModelError extends Error {
  override readonly name = "ScriptModelError";
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

/**
 * Reads the script `name` — a name inside `dir`, or an absolute path inside it: `script:NAME`
 * means that on every surface (`baton serve --script-dir`, `baton run`, the extension's panel,
 * `baton eval`) — without blocking
 * and without trusting the path: it must resolve, symlinks followed, to a regular file inside
 * `dir` of at most {@link maxScriptBytes}. Opened non-blocking, so a FIFO cannot stall the event
 * loop; the size is checked on the open handle and the read is capped, so `/dev/zero`-like files
 * cannot grow memory.
 */
export async function readScriptModel(dir: string, name: string): Promise<ScriptFile> {
  const label = JSON.stringify(name);
  if (!name || name.includes("\0")) throw new ScriptModelError(`script model ${label}: give a file name inside the script directory`);
  const root = await realpath(dir).catch(() => {
    throw new ScriptModelError("script models are misconfigured: the script directory does not exist");
  });
  // An absolute path may spell the directory as the operator gave it (through a symlink, say)
  // or as it really is: both name the same file inside it.
  const given = resolve(dir);
  const wanted = isAbsolute(name) && inside(given, resolve(name)) ? resolve(root, relative(given, resolve(name))) : resolve(root, name);
  if (!inside(root, wanted)) throw new ScriptModelError(`script model ${label}: only files inside the script directory may be used`);
  let real: string;
  try {
    real = await realpath(wanted);
  } catch {
    throw new ScriptModelError(`script model ${label}: no such file in the script directory`);
  }
  if (!inside(root, real)) throw new ScriptModelError(`script model ${label}: only files inside the script directory may be used`);
  const fh = await open(real, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => {
    throw new ScriptModelError(`script model ${label}: the file cannot be read`);
  });
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new ScriptModelError(`script model ${label}: not a regular file`);
    if (st.size > maxScriptBytes) throw new ScriptModelError(`script model ${label}: larger than ${maxScriptBytes} bytes`);
    const buf = Buffer.alloc(Math.min(st.size, maxScriptBytes) + 1);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    if (bytesRead > maxScriptBytes) throw new ScriptModelError(`script model ${label}: larger than ${maxScriptBytes} bytes`);
    try {
      return parseScriptFile(buf.subarray(0, bytesRead).toString("utf8"), name);
    } catch (e) {
      // parseScriptFile names the path inside the file and never quotes its text.
      if (e instanceof ScriptFileError) throw new ScriptModelError(`script model ${e.message}`);
      throw e;
    }
  } finally {
    await fh.close();
  }
}
