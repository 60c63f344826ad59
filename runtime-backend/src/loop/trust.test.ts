/**
 * The loop's trust checks on a real store: read-only sites refuse page-changing calls before
 * they are sent, remembered decisions ("always" / "never" on a site, until an expiry) answer
 * later calls without asking, DecideApproval decides from elsewhere, and the site policy RPCs
 * (user and team, merged) hold what they say.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import {
  type AgentMessage,
  AgentService,
  ApprovalScope,
  CreateSessionRequestSchema,
  MessageStatus,
  SessionStatus,
  type StepRequest,
  StepRequestSchema,
  type ToolcallResult,
  ToolcallResultSchema,
  ToolErrorCode,
} from "@baton/gen/baton/v1/agent_pb";
import { Risk } from "@baton/gen/baton/v1/options_pb";
import { ToolResultSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApprovalDecision, runTask } from "@baton/sdk/client";
import { sitePolicyFromObject } from "@baton/sdk/policy";
import type { Script } from "../providers/script.js";
import { agentRoutes } from "../server/routes.js";
import { makeAdmin } from "../store/accounts.js";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open.js";
import { ensureUser } from "../store/users.js";
import { scriptedAgent } from "../testing/harness.js";
import { recordingHandlers } from "../testing/recording-handlers.js";
import { storeTrust } from "./trust.js";

let db: Db;
beforeAll(async () => {
  db = await openDb({});
});
afterAll(async () => {
  await db?.close();
});

const shop = "https://shop.example";
const bank = "https://bank.example";
const start = (task: string) => create(CreateSessionRequestSchema, { task });
const step = (sessionId: string, pageUrl: string, results?: ToolcallResult[]): StepRequest =>
  create(StepRequestSchema, { sessionId, pageUrl, ...(results ? { input: { case: "toolResults", value: { results } } } : {}) });
const clicked = (toolcallId: string) =>
  create(ToolcallResultSchema, { toolcallId, outcome: { case: "result", value: create(ToolResultSchema, { tool: { case: "click", value: {} } }) } });
const approval = (toolcallId: string, approved: boolean, scope = ApprovalScope.ONCE, expiresAt?: number) =>
  create(ToolcallResultSchema, {
    toolcallId,
    outcome: { case: "approval", value: { approved, scope, ...(expiresAt !== undefined ? { expiresAt: timestampFromMs(expiresAt) } : {}) } },
  });
const callsIn = (ms: readonly AgentMessage[]) =>
  ms.flatMap((m) => (m.content.case === "functionCall" ? [{ id: m.content.value.toolcallId, status: m.status, site: m.content.value.site, risk: m.content.value.risk }] : []));

/** Places an order (irreversible), and later another. */
const twoOrders: Script = {
  turns: [
    { text: "<goal>Order twice</goal>", calls: [{ name: "click", args: { ref: "e1", irreversible: true } }] },
    { calls: [{ name: "click", args: { ref: "e2", irreversible: true } }] },
    { calls: [{ name: "done", args: { answer: "ordered twice" } }] },
  ],
};

