import { describe, expect, it } from "vitest";
import { PauseGate } from "./pause-gate.js";

describe("PauseGate", () => {
  it("passes when not paused, holds while paused and releases on resume", async () => {
    const gate = new PauseGate();
    const seen: (string | undefined)[] = [];
    gate.onChange((r) => seen.push(r));
    await gate.wait(new AbortController().signal);
    gate.pause("debugger cancelled");
    gate.pause("second reason");
    let passed = false;
    const waiting = gate.wait(new AbortController().signal).then(() => (passed = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(passed).toBe(false);
    expect(gate.reason).toBe("debugger cancelled");
    gate.resume();
    await waiting;
    expect(passed).toBe(true);
    expect(seen).toEqual(["debugger cancelled", undefined]);
  });

  it("rejects a waiting call when the run is stopped", async () => {
    const gate = new PauseGate();
    gate.pause("debugger cancelled");
    const stop = new AbortController();
    const waiting = gate.wait(stop.signal);
    stop.abort(new Error("stopped by the user"));
    await expect(waiting).rejects.toThrow("stopped by the user");
  });
});
