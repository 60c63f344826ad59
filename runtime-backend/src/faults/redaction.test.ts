import { Code, ConnectError } from "@connectrpc/connect";
import { LogLevel, SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatWire, FakeLlmServer } from "../testing/fake-llm-server.js";
import { type HostileRig, startHostileRig } from "../testing/hostile-backend.js";

// Issue 18, hole 4: a provider (or a proxy in front of it) that echoes the API key in its error
// text handed the key to every user of the backend through session.reason and the traces;
// redaction ran only in the logger. Client log messages and made-up ids were stored or logged raw.

// A key in no known credential shape: only knowing the operator's own secrets can mask it.
const key = "proxy-key-Qw3rTy-9876543210";
let fake: FakeLlmServer;
let rig: HostileRig;

/** Every row of every table, as text. */
async function everything(r: HostileRig): Promise<string> {
  const tables = await r.backend.db.query<{ t: string }>("select tablename as t from pg_tables where schemaname = 'public'");
  const dumps = await Promise.all(tables.map(({ t }) => r.backend.db.query(`select * from ${t}`)));
  return json(dumps);
}

function json(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? String(x) : x));
}

beforeAll(async () => {
  fake = await new FakeLlmServer(chatWire).start();
  rig = await startHostileRig({ env: { BATON_CHAT_BASE_URL: `${fake.url}/v1`, BATON_CHAT_API_KEY: key } });
});

afterAll(async () => {
  await rig?.close();
  await fake?.stop();
});

describe("the operator's secrets never reach a user, a row or a log", () => {
  it("masks a provider error that echoes the key in the session's reason, its traces and the store", async () => {
    fake.script({ kind: "status", status: 401, message: `Incorrect API key provided: ${key}. Also Bearer ${key}.` });
    const c = rig.client(rig.alice);
    const { session } = await c.createSession({ task: "t", model: "chat:gpt-test" });
    const r = await c.step({ sessionId: session!.id });
    expect(r.session?.status).toBe(SessionStatus.FAILED);
    // The error is still useful: it says what went wrong.
    expect(r.session?.reason).toContain("Incorrect API key provided: [REDACTED]");
    const got = await c.getSession({ sessionId: session!.id });
    expect(got.traces[0]?.errors.join(" ")).toContain("[REDACTED]");
    expect(json(got)).not.toContain(key);
    expect(await everything(rig)).not.toContain(key);
    expect(JSON.stringify(rig.logs())).not.toContain(key);
    expect(fake.bodies.length).toBeGreaterThan(0);
  });

  it("stores client log messages redacted like their attributes", async () => {
    const c = rig.client(rig.alice);
    const { session } = await c.createSession({ task: "t", model: "chat:gpt-test" });
    await c.reportLog({
      sessionId: session!.id,
      entries: [{ level: LogLevel.ERROR, message: `fetch failed with sk-live-abcdefghijklmnop and ${key}`, attributes: { apiKey: "x", note: `Bearer ${key}` } }],
    });
    const logs = (await c.getSession({ sessionId: session!.id })).logs;
    expect(logs[0]?.message).toBe("fetch failed with [REDACTED] and [REDACTED]");
    expect(logs[0]?.attributes).toEqual({ apiKey: "[REDACTED]", note: "Bearer [REDACTED]" });
  });

  it("does not log a made-up session id that looks like a credential", async () => {
    const made = "sk-live-abcdefghijklmnopqrst";
    const err = await rig
      .client(rig.alice)
      .getSession({ sessionId: made })
      .catch((e: unknown) => ConnectError.from(e));
    expect(err).toMatchObject({ code: Code.NotFound });
    expect(JSON.stringify(rig.logs())).not.toContain(made);
  });

  it("caps the log entries a session keeps (10,000), as ResourceExhausted", async () => {
    const c = rig.client(rig.alice);
    const { session } = await c.createSession({ task: "t", model: "chat:gpt-test" });
    const batch = Array.from({ length: 1000 }, (_, i) => ({ level: LogLevel.INFO, message: `line ${i}` }));
    for (let i = 0; i < 10; i++) expect((await c.reportLog({ sessionId: session!.id, entries: batch })).stored).toBe(1000);
    const err = await c.reportLog({ sessionId: session!.id, entries: batch.slice(0, 1) }).catch((e: unknown) => ConnectError.from(e));
    expect(err).toMatchObject({ code: Code.ResourceExhausted });
    expect((err as ConnectError).rawMessage).toContain("at most 10000 log entries");
  });
});
