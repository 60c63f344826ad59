/**
 * Budgets against a real backend over HTTP with a scripted model: the ceiling each session
 * carries (its own, or its user's default from the console), the note that tells the model what
 * is left, and the end at the ceiling with its own status, before a model call and after every
 * tool result the client sent is recorded.
 */
import { Code, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService, SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient } from "../testing/console-client.js";
import { refusal } from "../testing/refusal.js";
import { RecordingProvider } from "../testing/harness.js";
import { ScriptProvider, type ScriptTurn } from "../providers/script.js";
import type { ModelRequest } from "../providers/types.js";
import { type Backend, startBackend } from "../server/app.js";
import { createSignInCode } from "../store/accounts.js";
import { ensureUser } from "../store/users.js";

let backend: Backend;
// A session whose task is to open a page gets one navigate (a client tool); every other plays
// three memories (backend tools, so one Step runs them all), each turn of known size, then done.
const remember: ScriptTurn[] = [
  { text: "<goal>Remember three things</goal>", calls: [{ name: "save_memory", args: { text: "Ada prefers window seats" } }], usage: { input: 1000, output: 50 } },
  { calls: [{ name: "save_memory", args: { text: "Ada flies from Zurich" } }], usage: { input: 1100, output: 50 } },
  { calls: [{ name: "save_memory", args: { text: "Ada's badge number is 42" } }], usage: { input: 1200, output: 50 } },
  { calls: [{ name: "done", args: { answer: "Remembered." } }] },
];
const open: ScriptTurn = { text: "<goal>Open the page</goal>", calls: [{ name: "navigate", args: { url: "https://example.com/" } }], usage: { input: 900, output: 200 } };
const model = new RecordingProvider(
  new ScriptProvider((req) => (contextOf(req).includes("Open the page") ? open : (remember[req.callIndex] ?? { calls: [{ name: "done", args: { answer: "No more." } }] }))),
);

/** The first user item of a prompt: the context block, where the budget note goes. */
function contextOf(req: ModelRequest | undefined): string {
  return req?.items[0]?.type === "user" ? req.items[0].text : "";
}

async function signedIn(user: string) {
  await ensureUser(backend.db, user);
  const c = consoleClient(backend.server.url);
  await c.signIn((await createSignInCode(backend.db, user, 60_000)).code);
  return c;
}

