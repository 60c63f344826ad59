/**
 * Fault test: the backend process is killed with SIGKILL while a call waits for an approval; a
 * new process on the same store takes the answer "always for this action class on this site".
 * The waiting call runs exactly once, the decision survives in the store, and the next call of
 * the same class on the same site runs without asking — in this session and in a new one.
 */
import { join } from "node:path";
import { createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService } from "@baton/gen/baton/v1/agent_pb";
import { type ApprovalRequest, runTask } from "@baton/sdk/client";
import { restartTimeoutMs, scriptedBackends } from "@baton/cli/testing";
import { afterAll, describe, expect, it } from "vitest";
import type { Script } from "../providers/script.js";
import { recordingHandlers } from "../testing/recording-handlers.js";

const token = "bt_remembered_approval_token_0123456789";
const script: Script = {
  turns: [
    { calls: [{ name: "click", args: { ref: "e1", irreversible: true } }] },
    { calls: [{ name: "click", args: { ref: "e2", irreversible: true } }] },
    { calls: [{ name: "done", args: { answer: "ordered twice" } }] },
  ],
};

const backends = scriptedBackends("baton-remembered-", script, token);
afterAll(() => backends.close());

const pgUrl = process.env.BATON_TEST_DATABASE_URL;
const engines = [
  { name: "embedded store", store: ["--data-dir", join(backends.dir, "data")], skip: false },
  { name: "Postgres", store: ["--database-url", pgUrl ?? ""], skip: !pgUrl },
];
// A site of its own per engine run: the Postgres store is shared with other runs of this test.
const site = `http://127.0.0.1:${40_000 + Math.floor(Math.random() * 20_000)}`;
const page = { url: async () => `${site}/checkout` };
/** The same site in another spelling of this machine: one site to the policy. */
const samePage = { url: async () => `${site.replace("127.0.0.1", "localhost")}/cart` };

describe.each(engines)("SIGKILL while an approval waits, then 'always on this site', $name", ({ store, skip }) => {
  it.skipIf(skip)("runs the waiting call once and lets the next such call through without asking, across sessions", async () => {
    const start = () => backends.start(store);
    let p = await start();
    let current = createConnectTransport({ baseUrl: p.url, httpVersion: "1.1", interceptors: [backends.auth] });
    const transport: Transport = { unary: (...a) => current.unary(...a), stream: (...a) => current.stream(...a) };
    const client = createClient(AgentService, transport);
    const log: string[] = [];
    const asked: ApprovalRequest[] = [];
    try {
      const first = await runTask(client, {
        task: "order the mug twice",
        handlers: recordingHandlers(log),
        page,
        onApproval: async (req) => {
          asked.push(req);
          await p.kill("SIGKILL");
          p = await start();
          current = createConnectTransport({ baseUrl: p.url, httpVersion: "1.1", interceptors: [backends.auth] });
          return { approved: true, scope: "site" };
        },
      });
      expect(first.status).toBe("completed");
      expect(asked.map((r) => [r.toolcallId, r.site, r.risk])).toEqual([["call_1_0", site, "irreversible"]]);
      expect(log).toEqual(["click e1", "click e2"]);
      // The decision outlived the process that took it, and holds for a new session too.
      const second = await runTask(client, { task: "order again", handlers: recordingHandlers(log), page: samePage, onApproval: (req) => (asked.push(req), { approved: false }) });
      expect(second.status).toBe("completed");
      expect(asked).toHaveLength(1);
      expect(log).toEqual(["click e1", "click e2", "click e1", "click e2"]);
      const { rules } = await client.listApprovalRules({});
      const mine = rules.filter((r) => r.site === site);
      expect(mine).toHaveLength(1);
      for (const r of mine) await client.revokeApprovalRule({ id: r.id });
    } finally {
      await p.kill("SIGKILL").catch(() => undefined);
    }
  }, restartTimeoutMs);
});
