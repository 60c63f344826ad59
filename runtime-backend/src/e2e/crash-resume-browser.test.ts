/**
 * A task in a real browser survives the backend being killed: `baton serve` runs as a child
 * process on an embedded store, is SIGKILLed while a model call is in flight, restarted on the
 * same data directory, and the client resumes the session with runTask({ sessionId }). The
 * fixture server counts clicks, so "nothing lost, nothing applied twice" is checked on the
 * site itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { createConnectTransport } from "@connectrpc/connect-node";
import { bearerToken, createBatonClient, runTask } from "@baton/sdk/client";
import type { Engine } from "@baton/sdk/engine";
import { checkExpectations, engineProbe } from "@baton/sdk/script";
import { type BackendProcess, startBackendProcess } from "@baton/cli/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Site, startSite } from "./fixtures/site.js";
import { type Browser, browserHandlers, startBrowser } from "./rig.js";

const token = "bt_e2e_resume_token_0123456789abcdef";
const clicks = 4;
/** The model call after this many clicks (and the snapshot after them) is slow: the kill lands inside it. */
const slowAfter = 2;
const add = { name: "click", args: { ref: { role: "button", name: "Add one" } } };
// Clicks and snapshots take turns. A step's tool results are committed together with the model
// turn they cause, so the results of the step in flight when the backend dies are lost and a
// resumed client runs those calls again: here that is a snapshot, which is safe to repeat.
const script = {
  turns: [
    { text: "<goal>Click four times</goal>", calls: [{ name: "take_snapshot" }] },
    ...Array.from({ length: clicks }, (_, i) => [
      { calls: [add], ...(i === slowAfter ? { delayMs: 4_000 } : {}) },
      { calls: [{ name: "take_snapshot" }] },
    ]).flat(),
    { calls: [{ name: "done", args: { answer: "Clicked four times." } }] },
  ],
};

const dir = mkdtempSync(join(tmpdir(), "baton-e2e-resume-"));
const scriptFile = join(dir, "script.json");
writeFileSync(scriptFile, JSON.stringify(script));
let site: Site;
let browser: Browser;
let engine: Engine | undefined;
const procs: BackendProcess[] = [];
beforeAll(async () => {
  site = await startSite();
  browser = await startBrowser();
});
afterAll(async () => {
  for (const p of procs) await p.kill("SIGKILL");
  engine?.dispose();
  await browser?.close();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<BackendProcess> {
  const p = await startBackendProcess(["--data-dir", join(dir, "data"), "--script-dir", dir, "--model", `script:${scriptFile}`], { BATON_API_TOKEN: token });
  procs.push(p);
  return p;
}

// Two `baton serve` processes start (and one creates its store) on shared cores: allow time.
describe("resume after the backend is killed", { timeout: 180_000 }, () => {
  it("kills `baton serve` mid-task, restarts it on the same store, and the resumed run finishes with every click exactly once", async () => {
    engine = await browser.page();
    const first = await start();
    let sessionId = "";
    let clicked = 0;
    const handlers = browserHandlers(engine);
    // connect-node rather than fetch: a response cut by SIGKILL then fails this call only.
    const transport = createConnectTransport({ baseUrl: first.url, httpVersion: "1.1", interceptors: [bearerToken(token)] });
    const killed = runTask(createBatonClient({ transport }), {
      task: "Click 'Add one' four times",
      startUrl: `${site.a}/counter`,
      retry: { attempts: 2, baseMs: 50, maxMs: 100 },
      onEvent: (e) => {
        if (e.type === "session") sessionId = e.session.id;
      },
      handlers: {
        ...handlers,
        click: async (p, ctx) => {
          const r = await handlers.click(p, ctx);
          clicked++;
          return r;
        },
      },
    });
    // Wait until the slow model call is under way (its turn's results are committed), then kill.
    const until = Date.now() + 30_000;
    while (clicked < slowAfter && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(clicked).toBe(slowAfter);
    await new Promise((r) => setTimeout(r, 1_500));
    await first.kill("SIGKILL");
    await expect(killed).rejects.toThrow();
    expect(site.state.count).toBe(slowAfter);

    const second = await start();
    const client = createBatonClient({ baseUrl: second.url, token });
    const resumed: string[] = [];
    const outcome = await runTask(client, {
      sessionId,
      handlers: browserHandlers(engine),
      onEvent: (e) => resumed.push(e.type === "tool_start" ? e.tool.name : e.type),
    });
    expect(resumed[0]).toBe("session");
    // The resumed run repeated only the lost snapshot, then ran the remaining clicks.
    const tools = resumed.filter((t) => t === "click" || t === "take_snapshot");
    expect(tools[0]).toBe("take_snapshot");
    expect(tools.filter((t) => t === "click")).toHaveLength(clicks - slowAfter);
    expect(outcome.status).toBe("completed");
    expect(outcome.answer).toBe("Clicked four times.");
    // Every scripted click reached the site exactly once, and the page shows it.
    expect(site.state.count).toBe(clicks);
    expect(await checkExpectations({ text: [`Count: ${clicks}`] }, engineProbe(engine), outcome.answer)).toEqual([]);
    // The store has one trace per model turn, none lost or doubled across the restart.
    const got = await client.getSession({ sessionId });
    expect(got.session?.status).toBe(SessionStatus.COMPLETED);
    expect(got.traces.map((t) => t.step)).toEqual(Array.from({ length: 2 * clicks + 2 }, (_, i) => i + 1));
  });
});