describe("read-only sites in the loop", () => {
  it("refuse a page-changing call before it is sent, and the model reads which site and rule; reading and leaving go out", async () => {
    const script: Script = {
      turns: [
        { text: "<goal>Move money</goal>", calls: [{ name: "take_snapshot" }, { name: "type_text", args: { ref: "e3", text: "500" } }, { name: "click", args: { ref: "e4" } }] },
        { calls: [{ name: "navigate", args: { url: `${shop}/` } }] },
        { calls: [{ name: "done", args: { answer: "could not" } }] },
      ],
    };
    const trust = storeTrust(db, { extraPolicy: () => sitePolicyFromObject({ read_only: [bank] }, "--policy trust.yaml") });
    const { agent, model } = await scriptedAgent(script, { db, trust });
    const s = await agent.createSession("alice", start("move money"));
    const r1 = await agent.step("alice", step(s.id, `${bank}/transfer`));
    // Only the snapshot reaches the client.
    expect(callsIn(r1.messages).map((c) => c.id)).toEqual(["call_1_0"]);
    const r2 = await agent.step("alice", step(s.id, `${bank}/transfer`, [create(ToolcallResultSchema, { toolcallId: "call_1_0", outcome: { case: "result", value: create(ToolResultSchema, { tool: { case: "takeSnapshot", value: { text: "page" } } }) } })]));
    const second = model.requests[1];
    const outputs = (second?.items ?? []).flatMap((i) => (i.type === "tool_result" ? [i.output] : []));
    expect(outputs.filter((o) => o.includes("is a read-only site (--policy trust.yaml: read-only https://bank.example)"))).toHaveLength(2);
    expect(outputs.some((o) => /permission_denied/i.test(o) && o.includes("nothing was done"))).toBe(true);
    // navigate is not refused on a read-only site: where it goes is the URL policy's question.
    expect(callsIn(r2.messages).map((c) => c.id)).toEqual(["call_2_0"]);
    const got = await agent.getSession("alice", s.id);
    expect(got.traces[0]?.errors.filter((e) => e.includes("refused (PERMISSION_DENIED)"))).toHaveLength(2);
  });

  it("take the team's and the user's stored policies, merged, within the cache time", async () => {
    const script: Script = { turns: [{ calls: [{ name: "click", args: { ref: "e1" } }] }, { calls: [{ name: "done", args: { answer: "x" } }] }] };
    const { agent } = await scriptedAgent(script, { db, trust: storeTrust(db, { policyCacheMs: 0 }) });
    const client = createClient(AgentService, createRouterTransport(agentRoutes(agent, async () => "carol")));
    await db.query("insert into users (id, name) values ('carol', 'Carol') on conflict do nothing");
    await makeAdmin(db, "carol");
    await client.setSitePolicy({ team: true, policy: { readOnly: ["crm.example"] } });
    const s = await agent.createSession("carol", start("edit"));
    const r = await agent.step("carol", step(s.id, "https://crm.example/contacts"));
    // The click never went out; the model read why and finished.
    expect(callsIn(r.messages).map((c) => c.id)).not.toContain("call_1_0");
    expect(r.session?.status).toBe(SessionStatus.COMPLETED);
    const got = await agent.getSession("carol", s.id);
    const errors = got.history.flatMap((h) => (h.entry.case === "toolResult" && h.entry.value.outcome.case === "error" ? [h.entry.value.outcome.value.message] : []));
    expect(errors.some((m) => m.includes("crm.example is a read-only site (team policy: read-only crm.example)"))).toBe(true);
    await client.setSitePolicy({ team: true, policy: {} });
  });
});

