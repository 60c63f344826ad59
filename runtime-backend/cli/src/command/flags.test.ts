import { describe, expect, it } from "vitest";
import { main } from "../main.js";

/**
 * A mistyped flag must stop a command before it does anything: `baton token create bob
 * --data-dri DIR` used to create the token in ./.data, and `baton serve --data-dri DIR` to serve
 * it. Every command refuses a flag it does not know, with exit 2 and a line naming it.
 */
describe("every command refuses a flag it does not know (exit 2, nothing done)", () => {
  it.each([
    ["serve", ["serve", "--data-dri", "/tmp/x"]],
    ["token", ["token", "create", "bob", "--data-dri", "/tmp/x"]],
    ["user", ["user", "create", "bob", "--data-dri", "/tmp/x"]],
    ["doctor", ["doctor", "--data-dri", "/tmp/x"]],
    ["login", ["login", "--backnd", "http://127.0.0.1:1"]],
    ["mcp", ["mcp", "--data-dri", "/tmp/x"]],
    // These two print through their own process streams (their tests read the line).
    ["run", ["run", "a task", "--data-dri", "/tmp/x"]],
    ["eval", ["eval", "--data-dri", "/tmp/x"]],
  ])("baton %s", async (command, argv) => {
    let stdout = "";
    let stderr = "";
    const code = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
    expect(code).toBe(2);
    if (command !== "run" && command !== "eval") expect(stderr).toMatch(/unknown option --(data-dri|backnd)\b/);
    expect(stdout).toBe("");
  });
});
