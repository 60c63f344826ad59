import { execFile } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService } from "@baton/gen/baton/v1/agent_pb";
import { batonScript, restartTimeoutMs, startBackendProcess } from "@baton/cli/testing";
import { afterAll, describe, expect, it } from "vitest";
import { tempDirs } from "../testing/temp-dirs.js";

// Issue 18, holes 2 and 5: a second process on one embedded data directory used to start and
// acknowledge writes that a restart then lost, `baton token create` printed a token the running
// server never saw, and the store's files (typed passwords in the journal and WAL) were
// readable by every local user.

const dirs = tempDirs("baton-data-dir-");
const token = "bt_datadir_test_token_0123456789";

afterAll(() => dirs.removeAll());

function client(url: string) {
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  return createClient(AgentService, createConnectTransport({ baseUrl: url, httpVersion: "1.1", interceptors: [auth] }));
}

/** Every path under `dir` whose mode is not private (0700 directories, 0600 files). */
function notPrivate(dir: string): string[] {
  const bad: string[] = [];
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    const want = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o777) !== want) bad.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
  };
  walk(dir);
  return bad;
}

describe("one process per embedded data directory", () => {
  it("refuses a second server and a token behind the server's back, naming the holder; a dead holder's lock is taken over", async () => {
    const data = join(dirs.fresh(), "data");
    const first = await startBackendProcess(["--data-dir", data], { BATON_API_TOKEN: token });
    try {
      const second = await startBackendProcess(["--data-dir", data], { BATON_API_TOKEN: token }).then(
        (p) => p,
        (e: unknown) => e as Error,
      );
      expect(second).toBeInstanceOf(Error);
      const message = (second as Error).message;
      expect(message).toContain(`in use by baton serve (pid ${first.child.pid}, serving ${first.url}`);
      // The first server is untouched and still answers.
      expect((await client(first.url).listPlaybooks({})).playbooks).toEqual([]);

      const tokenRun = await promisify(execFile)(process.execPath, [batonScript, "token", "create", "eve", "--data-dir", data]).then(
        () => undefined,
        (e: unknown) => e as { code: number; stdout: string; stderr: string },
      );
      expect(tokenRun?.code).toBe(1);
      expect(tokenRun?.stdout).toBe("");
      expect(tokenRun?.stderr).toContain(`pid ${first.child.pid}`);
      expect(tokenRun?.stderr).toMatch(/BATON_API_TOKEN/);
    } finally {
      await first.kill("SIGKILL");
    }
    // The holder died without releasing: the next server takes over its lock.
    const third = await startBackendProcess(["--data-dir", data], { BATON_API_TOKEN: token });
    try {
      expect((await client(third.url).listPlaybooks({})).playbooks).toEqual([]);
    } finally {
      await third.kill("SIGTERM");
    }
  }, restartTimeoutMs);
});

describe("the data directory is private", () => {
  it("is 0700 with 0600 files, also when it existed with open modes, after writes and a restart", async () => {
    const root = dirs.fresh();
    const data = join(root, "data");
    mkdirSync(data, { mode: 0o755 });
    chmodSync(data, 0o755);
    writeFileSync(join(data, "notes.txt"), "left by an older version", { mode: 0o644 });
    writeFileSync(join(root, "s.json"), JSON.stringify({ turns: [{ calls: [{ name: "type_text", args: { ref: "e1", text: "hunter2" } }] }] }));
    const p = await startBackendProcess(["--data-dir", data, "--script-dir", root], { BATON_API_TOKEN: token });
    try {
      const c = client(p.url);
      await c.createPlaybook({ playbook: { name: "p", instructions: "secret-ish instructions" } });
      // A model turn: the typed text is in the database's files now.
      const { session } = await c.createSession({ task: "type my password", model: "script:s.json" });
      const r = await c.step({ sessionId: session!.id });
      expect(r.messages.some((m) => m.content.case === "functionCall")).toBe(true);
      expect(notPrivate(data)).toEqual([]);
    } finally {
      await p.kill("SIGTERM");
    }
    expect(notPrivate(data)).toEqual([]);
  }, restartTimeoutMs);
});