describe("remembered approvals", () => {
  it("'always for this class on this site' runs the call once, then lets the next such call through without asking; elsewhere it still asks", async () => {
    const { agent } = await scriptedAgent(twoOrders, { db });
    const s = await agent.createSession("alice", start("order"));
    const r1 = await agent.step("alice", step(s.id, `${shop}/cart`));
    expect(callsIn(r1.messages)).toEqual([{ id: "call_1_0", status: MessageStatus.AWAITING_APPROVAL, site: shop, risk: Risk.IRREVERSIBLE }]);
    const r2 = await agent.step("alice", step(s.id, `${shop}/cart`, [approval("call_1_0", true, ApprovalScope.SITE)]));
    expect(callsIn(r2.messages)).toEqual([{ id: "call_1_0", status: MessageStatus.COMPLETED, site: shop, risk: Risk.IRREVERSIBLE }]);
    const r3 = await agent.step("alice", step(s.id, `${shop}/done`, [clicked("call_1_0")]));
    // The second order goes out at once: no approval asked.
    expect(callsIn(r3.messages).map((c) => [c.id, c.status])).toEqual([["call_2_0", MessageStatus.COMPLETED]]);
    expect(r3.session?.status).toBe(SessionStatus.AWAITING_TOOLS);
    const rules = await agent.deps.trust.decisions("alice");
    expect(rules.filter((r) => r.site === shop)).toMatchObject([{ site: shop, risk: "irreversible", allow: true, tool: "click" }]);
    // Another user, or another site, is asked.
    const other = await scriptedAgent(twoOrders, { db });
    const t = await other.agent.createSession("bob", start("order"));
    expect(callsIn((await other.agent.step("bob", step(t.id, `${shop}/cart`))).messages)[0]?.status).toBe(MessageStatus.AWAITING_APPROVAL);
    const u = await other.agent.createSession("alice", start("order"));
    expect(callsIn((await other.agent.step("alice", step(u.id, "https://other.example/"))).messages)[0]?.status).toBe(MessageStatus.AWAITING_APPROVAL);
    for (const r of rules) await agent.deps.trust.revoke("alice", r.id);
  });

  it("'never on this site' denies the call and refuses the next such call unasked, closing what came after it", async () => {
    const script: Script = {
      turns: [
        { calls: [{ name: "click", args: { ref: "e1", irreversible: true } }] },
        { calls: [{ name: "click", args: { ref: "e2", irreversible: true } }, { name: "type_text", args: { ref: "e3", text: "thanks" } }] },
        { calls: [{ name: "done", args: { answer: "gave up" } }] },
      ],
    };
    const { agent, model } = await scriptedAgent(script, { db });
    const s = await agent.createSession("alice", start("order"));
    await agent.step("alice", step(s.id, `${shop}/cart`));
    const r2 = await agent.step("alice", step(s.id, `${shop}/cart`, [approval("call_1_0", false, ApprovalScope.SITE, Date.now() + 3_600_000)]));
    expect(r2.session?.status).toBe(SessionStatus.COMPLETED);
    const outputs = model.requests.flatMap((r) => r.items.flatMap((i) => (i.type === "tool_result" ? [i.output] : [])));
    expect(outputs.some((o) => o.includes("The user denied this call and asked never to allow irreversible actions on https://shop.example until"))).toBe(true);
    expect(outputs.some((o) => o.includes("The user decided never to allow irreversible actions on https://shop.example"))).toBe(true);
    expect(outputs.some((o) => o.includes("an earlier call of the same turn (click) was refused"))).toBe(true);
    const rules = await agent.deps.trust.decisions("alice");
    expect(rules.find((r) => r.site === shop)).toMatchObject({ allow: false });
    for (const r of rules) await agent.deps.trust.revoke("alice", r.id);
  });

  it("stop applying at their expiry, and refuse an expiry in the past or a site the backend was never told", async () => {
    const { agent } = await scriptedAgent(twoOrders, { db });
    const s = await agent.createSession("alice", start("order"));
    await agent.step("alice", step(s.id, `${shop}/cart`));
    const past = await agent.step("alice", step(s.id, `${shop}/cart`, [approval("call_1_0", true, ApprovalScope.SITE, Date.now() - 1)])).catch((e: unknown) => ConnectError.from(e));
    expect(past).toMatchObject({ code: Code.InvalidArgument });
    expect((past as ConnectError).rawMessage).toContain("is not in the future");
    await agent.step("alice", step(s.id, `${shop}/cart`, [approval("call_1_0", true, ApprovalScope.SITE, Date.now() + 400)]));
    await new Promise((r) => setTimeout(r, 450));
    const r3 = await agent.step("alice", step(s.id, `${shop}/x`, [clicked("call_1_0")]));
    expect(callsIn(r3.messages)[0]?.status).toBe(MessageStatus.AWAITING_APPROVAL);
    // No page_url, no site: only "once" can be answered.
    const t = await agent.createSession("alice", start("order"));
    const held = await agent.step("alice", create(StepRequestSchema, { sessionId: t.id }));
    expect(callsIn(held.messages)[0]).toMatchObject({ status: MessageStatus.AWAITING_APPROVAL, site: "" });
    const unknown = await agent.step("alice", step(t.id, "", [approval("call_1_0", true, ApprovalScope.SITE)])).catch((e: unknown) => ConnectError.from(e));
    expect(unknown).toMatchObject({ code: Code.FailedPrecondition });
    for (const r of await agent.deps.trust.decisions("alice")) await agent.deps.trust.revoke("alice", r.id);
  });
});

