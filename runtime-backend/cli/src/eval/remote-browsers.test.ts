/**
 * `baton eval --cdp-url` over two remote browsers: Chromium processes started the way a grid
 * or another host would run them (only `--remote-debugging-port`, headless, their own profile;
 * none of Baton's launch switches), one given as `http://host:port`, the other as its `ws://`
 * endpoint. Tasks of the built-in suite run on both and pass, each in a browser context that
 * is gone afterwards; a dead endpoint and `--via extension` get clear errors.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findChromium, WebSocketTransport } from "@baton/sdk/node";
import { recordingDeps as deps } from "@baton/backend/testing/command-deps";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evalCommand, evalExitCodes } from "./eval-command.js";
import { readReport } from "./report.js";

const dir = mkdtempSync(join(tmpdir(), "baton-eval-remote-"));

interface RemoteChromium {
  readonly http: string;
  readonly ws: string;
  readonly process: ChildProcess;
}

/** A Chromium with remote debugging on a free port, its endpoints read from DevToolsActivePort. */
async function startRemote(name: string): Promise<RemoteChromium> {
  const profile = join(dir, name);
  const child = spawn(findChromium().path, ["--headless", "--no-sandbox", "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"], { stdio: "ignore" });
  for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    let lines: string[];
    try {
      lines = readFileSync(join(profile, "DevToolsActivePort"), "utf8").split("\n");
    } catch {
      continue;
    }
    if (lines[1]) return { http: `http://127.0.0.1:${lines[0]}`, ws: `ws://127.0.0.1:${lines[0]}${lines[1]}`, process: child };
  }
  child.kill("SIGKILL");
  throw new Error(`${name} wrote no DevToolsActivePort`);
}

describe("baton eval over remote browsers", () => {
  const remotes: RemoteChromium[] = [];
  beforeAll(async () => {
    remotes.push(...(await Promise.all([startRemote("a"), startRemote("b")])));
  });
  afterAll(async () => {
    // Each browser is gone before its profile is removed (a dying one still writes there), and
    // its helper processes may outlive it by a moment: the removal retries.
    await Promise.all(
      remotes.map((r) =>
        r.process.exitCode !== null || r.process.signalCode !== null
          ? undefined
          : new Promise((gone) => {
              r.process.once("exit", gone);
              r.process.kill("SIGKILL");
            }),
      ),
    );
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it("spreads the lanes over two --cdp-url browsers, every run in its own context, and passes", { timeout: 300_000 }, async () => {
    const [a, b] = remotes as [RemoteChromium, RemoteChromium];
    const out = join(dir, "remote.jsonl");
    const d = deps();
    // live/ten-boards holds an event stream open per page: it passes only with left pages out of
    // the back/forward cache, which a remote browser was not started to do.
    const tasks = "shop/coupon,live/ten-boards";
    const code = await evalCommand(["--filter", tasks, "--cdp-url", a.http, "--cdp-url", b.ws, "--data-dir", join(dir, "store"), "--out", out], d);
    const rows = readReport(out);
    expect(rows.filter((r) => r.verdict !== "pass").map((r) => `${r.task}: ${r.failed_check}: ${r.reason}`)).toEqual([]);
    expect(code).toBe(evalExitCodes.ok);
    expect(rows.map((r) => r.task).sort()).toEqual(tasks.split(",").sort());
    // One lane per endpoint by default, and each took runs.
    expect(d.output()).toContain("concurrency 2");
    expect(new Set(rows.map((r) => r.browser))).toEqual(new Set([a.http, b.ws]));
    // Said once, naming both, with what a remote browser is not held to.
    expect(d.errors().match(/attached to/g)).toHaveLength(1);
    expect(d.errors()).toContain(`${a.http}, ${b.ws}`);
    expect(d.errors()).toMatch(/not held: WebSockets/);
    // Every run's context was disposed, and the browsers are still up.
    for (const r of [a, b]) {
      const t = await WebSocketTransport.connect(r.ws);
      const { browserContextIds } = await t.send<{ browserContextIds: string[] }>("Target.getBrowserContexts");
      await t.close();
      expect(browserContextIds).toEqual([]);
    }
  });

  it("names a dead endpoint before anything runs, and refuses --cdp-url with --via extension or --headed", async () => {
    const dead = deps();
    expect(await evalCommand(["--filter", "shop/coupon", "--cdp-url", (remotes[0] as RemoteChromium).http, "--cdp-url", "http://127.0.0.1:9", "--data-dir", join(dir, "store"), "--out", join(dir, "dead.jsonl")], dead)).toBe(evalExitCodes.unavailable);
    expect(dead.errors()).toMatch(/the browser at http:\/\/127\.0\.0\.1:9 did not answer/);
    const extension = deps();
    expect(await evalCommand(["--via", "extension", "--cdp-url", "http://127.0.0.1:9222"], extension)).toBe(evalExitCodes.usage);
    expect(extension.errors()).toContain("--cdp-url goes with --via headless");
    const headed = deps();
    expect(await evalCommand(["--headed", "--cdp-url", "http://127.0.0.1:9222"], headed)).toBe(evalExitCodes.usage);
    const bad = deps();
    expect(await evalCommand(["--cdp-url", "127.0.0.1:9222"], bad)).toBe(evalExitCodes.usage);
    expect(bad.errors()).toContain("--cdp-url needs a ws:// or http:// URL");
  });
});
