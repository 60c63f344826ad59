import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "../command/args.js";
import { plan } from "./run-plan.js";

const login = resolve("examples/scripts/login.json");

describe("baton run --script: the script model's name", () => {
  it("is the file's name inside its folder, which the run's own backend reads scripts from", () => {
    const p = plan(parseArgs(["Sign in", "--script", "examples/scripts/login.json"]), {});
    expect(p.model).toBe("script:login.json");
    expect(p.scriptDir).toBe(resolve("examples/scripts"));
  });

  it("is the file's absolute path for a running backend, which accepts it inside its own script directory", () => {
    const p = plan(parseArgs(["Sign in", "--script", join("examples", "scripts", "login.json"), "--backend", "http://127.0.0.1:8787"]), {});
    expect(p.model).toBe(`script:${login}`);
    expect(p.scriptDir).toBeUndefined();
  });
});
