import { describe, expect, it } from "vitest";
import { keyDef, parseChord } from "./keys.js";

describe("key names", () => {
  it("takes a space as the space bar, alone and in a chord, as it takes Space", () => {
    expect(parseChord(" ")).toEqual([" "]);
    expect(parseChord("Shift+ ")).toEqual(["Shift", " "]);
    expect(keyDef(" ")).toEqual(keyDef("Space"));
    expect(keyDef(" ")?.code).toBe("Space");
  });

  it("keeps the plus key and refuses an empty part", () => {
    expect(parseChord("+")).toEqual(["+"]);
    expect(parseChord("Control++")).toEqual(["Control", "+"]);
    expect(parseChord("Control+")).toBeUndefined();
    expect(parseChord("")).toBeUndefined();
  });
});
