import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureServer, startFixtureServer } from "../engine/fixtures/server.js";
import { snapshotCommand } from "./snapshot-command.js";

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await snapshotCommand(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe("baton snapshot", () => {
  it("prints the snapshot text of a URL", async () => {
    const r = await run([`${server.originA}/basic`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/e\d+ button "Save"/);
  });

  it("prints JSON with refs, boxes and stats", async () => {
    const r = await run([`${server.originA}/basic`, "--json", "--viewport", "800x600"]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as {
      title: string;
      refs: { ref: string; role: string; name: string; box: { width: number } }[];
      stats: { tokens: number; refCount: number; frameCount: number };
    };
    expect(json.title).toBe("Basic form");
    const save = json.refs.find((x) => x.name === "Save");
    expect(save?.role).toBe("button");
    expect(save?.box.width).toBeGreaterThan(0);
    expect(json.stats.refCount).toBe(4);
    expect(json.stats.tokens).toBeGreaterThan(0);
    expect(json.stats.frameCount).toBe(1);
  });

  it("refuses local files and the browser's own pages with the URL policy's reason, before dialling the browser", async () => {
    for (const url of ["file:///etc/hostname", "chrome://version/", "view-source:https://example.com/", "javascript:alert(1)"]) {
      // An unreachable browser: a refusal must come before any attempt to reach one.
      const r = await run([url, "--cdp-url", "ws://127.0.0.1:1/never-dialled"]);
      expect(r.code, url).toBe(2);
      expect(r.stdout, url).toBe("");
      expect(r.stderr, url).toContain(`cannot open ${url}: Only http and https pages (and about:blank) can be opened`);
    }
  });

  it("rejects bad arguments with usage and exit code 2", async () => {
    const r = await run(["--max-chars", "x"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("usage: baton snapshot");
  });
});
