/**
 * The console's RPCs against a real backend over HTTP: sign-in with one-time links, the
 * cookie's cross-site guards, device linking with PKCE, token revocation taking effect on the
 * next request, per-user isolation, the live watch, playbook history and the daily quota that
 * stops a session before the model is called.
 */
import { createHash, randomBytes } from "node:crypto";
import { Code, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService, SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { DeviceLinkStatus, DiffOp } from "@baton/gen/baton/v1/console_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RecordingProvider } from "../testing/harness.js";
import { consoleClient, type ConsoleClientOptions } from "../testing/console-client.js";
import { refusal } from "../testing/refusal.js";
import { ScriptProvider } from "../providers/script.js";
import { type Backend, startBackend } from "../server/app.js";
import { createSignInCode, makeAdmin } from "../store/accounts.js";
import { ensureUser } from "../store/users.js";
import { saveMemory } from "../store/memory.js";

let backend: Backend;
let url = "";
const model = new RecordingProvider(
  new ScriptProvider({
    turns: [
      { text: "<goal>Remember three things</goal>", calls: [{ name: "save_memory", args: { text: "Ada prefers window seats" } }], usage: { input: 1000, output: 50 } },
      { calls: [{ name: "save_memory", args: { text: "Ada flies from Zurich" } }], usage: { input: 1100, output: 50 } },
      { calls: [{ name: "save_memory", args: { text: "Ada's badge number is 42" } }], usage: { input: 1200, output: 50 } },
      { calls: [{ name: "done", args: { answer: "Remembered." } }] },
    ],
  }),
);

async function signedIn(user: string) {
  const c = consoleClient(url);
  await c.signIn((await createSignInCode(backend.db, user, 60_000)).code);
  return c;
}

function bearerAgent(token: string) {
  return createClient(AgentService, createConnectTransport({ baseUrl: url, httpVersion: "1.1", interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${token}`), next(req))] }));
}

/** A PKCE pair (RFC 7636 appendix B's construction). */
function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

beforeAll(async () => {
  backend = await startBackend({ port: 0, resolveModel: () => ({ provider: model, model: "m" }), defaultModel: "script:m" });
  url = backend.server.url;
  for (const u of ["local", "alice", "bob"]) await ensureUser(backend.db, u);
  await makeAdmin(backend.db, "local");
});

afterAll(async () => {
  await backend?.close();
});

describe("sign-in", () => {
  it("a link signs in once; the cookie then works until sign-out", async () => {
    const { code } = await createSignInCode(backend.db, "alice", 60_000);
    const c = consoleClient(url);
    let setCookie = "";
    await c.console.signIn({ code }, { onHeader: (h) => void (setCookie = h.get("set-cookie") ?? "") });
    expect(setCookie).toMatch(/^baton_console=cs_[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    c.cookie = setCookie.split(";")[0] ?? "";
    expect((await c.console.getAccount({})).account?.userId).toBe("alice");

    const again = consoleClient(url);
    expect((await refusal(again.signIn(code))).code).toBe(Code.Unauthenticated);

    await c.console.signOut({});
    expect((await refusal(c.console.getAccount({}))).rawMessage).toMatch(/session has ended/);
  });

  it("no cookie, a made-up cookie, or an expired link is refused", async () => {
    expect((await refusal(consoleClient(url).console.getAccount({}))).code).toBe(Code.Unauthenticated);
    const fake = consoleClient(url);
    fake.cookie = `baton_console=cs_${"A".repeat(43)}`;
    expect((await refusal(fake.console.getAccount({}))).code).toBe(Code.Unauthenticated);
    const { code } = await createSignInCode(backend.db, "alice", -1);
    expect((await refusal(consoleClient(url).signIn(code))).code).toBe(Code.Unauthenticated);
  });

  it("a cookie call from another site is refused before any work (Origin, Sec-Fetch-Site, the console's header)", async () => {
    const alice = await signedIn("alice");
    const host = new URL(url).host;
    const cases: ConsoleClientOptions[] = [
      { headers: { origin: "http://evil.example" } },
      { headers: { origin: "http://127.0.0.1:1" } },
      { headers: { "sec-fetch-site": "cross-site" } },
      { headers: { "sec-fetch-site": "same-site" } },
      { withoutConsoleHeader: true },
    ];
    for (const o of cases) {
      const c = consoleClient(url, o);
      c.cookie = alice.cookie;
      const e = await refusal(c.console.listTokens({}));
      expect(e.code, JSON.stringify(o)).toBe(Code.PermissionDenied);
      expect(e.rawMessage).toMatch(/own page only/);
    }
    const same = consoleClient(url, { headers: { origin: `http://${host}`, "sec-fetch-site": "same-origin" } });
    same.cookie = alice.cookie;
    expect((await same.console.getAccount({})).account?.userId).toBe("alice");
    // Signing in is held to the same rule (no login CSRF).
    const { code } = await createSignInCode(backend.db, "alice", 60_000);
    expect((await refusal(consoleClient(url, { headers: { origin: "http://evil.example" } }).signIn(code))).code).toBe(Code.PermissionDenied);
  });

  it("a request carrying two console cookies is refused (400), whichever session comes first", async () => {
    const alice = await signedIn("alice");
    const bob = await signedIn("bob");
    // Another port of this host set its own session cookie on a longer path: the browser sends it first.
    const shadowed = consoleClient(url);
    shadowed.cookie = `${bob.cookie}; ${alice.cookie}`;
    const e = await refusal(shadowed.console.getAccount({}));
    expect(e.code).toBe(Code.InvalidArgument);
    expect(e.rawMessage).toMatch(/carries 2 console session cookies .*clear this site's cookies/);
    const raw = await fetch(`${url}/baton.v1.ConsoleService/GetAccount`, {
      method: "POST",
      headers: { "content-type": "application/json", "baton-console": "1", cookie: `${alice.cookie}; __Host-${bob.cookie}` },
      body: "{}",
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { code: string }).code).toBe("invalid_argument");
    // Either cookie alone still works.
    expect((await alice.console.getAccount({})).account?.userId).toBe("alice");
  });

  it("a cookie does not open bearer-only RPCs, and a bearer token does not open console RPCs", async () => {
    const alice = await signedIn("alice");
    expect((await refusal(alice.agent.createSession({ task: "x" }))).code).toBe(Code.Unauthenticated);
    const { token } = await alice.console.createToken({ name: "script" });
    const viaBearer = createClient(
      (await import("@baton/gen/baton/v1/console_pb")).ConsoleService,
      createConnectTransport({ baseUrl: url, httpVersion: "1.1", interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${token}`), next(req))] }),
    );
    expect((await refusal(viaBearer.listTokens({}))).code).toBe(Code.Unauthenticated);
    // The playbook RPCs take either.
    expect((await alice.agent.listPlaybooks({})).playbooks).toEqual([]);
    expect((await bearerAgent(token).listPlaybooks({})).playbooks).toEqual([]);
  });
});

describe("device linking (PKCE)", () => {
  it("start, approve in the console, exchange with the verifier: a token bound to the device", async () => {
    const device = consoleClient(url, { withoutConsoleHeader: true, headers: { origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop" } });
    const { verifier, challenge } = pkce();
    const start = await device.console.startDeviceLink({ codeChallenge: challenge, codeChallengeMethod: "S256", deviceName: "Chrome on ada-laptop", client: "baton-extension" });
    expect(start.userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(start.approveUrl).toBe(`${url}/link/${start.linkId}`);
    expect((await device.console.pollDeviceLink({ linkId: start.linkId })).status).toBe(DeviceLinkStatus.PENDING);

    const alice = await signedIn("alice");
    const shown = await alice.console.getDeviceLink({ linkId: start.linkId });
    expect(shown.link).toMatchObject({ deviceName: "Chrome on ada-laptop", userCode: start.userCode, origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop" });
    await alice.console.decideDeviceLink({ linkId: start.linkId, approve: true });
    const polled = await device.console.pollDeviceLink({ linkId: start.linkId });
    expect(polled.status).toBe(DeviceLinkStatus.APPROVED);
    expect(polled.code).toMatch(/^dc_/);

    // The wrong verifier is refused, and leaves the code usable by the device that has the right one.
    const wrong = await refusal(device.console.exchangeDeviceCode({ code: polled.code, codeVerifier: pkce().verifier }));
    expect(wrong.code).toBe(Code.PermissionDenied);
    expect(wrong.rawMessage).toMatch(/code_verifier does not match/);

    const got = await device.console.exchangeDeviceCode({ code: polled.code, codeVerifier: verifier });
    expect(got.account?.userId).toBe("alice");
    expect(got.info).toMatchObject({ name: "Chrome on ada-laptop", source: "device-link", device: "Chrome on ada-laptop · baton-extension" });
    const agent = bearerAgent(got.token);
    const { session } = await agent.createSession({ task: "hello" });
    expect(session?.id).toMatch(/^ses_/);
    expect((await alice.console.listTokens({})).tokens.some((t) => t.id === got.info?.id && !t.revokedAt)).toBe(true);

    // A replayed code is refused; with the right verifier it also revokes what the code gave.
    const replay = await refusal(device.console.exchangeDeviceCode({ code: polled.code, codeVerifier: verifier }));
    expect(replay.code).toBe(Code.FailedPrecondition);
    expect(replay.rawMessage).toMatch(/already exchanged; the token it gave has been revoked/);
    expect((await refusal(agent.getSession({ sessionId: session?.id ?? "" }))).code).toBe(Code.Unauthenticated);
    expect((await device.console.pollDeviceLink({ linkId: start.linkId })).status).toBe(DeviceLinkStatus.EXCHANGED);
  });

  it("refuses a plain challenge, a malformed verifier, an unknown code, and a denied link", async () => {
    const device = consoleClient(url);
    const { challenge, verifier } = pkce();
    expect((await refusal(device.console.startDeviceLink({ codeChallenge: challenge, codeChallengeMethod: "plain", deviceName: "x" }))).code).toBe(Code.InvalidArgument);
    expect((await refusal(device.console.startDeviceLink({ codeChallenge: "x".repeat(43), codeChallengeMethod: "S256", deviceName: "" }))).code).toBe(Code.InvalidArgument);
    expect((await refusal(device.console.exchangeDeviceCode({ code: "dc_nope", codeVerifier: "short" }))).code).toBe(Code.InvalidArgument);
    expect((await refusal(device.console.exchangeDeviceCode({ code: "dc_nope", codeVerifier: verifier }))).code).toBe(Code.NotFound);
    const start = await device.console.startDeviceLink({ codeChallenge: challenge, codeChallengeMethod: "S256", deviceName: "CLI on box" });
    const bob = await signedIn("bob");
    await bob.console.decideDeviceLink({ linkId: start.linkId, approve: false });
    const polled = await device.console.pollDeviceLink({ linkId: start.linkId });
    expect(polled).toMatchObject({ status: DeviceLinkStatus.DENIED, code: "" });
    expect((await refusal(bob.console.decideDeviceLink({ linkId: start.linkId, approve: true }))).code).toBe(Code.FailedPrecondition);
  });
});

describe("tokens", () => {
  it("a revoked token is refused on its next request, though it was cached a moment ago", async () => {
    const alice = await signedIn("alice");
    const { token, info } = await alice.console.createToken({ name: "laptop script" });
    const agent = bearerAgent(token);
    const { session } = await agent.createSession({ task: "hi" });
    await agent.getSession({ sessionId: session?.id ?? "" });
    await alice.console.renameToken({ tokenId: info?.id ?? "", name: "old laptop" });
    const revoked = await alice.console.revokeToken({ tokenId: info?.id ?? "" });
    expect(revoked.token?.revokedAt).toBeDefined();
    expect(revoked.token?.name).toBe("old laptop");
    const e = await refusal(agent.getSession({ sessionId: session?.id ?? "" }));
    expect(e.code).toBe(Code.Unauthenticated);
    expect(e.rawMessage).toBe("unknown or revoked API token");
  });

  it("another user's token, session, memory and admin RPCs are PermissionDenied", async () => {
    const alice = await signedIn("alice");
    const bob = await signedIn("bob");
    const { info } = await alice.console.createToken({ name: "mine" });
    expect((await refusal(bob.console.revokeToken({ tokenId: info?.id ?? "" }))).code).toBe(Code.PermissionDenied);
    expect((await refusal(bob.console.renameToken({ tokenId: info?.id ?? "", name: "x" }))).code).toBe(Code.PermissionDenied);
    const { token } = await alice.console.createToken({ name: "s" });
    const { session } = await bearerAgent(token).createSession({ task: "private" });
    const watch = bob.console.watchSession({ sessionId: session?.id ?? "" });
    expect((await refusal((async () => { for await (const _ of watch) break; })())).code).toBe(Code.PermissionDenied);
    expect((await refusal(bob.agent.getSession({ sessionId: session?.id ?? "" }))).code).toBe(Code.PermissionDenied);
    const memory = await saveMemory(backend.db, "alice", "Alice's secret", []);
    expect((await refusal(bob.console.deleteMemory({ memoryId: memory }))).code).toBe(Code.PermissionDenied);
    expect((await refusal(bob.console.pinMemory({ memoryId: memory, pinned: true }))).code).toBe(Code.PermissionDenied);
    expect((await refusal(bob.console.pinMemory({ memoryId: "mem_none", pinned: true }))).code).toBe(Code.NotFound);
    expect((await bob.console.listMemories({ query: "secret" })).records).toEqual([]);
    expect((await refusal(bob.console.listUsers({}))).code).toBe(Code.PermissionDenied);
    expect((await refusal(bob.console.setQuota({ userId: "bob", quota: { dailySteps: 1000 } }))).code).toBe(Code.PermissionDenied);
    expect((await refusal(bob.console.createUser({ userId: "mallory" }))).code).toBe(Code.PermissionDenied);
  });
});

describe("sessions, playbooks and quotas", () => {
  it("watches a session step by step and lists it with filters", async () => {
    const alice = await signedIn("alice");
    const { token } = await alice.console.createToken({ name: "runner" });
    const agent = bearerAgent(token);
    const { session } = await agent.createSession({ task: "Remember three things about Ada" });
    const id = session?.id ?? "";
    const abort = new AbortController();
    const seen: { status?: SessionStatus; history: number }[] = [];
    const watching = (async () => {
      let history = 0;
      for await (const m of alice.console.watchSession({ sessionId: id }, { signal: abort.signal })) {
        history += m.history.length;
        if (m.session) seen.push({ status: m.session.status, history });
        if (m.session?.status === SessionStatus.COMPLETED) break;
      }
    })();
    await new Promise((r) => setTimeout(r, 200));
    const done = await agent.step({ sessionId: id });
    expect(done.session?.status).toBe(SessionStatus.COMPLETED);
    await watching;
    abort.abort();
    expect(seen[0]?.history).toBe(0);
    expect(seen.at(-1)).toMatchObject({ status: SessionStatus.COMPLETED });
    expect(seen.at(-1)?.history).toBeGreaterThanOrEqual(8);

    const all = await alice.console.listSessions({});
    expect(all.sessions.map((s) => s.id)).toContain(id);
    expect(all.models).toContain("script:m");
    expect((await alice.console.listSessions({ statuses: [SessionStatus.COMPLETED] })).sessions.map((s) => s.id)).toEqual([id]);
    expect((await alice.console.listSessions({ query: "three things" })).sessions.map((s) => s.id)).toEqual([id]);
    expect((await alice.console.listSessions({ query: "50%_" })).sessions).toEqual([]);
    const page1 = await alice.console.listSessions({ limit: 1 });
    expect(page1.nextPageToken).not.toBe("");
    const page2 = await alice.console.listSessions({ limit: 1, pageToken: page1.nextPageToken });
    expect(page2.sessions[0]?.id).not.toBe(page1.sessions[0]?.id);
    const [saved] = (await alice.console.listMemories({ query: "window" })).records;
    expect(saved?.text).toBe("Ada prefers window seats");
    // Saved by the agent in this session (no page was open): not the user's until pinned.
    expect([saved?.sessionId, saved?.pageUrl, saved?.byUser, saved?.pinned]).toEqual([id, "", false, false]);
    expect((await alice.console.pinMemory({ memoryId: saved?.id ?? "", pinned: true })).record).toMatchObject({ id: saved?.id, pinned: true });
    expect((await alice.console.pinMemory({ memoryId: saved?.id ?? "", pinned: false })).record?.pinned).toBe(false);
    // A record the user writes is theirs: pinned, no session or page.
    const { record } = await alice.console.createMemory({ text: " Ada's seat is 14A ", tags: ["travel", " "] });
    expect(record).toMatchObject({ text: "Ada's seat is 14A", tags: ["travel"], byUser: true, pinned: true, sessionId: "", pageUrl: "" });
    expect((await refusal(alice.console.createMemory({ text: "   " }))).code).toBe(Code.InvalidArgument);
    expect((await refusal(alice.console.createMemory({ text: "" }))).code).toBe(Code.InvalidArgument);
  });

  it("keeps playbook versions, diffs them, rolls back (as a new version) and tests the match rules", async () => {
    const alice = await signedIn("alice");
    await alice.agent.createPlaybook({ playbook: { name: "checkout", instructions: "Open the cart.\nPay.", keywords: ["order"], urlPatterns: ["shop.example.com/*"] } });
    await alice.agent.updatePlaybook({ playbook: { name: "checkout", instructions: "Open the cart.\nCheck the total.\nPay.", keywords: ["order"], urlPatterns: ["shop.example.com/*"] } });
    const diff = await alice.console.diffPlaybookVersions({ name: "checkout", fromVersion: 1, toVersion: 2 });
    expect(diff.lines.filter((l) => l.op === DiffOp.ADDED).map((l) => l.text)).toEqual(["Check the total."]);
    expect([diff.added, diff.removed]).toEqual([1, 0]);
    const back = await alice.console.rollBackPlaybook({ name: "checkout", version: 1 });
    expect(back.playbook).toMatchObject({ version: 3, instructions: "Open the cart.\nPay." });
    expect((await alice.console.listPlaybookVersions({ name: "checkout" })).versions.map((v) => v.version)).toEqual([3, 2, 1]);
    const m = await alice.console.matchPlaybooks({ task: "place an order", url: "https://shop.example.com/cart" });
    expect(m.chosen).toBe("checkout@3");
    expect(m.matches[0]).toMatchObject({ name: "checkout", keywords: ["order"], urlPatterns: ["shop.example.com/*"], score: 4 });
    expect((await alice.console.matchPlaybooks({ task: "read the news" })).chosen).toBe("");
    const bob = await signedIn("bob");
    expect((await refusal(bob.console.listPlaybookVersions({ name: "checkout" }))).code).toBe(Code.NotFound);
  });

  it("stops a session before the model is called once the daily step quota is used, with the reason", async () => {
    await ensureUser(backend.db, "carol");
    const admin = await signedIn("local");
    await admin.console.setQuota({ userId: "carol", quota: { dailySteps: 2 } });
    const carol = await signedIn("carol");
    const { token } = await carol.console.createToken({ name: "t" });
    const agent = bearerAgent(token);
    const calls = model.requests.length;
    const { session } = await agent.createSession({ task: "Remember three things" });
    const r = await agent.step({ sessionId: session?.id ?? "" });
    expect(r.session?.status).toBe(SessionStatus.FAILED);
    expect(r.session?.reason).toMatch(/^Daily quota reached: 2 of 2 model calls used today\. The quota resets at \d{4}-\d\d-\d\d 00:00 UTC/);
    expect(model.requests.length - calls).toBe(2);
    const text = r.messages.at(-1);
    expect(text?.content.case === "text" ? text.content.value.text : "").toMatch(/^I stopped: Daily quota reached/);
    const usage = await carol.console.getUsage({});
    expect(usage).toMatchObject({ stepsToday: 2, quota: { dailySteps: 2 } });
    expect(usage.rows.map((x) => [x.model, x.steps])).toEqual([["script:m", 2]]);
    // A second session the same day stops at once; raising the quota lets it go on.
    const s2 = await agent.createSession({ task: "again" });
    expect((await agent.step({ sessionId: s2.session?.id ?? "" })).session?.status).toBe(SessionStatus.FAILED);
    expect(model.requests.length - calls).toBe(2);
    await admin.console.setQuota({ userId: "carol", quota: { dailySteps: 0 } });
    expect((await agent.step({ sessionId: s2.session?.id ?? "", input: { case: "userMessage", value: { text: "go on" } } })).session?.status).toBe(SessionStatus.COMPLETED);
    const users = await admin.console.listUsers({});
    expect(users.users.find((u) => u.account?.userId === "carol")?.stepsToday).toBeGreaterThanOrEqual(3);
  });
});
