/**
 * The SDK's runTask against the real backend over real HTTP (connect-web's fetch transport):
 * the client side of the loop, stop, approvals, transport failures and resume. Tool handlers
 * here record what they are asked to do; the browser engine's own tests prove the browser side.
 */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { type CallJournal, createBatonClient, memoryJournal, type RunContext, type RunEvent, runTask } from "@baton/sdk/client";
import type { ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { afterEach, describe, expect, it } from "vitest";
import type { Script } from "../providers/script.js";
import { bearerAuth } from "../server/auth.js";
import { agentRoutes } from "../server/routes.js";
import { type RunningServer, serve } from "../server/serve.js";
import { createToken } from "../store/users.js";
import { scriptedAgent } from "../testing/harness.js";

interface Rig {
  url: string;
  token: string;
  model: Awaited<ReturnType<typeof scriptedAgent>>["model"];
  agent: Awaited<ReturnType<typeof scriptedAgent>>["agent"];
  close(): Promise<void>;
}
const rigs: Rig[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});

async function rig(script: Script, options: Parameters<typeof scriptedAgent>[1] = {}): Promise<Rig> {
  const { agent, db, model, close } = await scriptedAgent(script, options);
  const token = await createToken(db, "alice");
  const server: RunningServer = await serve({ routes: agentRoutes(agent, bearerAuth(db)) });
  const r = { url: server.url, token, model, agent, close: async () => (await server.close(), await close()) };
  rigs.push(r);
  return r;
}

/** Handlers that record every call; click results name the ref so the model's input shows it. */
function recorder(log: string[], overrides: Partial<ClientToolHandlers<RunContext>> = {}): ClientToolHandlers<RunContext> {
  const ok = (what: string) => async (p: object) => {
    const { ref, url } = p as { ref?: string; url?: string };
    log.push(`${what}${ref ? ` ${ref}` : ""}${url ? ` ${url}` : ""}`);
    return { evidence: { url: "http://127.0.0.1/page", title: `after ${what}` } };
  };
  const base: ClientToolHandlers<RunContext> = {
    navigate: async (p) => (log.push(`navigate ${p.url}`), { url: p.url, title: "Page" }),
    goBack: ok("go_back"),
    takeSnapshot: async () => (log.push("take_snapshot"), { text: '[e1] button "Buy"\n[e2] spinbutton "Quantity"', refCount: 2 }),
    click: ok("click"),
    typeText: async (p) => (log.push(`type_text ${p.ref} ${p.text}`), { value: p.text }),
    pressKeys: ok("press_keys"),
    scroll: ok("scroll"),
    selectOption: ok("select_option"),
    hover: ok("hover"),
    drag: ok("drag"),
    uploadFile: ok("upload_file"),
    waitFor: async () => ({ satisfied: true }),
    openTab: async () => ({ tab: { tabId: "t2", active: true } }),
    switchTab: async () => ({ tab: { tabId: "t1", active: true } }),
    closeTab: async () => ({ activeTabId: "t1" }),
    listTabs: async () => ({ activeTabId: "t1" }),
    screenshot: async () => ({}),
    extract: async () => ({ content: "# Page" }),
    setValue: async (p) => (log.push(`set_value ${p.ref} ${p.value}`), { value: p.value }),
    selectText: async (p) => (log.push(`select_text ${p.ref} ${p.text}`), { selected: p.text }),
    askUser: async (p) => (log.push(`ask_user ${p.question}`), { answer: "blue" }),
  };
  return { ...base, ...overrides };
}

const shopping: Script = {
  turns: [
    { text: "<goal>Buy the blue mug</goal>", calls: [{ name: "take_snapshot", args: {} }] },
    { calls: [{ name: "click", args: { ref: "e1" } }, { name: "type_text", args: { ref: "e2", text: "2" } }] },
    { calls: [{ name: "done", args: { answer: "Bought 2 blue mugs." } }] },
  ],
};

