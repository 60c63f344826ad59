import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { backoffMs, isRetryable } from "./retry.js";

describe("isRetryable", () => {
  it.each([
    [new ConnectError("upstream down", Code.Unavailable), true],
    [new ConnectError("deadline", Code.DeadlineExceeded), true],
    [new ConnectError("a step is already running", Code.Aborted), true],
    [new ConnectError("terminated", Code.Unknown), true],
    [new ConnectError("fetch failed", Code.Unknown), true],
    [new ConnectError("read ECONNRESET", Code.Internal), true],
    [new TypeError("Failed to fetch"), true],
    [new ConnectError("missing bearer token", Code.Unauthenticated), false],
    [new ConnectError("session is COMPLETED", Code.FailedPrecondition), false],
    [new ConnectError("user_message.text is empty", Code.InvalidArgument), false],
    [new ConnectError("boom", Code.Internal), false],
  ])("%s → %s", (e, expected) => {
    expect(isRetryable(e)).toBe(expected);
  });
});

describe("backoffMs", () => {
  it("grows with the attempt and stays within the cap", () => {
    const o = { attempts: 6, baseMs: 100, maxMs: 1000 };
    for (let attempt = 1; attempt <= 8; attempt++) {
      for (let i = 0; i < 50; i++) {
        const d = backoffMs(attempt, o);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.min(1000, 100 * 2 ** (attempt - 1)));
      }
    }
  });
});
