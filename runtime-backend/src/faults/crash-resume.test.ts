/**
 * Fault test: the backend process is killed with SIGKILL in the middle of a step (results
 * committed, model call in flight) and restarted on the same data directory. The client
 * retries the same request; the session resumes with no step lost or doubled.
 */
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService, SessionStatus, type StepRequest, StepRequestSchema, type StepResponse } from "@baton/gen/baton/v1/agent_pb";
import { restartTimeoutMs, scriptedBackends } from "@baton/cli/testing";
import { afterAll, describe, expect, it } from "vitest";
import type { Script } from "../providers/script.js";
import { openDb } from "../store/open.js";
import { expectResumedOnce } from "../testing/resume-checks.js";

const token = "bt_crash_test_token_0123456789abcdef";
const steps = 8;
const slowStep = 5;
const script: Script = {
  turns: [
    ...Array.from({ length: steps }, (_, i) => ({
      calls: [{ name: "navigate", args: { url: `https://example.com/${i + 1}` } }],
      // The model call of this turn is slow, so the kill lands inside it.
      ...(i + 1 === slowStep ? { delayMs: 2_500 } : {}),
    })),
    { calls: [{ name: "done", args: { answer: "visited all pages" } }] },
  ],
};

const backends = scriptedBackends("baton-crash-", script, token);
afterAll(() => backends.close());

const pgUrl = process.env.BATON_TEST_DATABASE_URL;

/** A backend on the engine's store: the embedded one in a data directory, or Postgres. */
async function start(store: string[]) {
  const p = await backends.start(store);
  return { p, client: createClient(AgentService, createConnectTransport({ baseUrl: p.url, httpVersion: "1.1", interceptors: [backends.auth] })) };
}

function resultsFor(sessionId: string, r: StepResponse): StepRequest {
  const results = r.messages.flatMap((m) =>
    m.content.case === "functionCall" && m.content.value.call?.tool.case === "navigate"
      ? [
          {
            toolcallId: m.content.value.toolcallId,
            outcome: { case: "result" as const, value: { tool: { case: "navigate" as const, value: { url: m.content.value.call.tool.value.url, title: "ok" } } } },
          },
        ]
      : [],
  );
  return create(StepRequestSchema, { sessionId, input: { case: "toolResults", value: { results } } });
}

const engines = [
  { name: "embedded store", store: async () => ["--data-dir", join(backends.dir, "data")] },
  {
    name: "Postgres",
    store: async () => {
      // A clean schema: the test database is disposable.
      const db = await openDb({ databaseUrl: pgUrl });
      await db.exec("drop schema public cascade; create schema public");
      await db.close();
      return ["--database-url", pgUrl ?? ""];
    },
    skip: !pgUrl,
  },
];

describe.each(engines)("SIGKILL mid-session, $name", ({ store, skip }) => {
  it.skipIf(skip)("resumes after a restart with no step lost or doubled", async () => {
    const args = await store();
    let { p, client } = await start(args);
    const { session } = await client.createSession({ task: "visit the pages" });
    const id = session!.id;
    let r = await client.step({ sessionId: id });
    for (let step = 1; step < slowStep - 1; step++) r = await client.step(resultsFor(id, r));
    expect(r.session?.step).toBe(slowStep - 1);

    // This request commits the results, then waits on the slow model call: kill it there.
    const inFlight = resultsFor(id, r);
    const lost = client.step(inFlight).catch((e: unknown) => e);
    await new Promise((res) => setTimeout(res, 1_000));
    await p.kill("SIGKILL");
    expect(await lost).toBeInstanceOf(Error);

    ({ p, client } = await start(args));
    // The client retries exactly what it sent; the backend continues the interrupted step.
    r = await client.step(inFlight);
    expect(r.session?.step).toBe(slowStep);
    while (r.session?.status === SessionStatus.AWAITING_TOOLS) r = await client.step(resultsFor(id, r));
    expect(r.session?.status).toBe(SessionStatus.COMPLETED);
    expect(r.session?.answer).toBe("visited all pages");

    expectResumedOnce(expect as never, await client.getSession({ sessionId: id }), steps);
  }, restartTimeoutMs);
});