describe("runTask over HTTP", () => {
  it("runs a task to completion: tools in order, progress events, the final answer", async () => {
    const r = await rig(shopping);
    const log: string[] = [];
    const events: RunEvent[] = [];
    const client = createBatonClient({ baseUrl: r.url, token: r.token });
    const outcome = await runTask(client, {
      task: "Buy the blue mug",
      startUrl: "http://127.0.0.1:9/shop",
      handlers: recorder(log),
      onEvent: (e) => events.push(e),
    });
    expect(outcome.status).toBe("completed");
    expect(outcome.answer).toBe("Bought 2 blue mugs.");
    expect(log).toEqual(["navigate http://127.0.0.1:9/shop", "take_snapshot", "click e1", "type_text e2 2"]);
    const kinds = events.map((e) => e.type);
    expect(kinds[0]).toBe("session");
    expect(kinds).toContain("thinking");
    expect(events.filter((e) => e.type === "tool_end").map((e) => (e.type === "tool_end" ? e.tool.name : ""))).toEqual([
      "take_snapshot",
      "click",
      "type_text",
    ]);
    expect(kinds.at(-1)).toBe("done");
    // The model saw the start URL and each result.
    const first = JSON.stringify(r.model.requests[0]?.items);
    expect(first).toContain("The browser is open at http://127.0.0.1:9/shop");
    expect(JSON.stringify(r.model.requests[2]?.items)).toContain("after click");
  });

  it("resolves script targets written as role + name against the latest snapshot", async () => {
    const r = await rig({
      turns: [
        { calls: [{ name: "take_snapshot" }] },
        {
          calls: [
            { name: "type_text", args: { ref: { role: "spinbutton", name: "quantity" }, text: "2" } },
            { name: "click", args: { ref: { role: "button", name: "Buy" } } },
            { name: "click", args: { ref: { role: "button", name: "Pay" } } },
          ],
        },
        { calls: [{ name: "done", args: { answer: "ok" } }] },
      ],
    });
    const log: string[] = [];
    const outcome = await runTask(createBatonClient({ baseUrl: r.url, token: r.token }), {
      task: "Buy two",
      handlers: recorder(log),
    });
    expect(outcome.status).toBe("completed");
    expect(log).toEqual(["take_snapshot", "type_text e2 2", "click e1", 'click unresolved: button "Pay"']);
  });

  it("works with unary Step too", async () => {
    const r = await rig(shopping);
    const log: string[] = [];
    const outcome = await runTask(createBatonClient({ baseUrl: r.url, token: r.token }), {
      task: "Buy the blue mug",
      handlers: recorder(log),
      streaming: false,
    });
    expect(outcome.status).toBe("completed");
    expect(log).toEqual(["take_snapshot", "click e1", "type_text e2 2"]);
  });

  it("runs over Connect's JSON format too (the client's descriptors drive the JSON codec both ways)", async () => {
    for (const streaming of [true, false]) {
      const r = await rig(shopping);
      const log: string[] = [];
      const contentTypes = new Set<string>();
      const transport = createConnectTransport({
        baseUrl: r.url,
        useBinaryFormat: false,
        interceptors: [
          (next) => async (req) => {
            req.header.set("Authorization", `Bearer ${r.token}`);
            const res = await next(req);
            contentTypes.add(res.header.get("content-type") ?? "");
            return res;
          },
        ],
      });
      const outcome = await runTask(createBatonClient({ transport }), { task: "Buy the blue mug", handlers: recorder(log), streaming });
      expect(outcome.status).toBe("completed");
      expect(outcome.answer).toBe("Bought 2 blue mugs.");
      expect(log).toEqual(["take_snapshot", "click e1", "type_text e2 2"]);
      expect([...contentTypes].every((t) => t.includes("json"))).toBe(true);
      expect(contentTypes.size).toBeGreaterThan(0);
    }
  });

  it("stops mid-task: no further tools run, no results are sent, the session is stopped", async () => {
    const r = await rig(shopping);
    const log: string[] = [];
    const stop = new AbortController();
    const client = createBatonClient({ baseUrl: r.url, token: r.token });
    const outcome = await runTask(client, {
      task: "Buy the blue mug",
      signal: stop.signal,
      handlers: recorder(log, {
        click: async (p) => {
          log.push(`click ${p.ref}`);
          stop.abort();
          return {};
        },
      }),
    });
    expect(outcome.status).toBe("stopped");
    expect(log).toEqual(["take_snapshot", "click e1"]);
    const got = await client.getSession({ sessionId: outcome.sessionId });
    expect(got.session?.status).toBe(SessionStatus.STOPPED);
    expect(r.model.requests.length).toBe(2);
  });

  it("survives lost responses: retries re-post the same results and no tool runs twice", async () => {
    const r = await rig(shopping);
    const log: string[] = [];
    let failures = 0;
    // Every other Step reaches the server and is applied, but its response is lost.
    const lossy: Interceptor = (next) => async (req) => {
      const res = await next(req);
      if (req.method.name === "Step" && failures++ % 2 === 0) {
        throw new ConnectError("connection reset (simulated)", Code.Unavailable);
      }
      return res;
    };
    const transport = createConnectTransport({
      baseUrl: r.url,
      useBinaryFormat: true,
      interceptors: [
        (next) => async (req) => (req.header.set("Authorization", `Bearer ${r.token}`), next(req)),
        lossy,
      ],
    });
    const retries: RunEvent[] = [];
    const outcome = await runTask(createBatonClient({ transport }), {
      task: "Buy the blue mug",
      handlers: recorder(log),
      streaming: false,
      retry: { attempts: 5, baseMs: 5, maxMs: 20 },
      onEvent: (e) => e.type === "retry" && retries.push(e),
    });
    expect(outcome.status).toBe("completed");
    expect(log).toEqual(["take_snapshot", "click e1", "type_text e2 2"]);
    expect(retries.length).toBeGreaterThanOrEqual(2);
    expect(r.model.requests.length).toBe(3);
  });

  /**
   * Runs `shopping` until the connection drops while the click runs (a run that loses its
   * backend for good and gives up); resolves to the session id.
   */
  async function loseBackendMidClick(r: Rig, log: string[], journal?: CallJournal): Promise<string> {
    let alive = true;
    const cut: Interceptor = (next) => async (req) => {
      if (!alive) throw new ConnectError("backend unreachable (simulated)", Code.Unavailable);
      return next(req);
    };
    const transport = createConnectTransport({
      baseUrl: r.url,
      useBinaryFormat: true,
      interceptors: [(next) => async (req) => (req.header.set("Authorization", `Bearer ${r.token}`), next(req)), cut],
    });
    let sessionId = "";
    const first = runTask(createBatonClient({ transport }), {
      task: "Buy the blue mug",
      ...(journal ? { journal } : {}),
      onEvent: (e) => {
        if (e.type === "session") sessionId = e.session.id;
      },
      streaming: false,
      retry: { attempts: 2, baseMs: 5, maxMs: 10 },
      handlers: recorder(log, {
        click: async (p) => {
          log.push(`click ${p.ref}`);
          alive = false; // the connection drops while the click runs
          return {};
        },
      }),
    });
    await expect(first).rejects.toMatchObject({ code: Code.Unavailable });
    expect(r.model.requests.length).toBe(2);
    expect(sessionId).not.toBe("");
    return sessionId;
  }

  it("resumes a session after the client lost the backend: pending calls run and the task completes", async () => {
    const r = await rig(shopping);
    const log: string[] = [];
    const sessionId = await loseBackendMidClick(r, log);
    const client = createBatonClient({ baseUrl: r.url, token: r.token });
    const resumed: RunEvent[] = [];
    const outcome = await runTask(client, { sessionId, handlers: recorder(log), onEvent: (e) => resumed.push(e) });
    expect(outcome.status).toBe("completed");
    expect(resumed[0]).toMatchObject({ type: "session", resumed: true });
    // The lost client ran click and type_text, but their results never reached the backend,
    // so the resumed client runs both again; the backend took one result per call and the
    // model ran exactly 3 turns.
    expect(log).toEqual(["take_snapshot", "click e1", "type_text e2 2", "click e1", "type_text e2 2"]);
    expect(r.model.requests.length).toBe(3);
  });

  it("with a journal, a resumed run sends the results the lost run recorded instead of repeating the calls", async () => {
    const r = await rig(shopping);
    const log: string[] = [];
    const journal = memoryJournal();
    const sessionId = await loseBackendMidClick(r, log, journal);
    // The click and the typing were recorded with their results; the snapshot, read-only, was not.
    expect(await journal.get(sessionId, "call_2_0")).toMatchObject({ state: "done" });
    expect(await journal.get(sessionId, "call_2_1")).toMatchObject({ state: "done" });
    expect(await journal.get(sessionId, "call_1_0")).toBeUndefined();
    const replayed: string[] = [];
    const outcome = await runTask(createBatonClient({ baseUrl: r.url, token: r.token }), {
      sessionId,
      journal,
      handlers: recorder(log),
      onEvent: (e) => {
        if (e.type === "tool_replayed") replayed.push(e.toolcallId);
      },
    });
    expect(outcome.status).toBe("completed");
    // Each call ran once; the resumed run sent the two recorded results.
    expect(log).toEqual(["take_snapshot", "click e1", "type_text e2 2"]);
    expect(replayed).toEqual(["call_2_0", "call_2_1"]);
    expect(r.model.requests.length).toBe(3);
    // The session ended, so the journal let its entries go.
    expect(journal.get(sessionId, "call_2_0")).toBeUndefined();
  });

  /** Starts a run whose `hang` tool never finishes (until `stop`), and resumes the session beside it. */
  async function cutOffMidCall(hang: "click" | "takeSnapshot"): Promise<{ log: string[]; r: Rig; outcome: Awaited<ReturnType<typeof runTask>> }> {
    const r = await rig(shopping);
    const log: string[] = [];
    const journal: CallJournal = memoryJournal();
    const stop = new AbortController();
    let sessionId = "";
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const hanging = async (_p: unknown, ctx: RunContext): Promise<never> => {
      log.push(`${hang} (cut off)`);
      entered();
      await new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("the process died"))));
      throw new Error("unreachable");
    };
    const first = runTask(createBatonClient({ baseUrl: r.url, token: r.token }), {
      task: "Buy the blue mug",
      journal,
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === "session") sessionId = e.session.id;
      },
      handlers: recorder(log, { [hang]: hanging }),
    });
    await inside;
    // The first run is stuck inside the call, as if its process had died there.
    const outcome = await runTask(createBatonClient({ baseUrl: r.url, token: r.token }), { sessionId, journal, handlers: recorder(log) });
    stop.abort();
    await first.catch(() => undefined);
    return { log, r, outcome };
  }

  it("with a journal, a mutating call cut off mid-run is answered INTERRUPTED, not run again", async () => {
    const { log, r, outcome } = await cutOffMidCall("click");
    expect(outcome.status).toBe("completed");
    expect(log).toEqual(["take_snapshot", "click (cut off)", "type_text e2 2"]);
    expect(JSON.stringify(r.model.requests[2]?.items)).toMatch(/may or may not have taken effect/);
  });

  it("with a journal, a read-only call cut off mid-run simply runs again", async () => {
    const { log, r, outcome } = await cutOffMidCall("takeSnapshot");
    expect(outcome.status).toBe("completed");
    expect(log).toEqual(["takeSnapshot (cut off)", "take_snapshot", "click e1", "type_text e2 2"]);
    expect(JSON.stringify(r.model.requests[1]?.items)).not.toMatch(/may or may not/);
  });
});
