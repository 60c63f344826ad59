import { describe, expect, it } from "vitest";
import { UsageError } from "../command/args.js";
import { budgetFromArg } from "./budget-arg.js";

describe("baton run --budget", () => {
  it("reads any of tokens, cost and time, in any order", () => {
    expect(budgetFromArg(undefined)).toBeUndefined();
    expect(budgetFromArg("tokens=200000,cost=0.50,time=10m")).toEqual({ tokens: 200_000, costUsd: 0.5, seconds: 600 });
    expect(budgetFromArg("time=1h30m, cost=$2")).toEqual({ seconds: 5400, costUsd: 2 });
    expect(budgetFromArg("tokens=1_000_000")).toEqual({ tokens: 1_000_000 });
    expect(budgetFromArg("time=90")).toEqual({ seconds: 90 });
    expect(budgetFromArg("time=45s")).toEqual({ seconds: 45 });
  });

  it("says what is wrong with a ceiling, and what would do", () => {
    const cases: [string | boolean, string][] = [
      [true, "--budget needs a ceiling, such as --budget tokens=200000,cost=0.50,time=10m"],
      ["tokens=lots", "--budget tokens=lots: give a whole number of tokens (input and output), such as tokens=200000"],
      ["tokens=0", "--budget tokens=0: give a whole number of tokens"],
      ["cost=-1", "--budget cost=-1: give US dollars, such as cost=0.50"],
      ["cost=0", "--budget cost=0: give US dollars"],
      ["time=soon", "--budget time=soon: give a duration, such as time=90s, time=15m or time=1h30m"],
      ["time=0s", "--budget time=0s: give a duration"],
      ["steps=5", "--budget steps=5: the ceilings are tokens=, cost= and time="],
    ];
    for (const [value, message] of cases) {
      expect(() => budgetFromArg(value)).toThrow(UsageError);
      expect(() => budgetFromArg(value)).toThrow(message);
    }
  });
});