describe("runTask and an approval decided elsewhere", () => {
  it("closes the local question when the console decides, and the run goes on with that decision", async () => {
    const { agent } = await scriptedAgent(twoOrders, { db });
    const transport = createRouterTransport(agentRoutes(agent, async () => "alice"));
    const client = createClient(AgentService, transport);
    const elsewhere = createClient(AgentService, transport);
    const log: string[] = [];
    const events: string[] = [];
    let sessionId = "";
    let closed = 0;
    const outcome = await runTask(client, {
      task: "order twice",
      handlers: recordingHandlers(log),
      page: { url: async () => `${shop}/cart` },
      onEvent: (e) => {
        if (e.type === "session") sessionId = e.session.id;
        if (e.type.startsWith("approval")) events.push(e.type);
      },
      // Nobody answers here: the person approves in the console.
      onApproval: (req) =>
        new Promise<ApprovalDecision>((resolve) => {
          req.signal.addEventListener("abort", () => {
            closed++;
            resolve({ approved: false, reason: "too late" });
          });
          void elsewhere.decideApproval({ sessionId, toolcallId: req.toolcallId, approval: { approved: true } });
        }),
    });
    expect(outcome).toMatchObject({ status: "completed", answer: "ordered twice" });
    expect(closed).toBe(2);
    expect(events).toEqual(["approval_elsewhere", "approval_elsewhere"]);
    expect(log).toEqual(["click e1", "click e2"]);
  });
});

