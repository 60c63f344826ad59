import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDirs } from "../testing/temp-dirs.js";
import { encodeRecord, JournalWriter, removeSegments, scanJournal } from "./journal-file.js";

const { fresh, removeAll } = tempDirs("baton-journal-");
afterEach(removeAll);

/** The texts of a record as the worker reads them (f64 seq, then length-prefixed UTF-8). */
function texts(bytes: Uint8Array): string[] {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: string[] = [];
  for (let at = 16; at < b.length; ) {
    const n = b.readUInt32LE(at);
    out.push(b.toString("utf8", at + 4, at + 4 + n));
    at += 4 + n;
  }
  return out;
}

describe("the turn journal's files", () => {
  it("reads back every record it wrote, in order, with its texts whole (pieces joined, any UTF-8)", () => {
    const dir = fresh();
    const w = new JournalWriter(dir);
    for (let seq = 1; seq <= 20; seq++) w.append(encodeRecord(seq, `ses_${seq}`, [["{\"a\":", `"é ${seq} 🦊"`, "}"], [], ["x"]]));
    w.close(false);
    const scan = scanJournal(dir);
    expect(scan.tornBytes).toBe(0);
    expect(scan.lastSeq).toBe(20);
    expect(scan.records.map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(texts(scan.records[6]!.bytes)).toEqual(["ses_7", '{"a":"é 7 🦊"}', "", "x"]);
    // Each record is a buffer of its own, so it can be transferred to the worker.
    expect(scan.records[0]!.bytes.byteOffset).toBe(0);
    expect(scan.records[0]!.bytes.buffer.byteLength).toBe(scan.records[0]!.bytes.byteLength);
  });

  it("starts new segments past the size limit and deletes the ones whose records are all applied", () => {
    const dir = fresh();
    const w = new JournalWriter(dir, 1024);
    for (let seq = 1; seq <= 30; seq++) w.append(encodeRecord(seq, "s", [["y".repeat(200)]]));
    const before = readdirSync(dir).sort();
    const firsts = before.map((n) => Number(n.slice(0, 16)));
    expect(firsts.length).toBeGreaterThan(3);
    expect(firsts[0]).toBe(1);
    w.release(firsts[1]! - 2);
    expect(readdirSync(dir).sort()).toEqual(before);
    w.release(firsts[1]! - 1);
    expect(readdirSync(dir).sort()).toEqual(before.slice(1));
    w.release(30);
    // Never the open segment.
    expect(readdirSync(dir)).toEqual([before.at(-1)]);
    const last = firsts.at(-1)!;
    expect(scanJournal(dir).records.map((r) => r.seq)).toEqual(Array.from({ length: 31 - last }, (_, i) => last + i));
    w.close(true);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("drops a record cut short at the end (a crash mid-write) and refuses one damaged before later records", () => {
    const dir = fresh();
    const w = new JournalWriter(dir);
    for (let seq = 1; seq <= 3; seq++) w.append(encodeRecord(seq, "s", [["z"]]));
    w.close(false);
    const [seg] = readdirSync(dir);
    const path = join(dir, seg!);
    const whole = readFileSync(path);
    const fourth = encodeRecord(4, "s", [["torn"]]).bytes;
    appendFileSync(path, fourth.subarray(0, fourth.length - 3));
    const torn = scanJournal(dir);
    expect(torn.records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(torn.tornBytes).toBe(fourth.length - 3);

    // A flipped byte in record 2 of an earlier segment, with a later segment after it.
    const damaged = Buffer.from(whole);
    damaged[damaged.length - 20] = (damaged[damaged.length - 20] ?? 0) ^ 0xff;
    writeFileSync(path, damaged);
    const later = new JournalWriter(dir);
    later.append(encodeRecord(10, "s", [["later"]]));
    later.close(false);
    expect(() => scanJournal(dir)).toThrow(/damaged at byte \d+/);
    removeSegments(dir);
    expect(readdirSync(dir)).toEqual([]);
  });
});
