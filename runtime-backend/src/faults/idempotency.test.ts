import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService, SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { type BackendProcess, restartTimeoutMs, startBackendProcess } from "@baton/cli/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptProvider } from "../providers/script.js";
import { type HostileRig, startHostileRig } from "../testing/hostile-backend.js";
import { tempDirs } from "../testing/temp-dirs.js";

// Issue 18, hole 8: a user message retried with its idempotency_key after the server died
// mid-turn was refused (failed_precondition) instead of resumed, and a key reused for another
// message (or another session) was silently answered with the first one's result.

const dirs = tempDirs("baton-idem-");
let rig: HostileRig;

beforeAll(async () => {
  const model = new ScriptProvider({ turns: [{ text: "Noted." }], loopFrom: 0 });
  rig = await startHostileRig({ providers: { s: model } });
});

afterAll(async () => {
  await rig?.close();
  dirs.removeAll();
});

function userStep(sessionId: string, text: string, key: string) {
  return { sessionId, idempotencyKey: key, input: { case: "userMessage" as const, value: { text } } };
}

describe("idempotency keys", () => {
  it("answer a retried message with the stored answer, and refuse a key reused for another message, naming it", async () => {
    const c = rig.client(rig.alice);
    const { session } = await c.createSession({ task: "", model: "s:m" });
    const first = await c.step(userStep(session!.id, "hello", "k-1"));
    const again = await c.step(userStep(session!.id, "hello", "k-1"));
    expect(again).toEqual(first);
    const err = await c.step(userStep(session!.id, "something else", "k-1")).catch((e: unknown) => ConnectError.from(e));
    expect(err).toMatchObject({ code: Code.AlreadyExists });
    expect((err as ConnectError).rawMessage).toContain('idempotency_key "k-1"');
    // Nothing was applied for the refused one: one user message in the history.
    const history = (await c.getSession({ sessionId: session!.id })).history;
    expect(history.filter((h) => h.entry.case === "userMessage").map((h) => (h.entry.case === "userMessage" ? h.entry.value.text : ""))).toEqual(["hello"]);
  });

  it("return the same session for a retried CreateSession and refuse the key for another session", async () => {
    const c = rig.client(rig.alice);
    const a = await c.createSession({ task: "book a table", model: "s:m", idempotencyKey: "create-1" });
    const b = await c.createSession({ task: "book a table", model: "s:m", idempotencyKey: "create-1" });
    expect(b.session?.id).toBe(a.session?.id);
    const err = await c.createSession({ task: "cancel the table", model: "s:m", idempotencyKey: "create-1" }).catch((e: unknown) => ConnectError.from(e));
    expect(err).toMatchObject({ code: Code.AlreadyExists });
    expect((err as ConnectError).rawMessage).toContain('idempotency_key "create-1"');
  });
});

describe("a user message retried after the server died mid-turn", () => {
  let p: BackendProcess | undefined;
  afterAll(async () => {
    await p?.kill("SIGKILL");
  });

  it("resumes the step it started, once, instead of refusing it", async () => {
    const dir = dirs.fresh();
    // The first model call is slow, so the kill lands inside it; the message is applied by then.
    writeFileSync(join(dir, "slow.json"), JSON.stringify({ turns: [{ text: "Working.", delayMs: 4_000 }, { calls: [{ name: "done", args: { answer: "done once" } }] }] }));
    const token = "bt_idem_crash_token_0123456789abc";
    const args = ["--data-dir", join(dir, "data"), "--script-dir", dir];
    const auth: Interceptor = (next) => (req) => {
      req.header.set("authorization", `Bearer ${token}`);
      return next(req);
    };
    const clientOf = (url: string) => createClient(AgentService, createConnectTransport({ baseUrl: url, httpVersion: "1.1", interceptors: [auth] }));
    p = await startBackendProcess(args, { BATON_API_TOKEN: token });
    let c = clientOf(p.url);
    const { session } = await c.createSession({ task: "", model: "script:slow.json" });
    const lost = c.step(userStep(session!.id, "please do it", "msg-7")).catch((e: unknown) => e);
    await expect.poll(async () => (await c.getSession({ sessionId: session!.id })).session?.status, { timeout: 10_000 }).toBe(SessionStatus.RUNNING);
    await p.kill("SIGKILL");
    expect(await lost).toBeInstanceOf(Error);

    p = await startBackendProcess(args, { BATON_API_TOKEN: token });
    c = clientOf(p.url);
    const retried = await c.step(userStep(session!.id, "please do it", "msg-7"));
    expect(retried.session?.status).toBe(SessionStatus.IDLE);
    const got = await c.getSession({ sessionId: session!.id });
    expect(got.history.filter((h) => h.entry.case === "userMessage")).toHaveLength(1);
    // Retried again: the stored answer of the resumed step.
    expect(await c.step(userStep(session!.id, "please do it", "msg-7"))).toEqual(retried);
  }, restartTimeoutMs);
});