/** The agent API with a fresh API token of `user`. */
async function agentOf(user: string) {
  const { token } = await (await signedIn(user)).console.createToken({ name: "budget test" });
  return createClient(
    AgentService,
    createConnectTransport({ baseUrl: backend.server.url, httpVersion: "1.1", interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${token}`), next(req))] }),
  );
}

beforeAll(async () => {
  // "script:gpt-4o" is priced as gpt-4o, so the cost ceiling has something to measure.
  backend = await startBackend({ port: 0, host: "127.0.0.1", resolveModel: (spec) => ({ provider: model, model: spec.split(":")[1] ?? "m" }), defaultModel: "script:m" });
});

afterAll(async () => {
  await backend?.close();
});

describe("session budgets", () => {
  it("tells the model what is left near the token ceiling and ends the session at it, before the next model call", async () => {
    const agent = await agentOf("ada");
    const { session } = await agent.createSession({ task: "Remember three things about Ada", budget: { tokens: 1300n } });
    expect(session?.budget).toMatchObject({ tokens: 1300n, costUsd: 0, seconds: 0 });
    const calls = model.requests.length;
    const r = await agent.step({ sessionId: session?.id ?? "" });
    expect(r.session?.status).toBe(SessionStatus.BUDGET_EXHAUSTED);
    expect(r.session?.reason).toBe("2,200 of 1,300 tokens used.");
    // Two model calls: the third would have gone over, so it was never made.
    expect(model.requests.length - calls).toBe(2);
    const [first, second] = model.requests.slice(calls);
    expect(contextOf(first)).not.toContain("Budget:");
    expect(contextOf(second)).toContain("Budget: 250 of 1,300 tokens left for this task.");
    const last = r.messages.at(-1);
    expect(last?.content.case === "text" ? last.content.value.text : "").toBe("I stopped at the budget: 2,200 of 1,300 tokens used.");
    // What the model did before the ceiling is kept.
    const got = await agent.getSession({ sessionId: session?.id ?? "" });
    expect(got.session).toMatchObject({ status: SessionStatus.BUDGET_EXHAUSTED, budget: { tokens: 1300n } });
    expect(got.traces.map((t) => t.toolCalls)).toEqual([["save_memory"], ["save_memory"]]);
  });

  it("ends at the cost ceiling of a priced model and at the wall-time ceiling without calling the model", async () => {
    const agent = await agentOf("ben");
    const costly = await agent.createSession({ task: "Remember three things", model: "script:gpt-4o", budget: { costUsd: 0.005 } });
    const r = await agent.step({ sessionId: costly.session?.id ?? "" });
    expect(r.session?.status).toBe(SessionStatus.BUDGET_EXHAUSTED);
    expect(r.session?.reason).toBe("$0.0063 of $0.005 spent.");

    const quick = await agent.createSession({ task: "Remember three things", budget: { seconds: 1 } });
    await new Promise((res) => setTimeout(res, 1100));
    const calls = model.requests.length;
    const t = await agent.step({ sessionId: quick.session?.id ?? "" });
    expect(t.session?.status).toBe(SessionStatus.BUDGET_EXHAUSTED);
    expect(t.session?.reason).toBe("1 s of 1 s used.");
    expect(model.requests.length).toBe(calls);
  });

  it("never ends mid-action: the result of a call handed out before the ceiling is recorded first", async () => {
    const agent = await agentOf("cy");
    const { session } = await agent.createSession({ task: "Open the page", budget: { tokens: 1000n } });
    const id = session?.id ?? "";
    const calls = model.requests.length;
    const r1 = await agent.step({ sessionId: id });
    // Over the ceiling already, but the call is out: the session waits for its result.
    expect(r1.session?.status).toBe(SessionStatus.AWAITING_TOOLS);
    const call = r1.messages.find((m) => m.content.case === "functionCall");
    const toolcallId = call?.content.case === "functionCall" ? call.content.value.toolcallId : "";
    const result = { toolcallId, outcome: { case: "result" as const, value: { tool: { case: "navigate" as const, value: { url: "https://example.com/", title: "Example" } } } } };
    const r2 = await agent.step({ sessionId: id, input: { case: "toolResults", value: { results: [result] } } });
    expect(r2.session?.status).toBe(SessionStatus.BUDGET_EXHAUSTED);
    expect(r2.session?.reason).toBe("1,100 of 1,000 tokens used.");
    // Ended, so a client's own checks may report on it (an eval task whose expected end is its budget).
    const judged = await agent.reportVerdict({ sessionId: id, verdict: { passed: true, reason: "stopped at the budget, as expected" } });
    expect(judged.session?.verdict).toMatchObject({ passed: true });
    expect(model.requests.length - calls).toBe(1);
    const got = await agent.getSession({ sessionId: id });
    const recorded = got.history.flatMap((h) => (h.entry.case === "toolResult" ? [h.entry.value.toolcallId] : []));
    expect(recorded).toEqual([toolcallId]);
  });

  it("gives each new session that names no budget its user's default, set in the console", async () => {
    const dee = await signedIn("dee");
    expect((await dee.console.getAccount({})).defaultBudget).toMatchObject({ tokens: 0n, costUsd: 0, seconds: 0 });
    const set = await dee.console.setDefaultBudget({ budget: { tokens: 5000n, seconds: 600 } });
    expect(set.budget).toMatchObject({ tokens: 5000n, costUsd: 0, seconds: 600 });
    expect((await dee.console.getAccount({})).defaultBudget).toMatchObject({ tokens: 5000n, seconds: 600 });
    const agent = await agentOf("dee");
    expect((await agent.createSession({ task: "t" })).session?.budget).toMatchObject({ tokens: 5000n, costUsd: 0, seconds: 600 });
    // A session's own budget wins; another user's default is not dee's.
    expect((await agent.createSession({ task: "t", model: "script:gpt-4o", budget: { costUsd: 1 } })).session?.budget).toMatchObject({ tokens: 0n, costUsd: 1, seconds: 0 });
    expect((await (await agentOf("eve")).createSession({ task: "t" })).session?.budget).toMatchObject({ tokens: 0n, costUsd: 0, seconds: 0 });
    // Clearing it: all zeros.
    await dee.console.setDefaultBudget({ budget: {} });
    expect((await agent.createSession({ task: "t" })).session?.budget).toMatchObject({ tokens: 0n, costUsd: 0, seconds: 0 });
  });

  it("refuses a cost ceiling on a model it has no price for, its own or the user's default: it could never be reached", async () => {
    const agent = await agentOf("gus");
    const own = await refusal(agent.createSession({ task: "t", model: "script:unpriced", budget: { costUsd: 0.5 } }));
    expect(own.code).toBe(Code.InvalidArgument);
    expect(own.message).toContain('budget.cost_usd cannot hold model "script:unpriced"');
    const gus = await signedIn("gus");
    await gus.console.setDefaultBudget({ budget: { costUsd: 0.5 } });
    const byDefault = await refusal(agent.createSession({ task: "t", model: "script:unpriced" }));
    expect(byDefault.message).toContain("your default budget's cost ceiling");
    // A priced model holds it; a token ceiling needs no price.
    expect((await agent.createSession({ task: "t", model: "script:gpt-4o" })).session?.budget).toMatchObject({ costUsd: 0.5 });
    expect((await agent.createSession({ task: "t", model: "script:unpriced", budget: { tokens: 900n } })).session?.budget).toMatchObject({ tokens: 900n });
  });

  it("refuses a budget that is not one, saying which field", async () => {
    const agent = await agentOf("fay");
    const negative = await refusal(agent.createSession({ task: "t", budget: { costUsd: -1 } }));
    expect(negative.code).toBe(Code.InvalidArgument);
    expect(negative.message).toContain("cost_usd");
    const dee = await signedIn("fay");
    const nan = await refusal(dee.console.setDefaultBudget({ budget: { costUsd: Number.NaN } }));
    expect(nan.code).toBe(Code.InvalidArgument);
    expect(nan.message).toContain("cost_usd");
  });
});
