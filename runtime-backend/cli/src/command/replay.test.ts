/**
 * Runs that replay without the model: `baton run` (in process, real Chromium, its own backend)
 * buys two large blue mugs on the Mugshop fixture with a model behind the real `openai` SDK and
 * saves the run as a script and a playbook; then replays it with --heal on the same shop (no
 * model call), from the playbook, and on a redesigned shop whose "Add to basket" became "Add to
 * cart" (that step goes to the model, through Responses, Chat Completions and Gemini in turn;
 * the rest replays). What the shop recorded in the page
 * (the order in sessionStorage) is checked by expectations added from the live page's state.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseScriptFile, type ScriptFile } from "@baton/sdk/script";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Playbook } from "@baton/gen/baton/v1/agent_pb";
import { chatWire, FakeLlmServer, geminiWire, responsesWire } from "@baton/backend/testing/fake-llm-server";
import { shopModel, shopTask } from "@baton/backend/testing/shop-model";
import { matchDetails } from "@baton/backend/loop";
import { openDb, listPlaybooks, summaryColumns, summaryFromRow } from "@baton/backend/store";
import { exitCodes, type RunDeps, runCommand } from "../run/run-command.js";
import { serveStatic } from "../run/static-server.js";

const dir = mkdtempSync(join(tmpdir(), "baton-replay-"));
const dataDir = join(dir, "data");
const saved = join(dir, "mugs.json");
let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await new FakeLlmServer(responsesWire).start();
});
afterAll(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

function deps(env: Record<string, string> = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${fake.url}/v1` }): RunDeps & { output(): string; errors(): string } {
  let out = "";
  let err = "";
  return {
    out: { write: (t: string) => (out += t) },
    err: { write: (t: string) => (err += t) },
    env,
    ask: async () => undefined,
    onInterrupt: () => () => undefined,
    output: () => out,
    errors: () => err,
  };
}

const shop = (site: string, model: string | false = "openai:gpt-4o-mini") => [
  shopTask, "--serve", `examples/replay/${site}`, "--start-url", "/index.html", "--data-dir", dataDir, ...(model ? ["--model", model] : []), "--json",
];

/** The JSON progress lines of a run. */
function events(d: { output(): string }): Record<string, unknown>[] {
  return d.output().trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The verdicts the store keeps on the sessions a run's events name (its heals), read once the run has closed the store. */
async function verdictsOf(ev: Record<string, unknown>[]): Promise<unknown[]> {
  const ids = ev.filter((e) => e.type === "session").map((e) => String(e.sessionId));
  expect(ids.length).toBeGreaterThan(0);
  const db = await openDb({ dataDir, owner: "replay.test" });
  try {
    const rows = await db.query(`select ${summaryColumns} from sessions where id = any($1)`, [ids]);
    return rows.map(summaryFromRow).map((s) => s.verdict);
  } finally {
    await db.close();
  }
}

// What the order in the page must say, checked in the page itself after each replay.
const orderHolds = [
  "JSON.parse(sessionStorage.getItem('order')).items.length === 1",
  "JSON.parse(sessionStorage.getItem('order')).items[0].qty === 2",
  "JSON.parse(sessionStorage.getItem('order')).items[0].size === 'Large'",
  "JSON.parse(sessionStorage.getItem('order')).items[0].id === 'blue-mug'",
  "JSON.parse(sessionStorage.getItem('order')).delivery.startsWith('Express')",
  "JSON.parse(sessionStorage.getItem('order')).name === 'Ada Lovelace'",
];

describe("baton run --save-script, then --script --heal", { timeout: 300_000 }, () => {
  let script: ScriptFile;

  it("records a model-driven run as a script of role + name targets with the expectations that held", async () => {
    fake.script(shopModel());
    const d = deps();
    const code = await runCommand([...shop("shop"), "--save-script", saved, "--save-playbook", "mugshop-order"], d);
    expect(d.errors()).toBe("");
    expect(code).toBe(exitCodes.done);
    // A snapshot, ten actions, done (and a look again if a page was slow).
    expect(fake.bodies.length).toBeGreaterThanOrEqual(12);
    script = parseScriptFile(readFileSync(saved, "utf8"), saved);
    const acting = script.turns.flatMap((t) => (t.calls ?? []).filter((c) => !["take_snapshot", "wait_for", "done"].includes(c.name)));
    expect(acting.map((c) => [c.name, (c.args as { ref?: { role: string; name: string } }).ref?.name])).toEqual([
      ["type_text", "Search products"],
      ["click", "Blue mug"],
      ["click", "Large"],
      ["click", "Increase quantity"],
      ["click", "Add to basket"],
      ["click", "Checkout"],
      ["type_text", "Full name"],
      ["type_text", "Email"],
      ["select_option", "Delivery"],
      ["click", "Place order"],
    ]);
    // No ref of the recording page is left: every target is a role and a name.
    expect(JSON.stringify(script)).not.toMatch(/"ref":"e\d+"/);
    expect(script.expect).toMatchObject({ url: "/confirmed\\.html$", text: ["Order confirmed"], answer: "Ordered two large blue mugs, express delivery." });
    // The URL each navigating step led to is that step's expectation.
    expect(script.turns.flatMap((t) => (t.expect?.url ? [t.expect.url] : []))).toEqual([
      "/product\\.html\\?id=blue-mug$",
      "/basket\\.html$",
      "/checkout\\.html$",
      "/confirmed\\.html$",
    ]);
    expect(events(d).some((e) => e.playbook === "mugshop-order@1")).toBe(true);
    // The state of the order, read from the live page, becomes part of what a replay must reach.
    script = { ...script, expect: { ...script.expect, js: orderHolds } };
    writeFileSync(saved, JSON.stringify(script));
  });

  it("replays it on the same shop with no model call at all", async () => {
    fake.script(shopModel());
    const d = deps();
    const code = await runCommand([...shop("shop"), "--script", saved, "--heal"], d);
    expect(d.errors()).toBe("");
    expect(code).toBe(exitCodes.done);
    expect(fake.bodies).toHaveLength(0);
    const ev = events(d);
    // Ten actions and the two waits after them.
    expect(ev.filter((e) => e.type === "replay_call" && !e.error).length).toBeGreaterThanOrEqual(12);
    expect(ev.find((e) => e.status === "completed")).toMatchObject({ heals: 0, modelCalls: 0 });
    expect(ev.at(-1)).toMatchObject({ expectations: "ok" });
  });

  it("replays it from the playbook it was stored as", async () => {
    fake.script(shopModel());
    const d = deps();
    const code = await runCommand([...shop("shop"), "--script", "playbook:mugshop-order", "--heal"], d);
    expect(d.errors()).toBe("");
    expect(code).toBe(exitCodes.done);
    expect(fake.bodies).toHaveLength(0);
  });

  it("stores a playbook that matches the served shop on whatever port it is served next", async () => {
    const db = await openDb({ dataDir, owner: "replay test" });
    let saved: Playbook | undefined;
    try {
      saved = (await listPlaybooks(db, "local")).find((p) => p.name === "mugshop-order");
    } finally {
      await db.close();
    }
    expect(saved?.urlPatterns).toEqual(["127.0.0.1:*/index.html"]);
    // The shop served again, on a port of its own: its start URL matches the stored pattern.
    const site = await serveStatic("examples/replay/shop");
    try {
      expect(matchDetails(saved as Playbook, `${shopTask} ${site.url}/index.html`).urlPatterns).toEqual(["127.0.0.1:*/index.html"]);
    } finally {
      await site.close();
    }
  });

  it("on a redesigned shop, hands only the step whose target is gone to the model, then finishes the replay", async () => {
    fake.script(shopModel());
    const d = deps();
    const code = await runCommand([...shop("shop-v2"), "--script", saved, "--heal"], d);
    expect(d.errors()).toBe("");
    expect(code).toBe(exitCodes.done);
    const ev = events(d);
    const heals = ev.filter((e) => e.type === "heal_start");
    expect(heals).toEqual([expect.objectContaining({ reason: 'no button "Add to basket" on the page' })]);
    expect(ev.find((e) => e.type === "heal_end")).toMatchObject({ ok: true, modelCalls: 3 });
    // Three model calls for the healed step: a snapshot, the click on "Add to cart", done.
    expect(fake.bodies).toHaveLength(3);
    const prompt = JSON.stringify(fake.bodies[0]);
    expect(prompt).toContain("You are repairing one step");
    expect(prompt).toContain('as recorded: click(ref=button \\"Add to basket\\")');
    expect(prompt).toContain("Do not do the later steps");
    // The moved search box, the reordered native radios and the reordered form replayed by role and name.
    expect(ev.filter((e) => e.type === "replay_call" && e.error)).toEqual([]);
    expect(ev.at(-1)).toMatchObject({ expectations: "ok" });
    // The heal's session carries the replay's verdict.
    expect(await verdictsOf(ev)).toEqual([{ passed: true, reason: "" }]);
  });

  it("on a redesigned shop where the script's end no longer holds, fails, and the heal's session says what did not hold", async () => {
    fake.script(shopModel());
    const strict = join(dir, "mugs-strict.json");
    writeFileSync(strict, JSON.stringify({ ...script, expect: { ...script.expect, text: [...(script.expect?.text ?? []), "Thank you, Grace Hopper"] } }));
    const d = deps();
    const code = await runCommand([...shop("shop-v2"), "--script", strict, "--heal"], d);
    expect(code).toBe(exitCodes.failed);
    const ev = events(d);
    expect(ev.find((e) => e.type === "heal_end")).toMatchObject({ ok: true });
    expect(d.errors()).toContain('expected text "Thank you, Grace Hopper" on the page, not found');
    // The healed step itself completed; the replay it served (and any heal of its end state) did
    // not reach the script's end: every heal's session says so.
    const verdicts = await verdictsOf(ev);
    for (const v of verdicts) {
      expect(v).toEqual({ passed: false, reason: expect.stringMatching(/^the replay of the script failed: .*expected text "Thank you, Grace Hopper" on the page, not found/) });
    }
  });

  // The heal is a model session like any other: through Chat Completions and Gemini too.
  for (const [wire, model, env] of [
    [chatWire, "chat:gpt-4o-mini", (url: string) => ({ BATON_CHAT_API_KEY: "sk-test", BATON_CHAT_BASE_URL: `${url}/v1` })],
    [geminiWire, "gemini:gemini-2.0-flash", (url: string) => ({ GEMINI_API_KEY: "AIza-test", GEMINI_BASE_URL: url })],
  ] as const) {
    it(`heals that step through ${model.split(":")[0]} (the real SDK against its wire)`, async () => {
      const server = await new FakeLlmServer(wire).start();
      try {
        server.script(shopModel());
        const d = deps(env(server.url));
        const code = await runCommand([...shop("shop-v2", model), "--script", saved, "--heal"], d);
        expect(d.errors()).toBe("");
        expect(code).toBe(exitCodes.done);
        expect(events(d).find((e) => e.type === "heal_end")).toMatchObject({ ok: true, modelCalls: 3 });
        expect(server.bodies).toHaveLength(3);
        expect(JSON.stringify(server.bodies[0])).toContain("You are repairing one step");
        expect(events(d).at(-1)).toMatchObject({ expectations: "ok" });
      } finally {
        await server.stop();
      }
    });
  }

  it("fails, saying why, when a step fails and no model is configured to heal it", async () => {
    const d = deps({});
    const code = await runCommand([...shop("shop-v2", false), "--script", saved, "--heal"], d);
    expect(code).toBe(exitCodes.failed);
    expect(d.errors()).toContain('replay failed: step 7 could not be healed: no model can heal it: no model is configured');
    expect(events(d).find((e) => e.type === "replay_call" && String(e.call).includes("Add to basket"))).toBeUndefined();
  });
});
