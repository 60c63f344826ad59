import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDirs } from "../testing/temp-dirs.js";
import { encodeRecord, JournalWriter, recordTexts, removeSegments, scanJournal } from "./journal-file.js";

const { fresh, removeAll } = tempDirs("baton-journal-");
afterEach(removeAll);

describe("the commit journal's files", () => {
  it("reads back every record it wrote, in order, with its texts whole (any UTF-8)", () => {
    const dir = fresh();
    const w = new JournalWriter(dir);
    for (let seq = 1; seq <= 20; seq++) w.append(encodeRecord(seq, [`ses_${seq}`, `{"a":"é ${seq} 🦊"}`, "", "x"]));
    w.close(false);
    const scan = scanJournal(dir);
    expect(scan.tornBytes).toBe(0);
    expect(scan.lastSeq).toBe(20);
    expect(scan.records.map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(recordTexts(scan.records[6]!)).toEqual(["ses_7", '{"a":"é 7 🦊"}', "", "x"]);
  });

  it("starts new segments past the size limit and deletes the ones whose records are all applied", () => {
    const dir = fresh();
    const w = new JournalWriter(dir, 1024);
    for (let seq = 1; seq <= 30; seq++) w.append(encodeRecord(seq, ["y".repeat(200)]));
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
    for (let seq = 1; seq <= 3; seq++) w.append(encodeRecord(seq, ["z"]));
    w.close(false);
    const [seg] = readdirSync(dir);
    const path = join(dir, seg!);
    const whole = readFileSync(path);
    const fourth = encodeRecord(4, ["torn"]).bytes;
    appendFileSync(path, fourth.subarray(0, fourth.length - 3));
    const torn = scanJournal(dir);
    expect(torn.records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(torn.tornBytes).toBe(fourth.length - 3);

    // A flipped byte in record 2 of an earlier segment, with a later segment after it.
    const damaged = Buffer.from(whole);
    damaged[damaged.length - 20] = (damaged[damaged.length - 20] ?? 0) ^ 0xff;
    writeFileSync(path, damaged);
    const later = new JournalWriter(dir);
    later.append(encodeRecord(10, ["later"]));
    later.close(false);
    expect(() => scanJournal(dir)).toThrow(/damaged at byte \d+/);
    removeSegments(dir);
    expect(readdirSync(dir)).toEqual([]);
  });
});
