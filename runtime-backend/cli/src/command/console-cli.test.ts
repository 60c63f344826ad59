/**
 * The console's commands: `baton user create|link` on a store (and refused, with what to do,
 * while a server holds it), and `baton login` linking this machine through a real backend's
 * device link, approved in the console, with the token saved for `baton run --backend`; and
 * `baton run` against a backend whose daily quota stops the session, saying why.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService } from "@baton/gen/baton/v1/agent_pb";
import { createModelResolver, ScriptProvider } from "@baton/backend/providers";
import { type Backend, startBackend } from "@baton/backend/server";
import { consoleClient } from "@baton/backend/testing/console-client";
import { createSignInCode, ensureUser, issueToken } from "@baton/backend/store";
import { parseArgs } from "./args.js";
import { credentialsFile, savedLogin } from "./credentials.js";
import { loginCommand } from "./login-command.js";
import { exitCodes, type RunDeps, runCommand } from "../run/run-command.js";
import { userCommand } from "./user-command.js";

const dirs: string[] = [];
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), "baton-console-cli-"));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function io() {
  let out = "";
  let err = "";
  return { io: { stdout: (t: string) => void (out += t), stderr: (t: string) => void (err += t) }, out: () => out, err: () => err };
}

const model = () => ({ provider: new ScriptProvider({ turns: [] }), model: "m" });

describe("baton user", () => {
  it("creates a user with a one-time link that signs them in, and makes new links", async () => {
    const dataDir = temp();
    const a = io();
    expect(await userCommand(["create", "grace", "--name", "Grace Hopper", "--data-dir", dataDir], a.io, {})).toBe(0);
    const link = /http:\/\/127\.0\.0\.1:8787\/sign-in#(si_[\w-]+)/.exec(a.out())?.[1] ?? "";
    expect(link).not.toBe("");
    const again = io();
    expect(await userCommand(["create", "grace", "--data-dir", dataDir], again.io, {})).toBe(1);
    expect(again.err()).toMatch(/already exists/);
    const b = io();
    expect(await userCommand(["link", "grace", "--data-dir", dataDir, "--url", "https://baton.example.com/"], b.io, {})).toBe(0);
    expect(b.out()).toMatch(/^One-time sign-in link \(until .* UTC\):\nhttps:\/\/baton\.example\.com\/sign-in#si_/);
    expect(await userCommand(["link", "nobody", "--data-dir", dataDir], io().io, {})).toBe(1);
    expect(await userCommand(["create", "no spaces", "--data-dir", dataDir], io().io, {})).toBe(2);

    const backend = await startBackend({ port: 0, dataDir, resolveModel: model });
    try {
      // While the server holds the store, the command says what to do instead.
      const busy = io();
      expect(await userCommand(["link", "grace", "--data-dir", dataDir], busy.io, {})).toBe(1);
      expect(busy.err()).toMatch(/console \(Users\)/);
      const c = consoleClient(backend.server.url);
      await c.signIn(link);
      expect((await c.console.getAccount({})).account).toMatchObject({ userId: "grace", name: "Grace Hopper", admin: false });
    } finally {
      await backend.close();
    }
  }, 180_000); // three embedded stores opened in turn: 30 s alone, over a minute at load 25
});

describe("baton login", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startBackend({ port: 0, resolveModel: model });
    await ensureUser(backend.db, "ada");
  });
  afterAll(() => backend?.close());

  it("links this machine through the console and saves a token bound to it", async () => {
    const env = { XDG_CONFIG_HOME: temp() };
    {
      const ada = consoleClient(backend.server.url);
      await ada.signIn((await createSignInCode(backend.db, "ada", 60_000)).code);
      const out = io();
      // The user approves the link the command printed, as they would in the browser.
      const approve = (async () => {
        for (let i = 0; i < 200; i++) {
          const id = /\/link\/(dl_[\w-]+)/.exec(out.out())?.[1];
          if (id) {
            const { link } = await ada.console.getDeviceLink({ linkId: id });
            expect(out.out()).toContain(link?.userCode);
            await ada.console.decideDeviceLink({ linkId: id, approve: true });
            return;
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const code = await loginCommand(parseArgs(["--backend", backend.server.url, "--name", "CI box"]), out.io, { env, sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 50))) });
      await approve;
      expect(code, out.err()).toBe(0);
      expect(out.out()).toMatch(/Linked as ada \("CI box"\)/);
      expect(statSync(credentialsFile(env)).mode & 0o777).toBe(0o600);
      const saved = savedLogin(`${backend.server.url}/`, env);
      expect(saved?.userId).toBe("ada");
      expect(JSON.parse(readFileSync(credentialsFile(env), "utf8"))[backend.server.url].token).toBe(saved?.token);
      const agent = createClient(
        AgentService,
        createConnectTransport({ baseUrl: backend.server.url, httpVersion: "1.1", interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${saved?.token}`), next(req))] }),
      );
      expect((await agent.listPlaybooks({})).playbooks).toEqual([]);
      const tokens = (await ada.console.listTokens({})).tokens;
      expect(tokens.find((t) => t.id === saved?.tokenId)).toMatchObject({ name: "CI box", source: "device-link", device: "CI box · baton-cli" });
    }
  });

  it("says so when the link is denied, and saves nothing", async () => {
    const env = { XDG_CONFIG_HOME: temp() };
    {
      const ada = consoleClient(backend.server.url);
      await ada.signIn((await createSignInCode(backend.db, "ada", 60_000)).code);
      const out = io();
      const deny = (async () => {
        for (let i = 0; i < 200; i++) {
          const id = /\/link\/(dl_[\w-]+)/.exec(out.out())?.[1];
          if (id) return ada.console.decideDeviceLink({ linkId: id, approve: false });
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      expect(await loginCommand(parseArgs(["--backend", backend.server.url]), out.io, { env, sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 50))) })).toBe(1);
      await deny;
      expect(out.err()).toMatch(/the link was denied; nothing was saved/);
      expect(savedLogin(backend.server.url, env)).toBeUndefined();
    }
  });
});

describe("a daily quota, seen from baton run", () => {
  it("stops the run before the model call past the quota, and the CLI says why", async () => {
    const scripts = temp();
    writeFileSync(join(scripts, "busy.json"), JSON.stringify({ turns: [{ calls: [{ name: "search_user_memory", args: { query: "seat preference" } }] }], loopFrom: 0 }));
    const backend = await startBackend({ port: 0, resolveModel: createModelResolver({ BATON_SCRIPT_DIR: scripts }) });
    try {
      await ensureUser(backend.db, "ada");
      await backend.quotas.set("ada", { dailySteps: 2, dailyCostUsd: 0 });
      const { token } = await issueToken(backend.db, "ada", { name: "run" });
      let out = "";
      let err = "";
      const deps: RunDeps = {
        out: { write: (t: string) => void (out += t) },
        err: { write: (t: string) => void (err += t) },
        env: {},
        ask: async () => undefined,
        onInterrupt: () => () => undefined,
      };
      const code = await runCommand(["Remember my seat preference", "--backend", backend.server.url, "--token", token, "--model", "script:busy.json", "--yes"], deps);
      expect(code, `${out}\n${err}`).toBe(exitCodes.failed);
      expect(err).toMatch(/baton run: failed: Daily quota reached: 2 of 2 model calls used today\. The quota resets at \d{4}-\d\d-\d\d 00:00 UTC/);
      expect(out).toMatch(/✗ Failed after \d step\(s\): Daily quota reached/);
    } finally {
      await backend.close();
    }
  }, 180_000);
});
