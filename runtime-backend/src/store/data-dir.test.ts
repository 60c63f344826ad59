import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDirs } from "../testing/temp-dirs.js";
import { refuseOldJournal } from "./data-dir.js";

const dirs = tempDirs("baton-old-journal-");
afterAll(dirs.removeAll);

describe("a data directory from the version with the turn journal", () => {
  it("is refused while its journal holds turns, naming the way out; an empty journal is not", () => {
    const dir = dirs.fresh();
    refuseOldJournal(dir);
    mkdirSync(join(dir, "baton_journal"));
    // A segment holding only its 8-byte header (what a clean stop leaves, if anything).
    writeFileSync(join(dir, "baton_journal", "0000000000000001.jnl"), "BATONJ01");
    refuseOldJournal(dir);
    writeFileSync(join(dir, "baton_journal", "0000000000000002.jnl"), "BATONJ01 and a record");
    expect(() => refuseOldJournal(dir)).toThrow(/0000000000000002\.jnl.*stop it cleanly/);
  });
});
