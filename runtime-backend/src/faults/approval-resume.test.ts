/**
 * Fault test: the backend process is killed with SIGKILL while a session waits for an
 * approval, with calls of the same turn behind the call awaiting it; a new process on the same
 * store takes the approval. The calls still run in the model's order: the held ones neither
 * leak out before the approval nor get lost after the restart.
 */
import { join } from "node:path";
import { createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService } from "@baton/gen/baton/v1/agent_pb";
import { runTask } from "@baton/sdk/client";
import { restartTimeoutMs, scriptedBackends } from "@baton/cli/testing";
import { afterAll, describe, expect, it } from "vitest";
import type { Script } from "../providers/script.js";
import { recordingHandlers } from "../testing/recording-handlers.js";

const token = "bt_approval_resume_token_0123456789ab";
const script: Script = {
  turns: [
    {
      calls: [
        { name: "type_text", args: { ref: "e1", text: "Ada" } },
        // Irreversible: the default policy holds it for approval.
        { name: "click", args: { ref: "e9", irreversible: true } },
        { name: "type_text", args: { ref: "e3", text: "leave at the door" } },
      ],
    },
    { calls: [{ name: "done", args: { answer: "ordered" } }] },
  ],
};

const backends = scriptedBackends("baton-approval-", script, token);
afterAll(() => backends.close());

const pgUrl = process.env.BATON_TEST_DATABASE_URL;
const engines = [
  { name: "embedded store", store: ["--data-dir", join(backends.dir, "data")], skip: false },
  // The shared test database as it is: this session's rows are its own.
  { name: "Postgres", store: ["--database-url", pgUrl ?? ""], skip: !pgUrl },
];

describe.each(engines)("SIGKILL while awaiting an approval, $name", ({ store, skip }) => {
  it.skipIf(skip)("the calls after the approval still run after it, in the model's order", async () => {
    const start = () => backends.start(store);
    let p = await start();
    // The client keeps one connection object; its requests go to whichever process is up.
    let current = createConnectTransport({ baseUrl: p.url, httpVersion: "1.1", interceptors: [backends.auth] });
    const transport: Transport = { unary: (...a) => current.unary(...a), stream: (...a) => current.stream(...a) };
    const client = createClient(AgentService, transport);
    const log: string[] = [];
    let pendingAfterRestart: string[] = [];
    let sessionId = "";
    const outcome = await runTask(client, {
      task: "order the mug",
      handlers: recordingHandlers(log),
      onEvent: (e) => {
        if (e.type === "session") sessionId = e.session.id;
      },
      onApproval: async (req) => {
        log.push(`approve ${req.tool.name}`);
        await p.kill("SIGKILL");
        p = await start();
        current = createConnectTransport({ baseUrl: p.url, httpVersion: "1.1", interceptors: [backends.auth] });
        // What the new process says is open: the calls up to the approval, not the one behind it.
        const got = await client.getSession({ sessionId });
        pendingAfterRestart = got.pendingCalls.map((m) => (m.content.case === "functionCall" ? m.content.value.toolcallId : ""));
        return { approved: true };
      },
    });
    expect(outcome.status).toBe("completed");
    expect(outcome.answer).toBe("ordered");
    expect(pendingAfterRestart).toEqual(["call_1_0", "call_1_1"]);
    expect(log).toEqual(["type e1", "approve click", "click e9", "type e3"]);
  }, restartTimeoutMs);
});