describe("the trust RPCs", () => {
  it("decide an approval from elsewhere once, list and revoke remembered decisions, each user's own", async () => {
    const { agent } = await scriptedAgent(twoOrders, { db });
    const alice = createClient(AgentService, createRouterTransport(agentRoutes(agent, async () => "alice")));
    const bob = createClient(AgentService, createRouterTransport(agentRoutes(agent, async () => "bob")));
    const s = await agent.createSession("alice", start("order"));
    await agent.step("alice", step(s.id, `${shop}/cart`));
    const other = await bob.decideApproval({ sessionId: s.id, toolcallId: "call_1_0", approval: { approved: true } }).catch((e: unknown) => ConnectError.from(e));
    expect(other).toMatchObject({ code: Code.PermissionDenied });
    const decided = await alice.decideApproval({ sessionId: s.id, toolcallId: "call_1_0", approval: { approved: true, scope: ApprovalScope.SITE } });
    expect(decided.session?.status).toBe(SessionStatus.AWAITING_TOOLS);
    const again = await alice.decideApproval({ sessionId: s.id, toolcallId: "call_1_0", approval: { approved: false } }).catch((e: unknown) => ConnectError.from(e));
    expect(again).toMatchObject({ code: Code.FailedPrecondition });
    // The client that runs the session gets the approved call.
    const pending = await agent.getSession("alice", s.id);
    expect(callsIn(pending.pendingCalls)).toMatchObject([{ id: "call_1_0", status: MessageStatus.COMPLETED }]);
    const { rules } = await alice.listApprovalRules({});
    expect(rules).toMatchObject([{ site: shop, risk: Risk.IRREVERSIBLE, allow: true, tool: "click" }]);
    expect((await bob.listApprovalRules({})).rules).toEqual([]);
    expect(await bob.revokeApprovalRule({ id: rules[0]?.id ?? "" }).catch((e: unknown) => ConnectError.from(e).code)).toBe(Code.NotFound);
    await alice.revokeApprovalRule({ id: rules[0]?.id ?? "" });
    expect((await alice.listApprovalRules({})).rules).toEqual([]);
  });

  it("remember a decision a client asked about itself: listed, honoured by the loop, bad input refused with nothing stored", async () => {
    const { agent } = await scriptedAgent(twoOrders, { db });
    const erin = createClient(AgentService, createRouterTransport(agentRoutes(agent, async () => "erin")));
    const codeOf = (p: Promise<unknown>) => p.then(() => Code.Unknown, (e: unknown) => ConnectError.from(e).code);
    // A signed-in user has an account.
    await ensureUser(db, "erin");
    expect(await codeOf(erin.rememberApprovalRule({ site: "file:///etc/", risk: Risk.IRREVERSIBLE, allow: true }))).toBe(Code.InvalidArgument);
    expect(await codeOf(erin.rememberApprovalRule({ site: shop, allow: true }))).toBe(Code.InvalidArgument);
    expect(await codeOf(erin.rememberApprovalRule({ site: shop, risk: Risk.IRREVERSIBLE, allow: true, expiresAt: timestampFromMs(Date.now() - 1000) }))).toBe(Code.InvalidArgument);
    expect((await erin.listApprovalRules({})).rules).toEqual([]);
    // A page URL is kept as its site, as the loop places calls.
    const { rule } = await erin.rememberApprovalRule({ site: `${shop}/cart?x=1`, risk: Risk.IRREVERSIBLE, allow: false, tool: "click" });
    expect(rule).toMatchObject({ site: shop, risk: Risk.IRREVERSIBLE, allow: false, tool: "click" });
    expect((await erin.listApprovalRules({})).rules.map((r) => r.id)).toEqual([rule?.id]);
    // The loop refuses the next such call on that site without asking.
    const s = await agent.createSession("erin", start("order"));
    const r = await agent.step("erin", step(s.id, `${shop}/cart`));
    expect(r.messages.some((m) => m.content.case === "functionCall" && m.status === MessageStatus.AWAITING_APPROVAL)).toBe(false);
    await erin.revokeApprovalRule({ id: rule?.id ?? "" });
  });

  it("keep each user's site policy, the team's for admins only, and say what sessions are held to", async () => {
    const { agent } = await scriptedAgent(twoOrders, { db });
    const alice = createClient(AgentService, createRouterTransport(agentRoutes(agent, async () => "alice")));
    await alice.setSitePolicy({ policy: { allowed: ["*.example.com", "docs.example"], blocked: ["ads.example"], readOnly: [bank] } });
    const denied = await alice.setSitePolicy({ team: true, policy: { blocked: ["x.example"] } }).catch((e: unknown) => ConnectError.from(e));
    expect(denied).toMatchObject({ code: Code.PermissionDenied });
    const bad = await alice.setSitePolicy({ policy: { blocked: ["https://ads.example/path"] } }).catch((e: unknown) => ConnectError.from(e));
    expect(bad).toMatchObject({ code: Code.InvalidArgument });
    expect((bad as ConnectError).rawMessage).toContain('policy.blocked: "https://ads.example/path" is neither an origin');
    await db.query("insert into users (id, name) values ('dora', 'Dora') on conflict do nothing");
    await makeAdmin(db, "dora");
    const dora = createClient(AgentService, createRouterTransport(agentRoutes(agent, async () => "dora")));
    await dora.setSitePolicy({ team: true, policy: { allowed: ["app.example.com", "partner.example"], readOnly: ["crm.example.com"] } });
    const got = await alice.getSitePolicy({});
    expect(got.user).toMatchObject({ allowed: ["*.example.com", "docs.example"], blocked: ["ads.example"], readOnly: [bank] });
    expect(got.team).toMatchObject({ allowed: ["app.example.com", "partner.example"], readOnly: ["crm.example.com"] });
    expect(got.effective).toMatchObject({ allowed: ["app.example.com"], blocked: ["ads.example"], readOnly: ["crm.example.com", bank] });
    expect(got.canEditTeam).toBe(false);
    expect((await dora.getSitePolicy({})).canEditTeam).toBe(true);
    await dora.setSitePolicy({ team: true, policy: {} });
    await alice.setSitePolicy({ policy: {} });
  });
});
