import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";

/**
 * The commit journal's files (`commit-journal.ts`): numbered records appended to segment
 * files, a record durable once its `write(2)` returns — the guarantee the embedded engine
 * itself gives: a write in the OS page cache survives the process being killed, not the machine
 * losing power (PGlite does not fsync either; deployments that need that run Postgres).
 *
 * A segment is named after its first record's number and starts with an 8-byte magic. A
 * record is `u32 length, u32 crc32, payload`, the payload `f64 seq`, then `u32 byte length +
 * UTF-8 text` for each of the record's texts. A record cut short by a crash (only the last one
 * can be: writes are sequential, and a record counts only once its write returned) fails its
 * length or checksum and is dropped on reading.
 */

/** One journaled record: its number and its framed bytes. */
export interface JournalRecord {
  readonly seq: number;
  /** `u32 length, u32 crc32, payload`. */
  readonly bytes: Uint8Array;
}

/** Encodes a record of `texts`, written straight into its buffer. */
export function encodeRecord(seq: number, texts: readonly string[]): JournalRecord {
  let length = 8;
  for (const t of texts) length += 4 + Buffer.byteLength(t);
  const buf = Buffer.allocUnsafe(8 + length);
  buf.writeUInt32LE(length, 0);
  buf.writeDoubleLE(seq, 8);
  let at = 16;
  for (const t of texts) {
    const n = buf.write(t, at + 4);
    buf.writeUInt32LE(n, at);
    at += 4 + n;
  }
  buf.writeUInt32LE(crc32(buf.subarray(8)), 4);
  return { seq, bytes: buf };
}

/** The texts of a record, as {@link encodeRecord} was given them. */
export function recordTexts(r: JournalRecord): string[] {
  const b = Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
  const out: string[] = [];
  for (let at = 16; at < b.length; ) {
    const n = b.readUInt32LE(at);
    out.push(b.toString("utf8", at + 4, at + 4 + n));
    at += 4 + n;
  }
  return out;
}

const magic = Buffer.from("BATONC01");
const suffix = ".jnl";

/** What reading a journal found. */
export interface JournalScan {
  /** Every whole record, in order. */
  readonly records: JournalRecord[];
  /** Highest record number seen (0 for none). */
  readonly lastSeq: number;
  /** Bytes at the end of the last segment that did not form a whole record (a write cut short). */
  readonly tornBytes: number;
}

function segmentName(firstSeq: number): string {
  return `${String(firstSeq).padStart(16, "0")}${suffix}`;
}

function segments(dir: string): { name: string; first: number }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(suffix) && /^\d+$/.test(n.slice(0, -suffix.length)))
    .map((name) => ({ name, first: Number(name.slice(0, -suffix.length)) }))
    .sort((a, b) => a.first - b.first);
}

/**
 * Reads every segment in `dir`. A damaged record anywhere but at the end of the last segment
 * means the files were changed or the disk failed: that throws, naming the file and offset,
 * rather than skipping acknowledged commits.
 */
export function scanJournal(dir: string): JournalScan {
  const segs = segments(dir);
  const records: JournalRecord[] = [];
  let tornBytes = 0;
  segs.forEach((seg, i) => {
    const path = join(dir, seg.name);
    const buf = readFileSync(path);
    const last = i === segs.length - 1;
    if (buf.length < magic.length || !buf.subarray(0, magic.length).equals(magic)) {
      if (last && buf.length < magic.length) {
        tornBytes = buf.length;
        return;
      }
      throw new Error(`commit journal ${path} is not a journal segment (bad header)`);
    }
    let at = magic.length;
    while (at < buf.length) {
      const whole = at + 8 <= buf.length && at + 8 + buf.readUInt32LE(at) <= buf.length;
      const payload = whole ? buf.subarray(at + 8, at + 8 + buf.readUInt32LE(at)) : undefined;
      if (!payload || crc32(payload) !== buf.readUInt32LE(at + 4)) {
        if (!last) throw new Error(`commit journal ${path} is damaged at byte ${at}; later segments follow it, so it is not a cut-off write`);
        tornBytes = buf.length - at;
        break;
      }
      records.push({ seq: payload.readDoubleLE(0), bytes: buf.subarray(at, at + 8 + payload.length) });
      at += 8 + payload.length;
    }
  });
  return { records, lastSeq: records.reduce((m, r) => Math.max(m, r.seq), 0), tornBytes };
}

/** Appends records to the current segment, starting a new one past `maxSegmentBytes`. */
export class JournalWriter {
  private fd = -1;
  private size = 0;
  /** First record number of each segment this writer may still delete, oldest first (the last is the open one). */
  private readonly open: { name: string; first: number }[] = [];

  /**
   * @param dir the journal's directory (created if missing).
   * @param maxSegmentBytes size past which the next record starts a new segment.
   */
  constructor(
    private readonly dir: string,
    private readonly maxSegmentBytes = 16 * 2 ** 20,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Appends one record; it is durable (against a process crash) when this returns. */
  append(r: JournalRecord): void {
    if (this.fd < 0 || this.size >= this.maxSegmentBytes) this.startSegment(r.seq);
    let written = 0;
    while (written < r.bytes.length) written += writeSync(this.fd, r.bytes, written);
    this.size += r.bytes.length;
  }

  private startSegment(first: number): void {
    if (this.fd >= 0) closeSync(this.fd);
    const name = segmentName(first);
    this.fd = openSync(join(this.dir, name), "a");
    writeSync(this.fd, magic);
    this.size = magic.length;
    this.open.push({ name, first });
  }

  /** Deletes the segments whose every record is numbered `appliedSeq` or below (never the open one). */
  release(appliedSeq: number): void {
    while (this.open.length > 1 && (this.open[1]?.first ?? Infinity) - 1 <= appliedSeq) {
      const seg = this.open.shift();
      if (seg) rmSync(join(this.dir, seg.name), { force: true });
    }
  }

  /** Closes the open segment; with `removeAll`, deletes every segment in the directory (all applied). */
  close(removeAll: boolean): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    if (removeAll) removeSegments(this.dir);
    this.open.length = 0;
  }
}

/** Deletes every segment in `dir` (once their records are applied). */
export function removeSegments(dir: string): void {
  for (const s of segments(dir)) rmSync(join(dir, s.name), { force: true });
}
