/**
 * Secrets the model never sees, end to end: Chromium and the engine, runTask with secrets over
 * real HTTP, a backend on an embedded store on disk logging at debug level, and a "model"
 * that types placeholders, behind each real SDK (`openai` Responses and Chat Completions,
 * `@google/genai`) against a local server speaking its wire. The page really gets the values (the
 * server records them, the page echoes the key); then every prompt the model server received,
 * every row of every table, every file of the data directory, every log line, the client's
 * journal and every event the client saw are searched for them. A page that echoes a secret
 * transformed (form-encoded in the URL of a GET submit, upper-cased by CSS, spelled out one
 * character at a time) gets no form of it to the model either. The screenshots the model and
 * the store got have the key's field and its echo painted over.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createBatonClient, type RunEvent, runTask } from "@baton/sdk/client";
import { fileJournal } from "@baton/sdk/node";
import { paintShareExpression, type ShareBox } from "@baton/sdk/engine";
import { engineProbe, findTarget, snapshotRefs } from "@baton/sdk/script";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../log/logger.js";
import { startBackend } from "../server/app.js";
import { createToken, ensureUser } from "../store/users.js";
import { FakeLlmServer, type FakeReply } from "../testing/fake-llm-server.js";
import { providerApis } from "../testing/provider-apis.js";
import { latestSnapshot } from "../testing/sent-prompt.js";
import { tempDirs } from "../testing/temp-dirs.js";
import { browserHandlers, useBrowserRig } from "./rig.js";

const rig = useBrowserRig();
const dirs = tempDirs("baton-secrets-");
afterAll(() => dirs.removeAll());

const KEY = "tangerine-Walrus-42-quietly";

/** The viewport boxes of the settings page's key field and of the text that echoes the key. */
const keyBoxesExpression = `(() => {
  const box = (r) => ({ x: r.x, y: r.y, width: r.width, height: r.height });
  const saved = document.createRange();
  saved.selectNodeContents(document.getElementById("saved"));
  return document.getElementById("key") ? [box(document.getElementById("key").getBoundingClientRect()), box(saved.getBoundingClientRect())] : [];
})()`;
const PW = "correct horse  battery staple";

function ref(body: unknown, role: string, name: string): string {
  return findTarget(snapshotRefs(latestSnapshot(body)), { role, name }) ?? `missing ${role} ${name}`;
}

/** The model: reads the form, types both secrets by placeholder, saves, looks again, reads the text, finishes. */
const model: ((body: unknown) => FakeReply)[] = [
  () => ({ kind: "calls", calls: [{ name: "take_snapshot", args: "{}" }], text: "<goal>Save the API key</goal>" }),
  (b) => ({
    kind: "calls",
    calls: [
      { name: "type_text", args: JSON.stringify({ ref: ref(b, "textbox", "API key"), text: "<secret>api_key</secret>" }) },
      { name: "type_text", args: JSON.stringify({ ref: ref(b, "textbox", "Account password"), text: "<secret>password</secret>" }) },
      { name: "click", args: JSON.stringify({ ref: ref(b, "button", "Save") }) },
    ],
  }),
  () => ({ kind: "calls", calls: [{ name: "take_snapshot", args: '{"include_screenshot":true}' }] }),
  () => ({ kind: "calls", calls: [{ name: "extract", args: '{"format":"text"}' }, { name: "screenshot", args: "{}" }] }),
  () => ({ kind: "calls", calls: [{ name: "done", args: '{"answer":"Saved."}' }] }),
];

/** Every file under a directory, as bytes. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [{ path, bytes: readFileSync(path) }];
  });
}

/** A value serialised for searching: bytes as latin1 text (what they would spell); a tool spec by its name. */
function searchable(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (k, v) => {
    if (typeof v === "bigint") return v.toString();
    if (v instanceof Uint8Array) return Buffer.from(v).toString("latin1");
    if (k === "tool" && v && typeof v === "object" && "name" in v && "params" in v) return v.name;
    if (v && typeof v === "object") {
      if (seen.has(v)) return "[seen]";
      seen.add(v);
    }
    return v;
  });
}

/** The forms a leaked value could take: itself, squeezed, base64, hex. */
function leakForms(value: string): string[] {
  return [value, value.replace(/\s+/g, " "), Buffer.from(value).toString("base64"), Buffer.from(value).toString("hex")];
}

/** The model on the passphrase page: types the secret, submits the GET form, reads the answer. */
const passphraseModel: ((body: unknown) => FakeReply)[] = [
  () => ({ kind: "calls", calls: [{ name: "take_snapshot", args: "{}" }], text: "<goal>Check the passphrase</goal>" }),
  (b) => ({
    kind: "calls",
    calls: [
      { name: "type_text", args: JSON.stringify({ ref: ref(b, "textbox", "Passphrase"), text: "<secret>pp</secret>" }) },
      { name: "click", args: JSON.stringify({ ref: ref(b, "button", "Check") }) },
    ],
  }),
  () => ({ kind: "calls", calls: [{ name: "take_snapshot", args: "{}" }, { name: "extract", args: '{"format":"text"}' }] }),
  () => ({ kind: "calls", calls: [{ name: "done", args: '{"answer":"Checked."}' }] }),
];

const PP = 'Tr0ub4dor & 3/horse "x"';

async function runWithSecrets(
  origins: string[],
  api = providerApis[0]!,
  o: { model?: typeof model; task?: string; path?: string; secrets?: { name: string; value: string }[] } = {},
) {
  const dataDir = dirs.fresh();
  const logFile = join(dirs.fresh(), "backend.log");
  const journalFile = join(dirs.fresh(), "journal.jsonl");
  const server = await new FakeLlmServer(api.wire).start();
  server.script(...(o.model ?? model).map((m) => (body: unknown) => m(body)));
  const backend = await startBackend({
    port: 0,
    dataDir,
    resolveModel: () => ({ provider: api.make(server.url), model: api.model }),
    logger: createLogger({ level: "debug", destination: pino.destination({ dest: logFile, sync: true }) }),
  });
  await ensureUser(backend.db, "alice");
  const token = await createToken(backend.db, "alice");
  const engine = await rig.browser.page();
  const events: RunEvent[] = [];
  const journal = fileJournal(journalFile);
  try {
    const outcome = await runTask(createBatonClient({ baseUrl: backend.server.url, token }), {
      task: o.task ?? "Save my API key in the settings",
      startUrl: `${rig.site.a}${o.path ?? "/settings"}`,
      handlers: browserHandlers(engine),
      onEvent: (e) => events.push(e),
      journal,
      secrets: (o.secrets ?? [
        { name: "api_key", value: KEY },
        { name: "password", value: PW },
      ]).map((s) => ({ ...s, origins })),
      page: engineProbe(engine),
    });
    const pageText = await engineProbe(engine).text();
    // Where the key shows on the page now (the field, the echo's text), for the stored screenshots' pixels.
    const keyBoxes = (await engine.page.send<{ result: { value: ShareBox[] } }>("Runtime.evaluate", { expression: keyBoxesExpression, returnByValue: true })).result.value;
    const tables = await backend.db.query<{ name: string }>("select table_name as name from information_schema.tables where table_schema = 'public'");
    const rows: Record<string, unknown[]> = {};
    for (const t of tables) rows[t.name] = await backend.db.query(`select * from "${t.name}"`);
    // Every screenshot the backend stored (what the console shows), decoded by Chromium: the share of the paint over the key.
    const painted: number[][] = [];
    for (const shot of (rows.screenshots ?? []) as { mime_type: string; data: Uint8Array }[]) {
      const src = `data:${shot.mime_type};base64,${Buffer.from(shot.data).toString("base64")}`;
      painted.push((await engine.page.send<{ result: { value: number[] } }>("Runtime.evaluate", { expression: paintShareExpression(src, keyBoxes), awaitPromise: true, returnByValue: true })).result.value);
    }
    return { outcome, events, pageText, bodies: server.bodies, rows, dataDir, logFile, journalFile, painted };
  } finally {
    journal.close();
    await rig.browser.transport.send("Target.closeTarget", { targetId: engine.page.targetId }).catch(() => undefined);
    engine.dispose();
    await backend.close();
    await server.stop();
  }
}

describe("secrets", { timeout: 180_000 }, () => {
  it.each(providerApis)("are typed into the page and never reach the model ($name), the backend, its store, its files or its logs", async (api) => {
    const before = rig.site.state.settings.length;
    const r = await runWithSecrets([rig.site.a], api);
    expect(r.outcome.status).toBe("completed");
    // The page got the real values, and echoed the key into its text.
    expect(rig.site.state.settings.slice(before)).toEqual([{ key: KEY, pw: PW }]);
    expect(r.pageText).toContain(`Saved key: ${KEY}`);

    // The model was told the names, and read the field and the echo back as placeholders.
    const prompts = r.bodies.map(searchable).join("\n");
    expect(prompts).toContain("<secret>api_key</secret>");
    const after = latestSnapshot(r.bodies[3]);
    expect(after).toMatch(/textbox "API key" = "<secret>api_key<\/secret>"/);
    expect(after).toContain("Saved key: <secret>api_key</secret> (check it: <secret>api_key</secret>)");
    // The screenshots of the page holding the key reached the model and the store, with the
    // field and the echo painted over (the check fails on an unpainted shot: the field is white there).
    expect(prompts).toMatch(/input_image|image_url|inlineData|"type":"image"/);
    expect(prompts).not.toContain("withheld");
    expect(r.painted.length).toBe(2);
    for (const shares of r.painted) for (const share of shares) expect(share).toBeGreaterThan(0.95);

    const logs = readFileSync(r.logFile, "utf8");
    expect(logs.split("\n").length).toBeGreaterThan(10);
    const places: [string, string][] = [
      ["the prompts", prompts],
      ["the store's rows", searchable(r.rows)],
      ["the log", logs],
      ["the client's journal", readFileSync(r.journalFile, "utf8")],
      ["the client's events", searchable(r.events)],
      ...filesUnder(r.dataDir).map((f): [string, string] => [f.path, f.bytes.toString("latin1")]),
    ];
    expect(Object.keys(r.rows)).toEqual(expect.arrayContaining(["sessions", "history", "calls", "traces", "responses", "screenshots"]));
    for (const [where, text] of places) {
      for (const secret of [KEY, PW]) for (const form of leakForms(secret)) expect(text.includes(form), `${JSON.stringify(form)} in ${where}`).toBe(false);
    }
  });

  it("are typed only on their origins: elsewhere the typing fails and nothing reaches the page", async () => {
    const before = rig.site.state.settings.length;
    const r = await runWithSecrets([rig.site.b]);
    expect(r.outcome.status).toBe("completed");
    // Save was clicked with empty fields.
    expect(rig.site.state.settings.slice(before)).toEqual([{ key: "", pw: "" }]);
    const typed = r.events.filter((e) => e.type === "tool_end" && e.tool.name === "type_text");
    expect(typed.map((e) => (e.type === "tool_end" ? e.error?.message : ""))).toEqual([
      expect.stringContaining(`<secret>api_key</secret> may only be typed on ${rig.site.b}; this page is on ${rig.site.a}`),
      expect.stringContaining("<secret>password</secret> may only be typed on"),
    ]);
    const prompts = r.bodies.map(searchable).join("\n");
    expect(prompts).toContain("permission_denied");
    for (const secret of [KEY, PW]) expect(prompts).not.toContain(secret);
  });

  it("never reach the model when the page echoes them transformed: form-encoded in a GET submit's URL, upper-cased by CSS, spelled out", async () => {
    const r = await runWithSecrets([rig.site.a], providerApis[0], { model: passphraseModel, task: "Check my passphrase", path: "/passphrase", secrets: [{ name: "pp", value: PP }] });
    expect(r.outcome.status).toBe("completed");
    // The page got the value and echoed it in each form.
    const formEncoded = new URLSearchParams({ pp: PP }).toString();
    const spelled = [...PP].join(" ").replace(/\s+/g, " ");
    expect(r.pageText).toContain(PP.toUpperCase());
    expect(r.pageText).toContain(spelled);
    // The model read each echo as the placeholder: in the click's evidence URL and in the snapshot after it.
    const prompts = r.bodies.map(searchable).join("\n");
    // (Soft: each form that leaks is reported.)
    expect.soft(prompts).toContain(`/passphrase?pp=<secret>pp</secret>`);
    expect.soft(latestSnapshot(r.bodies[3])).toMatch(/"You sent"\n"<secret>pp<\/secret>"/);
    expect.soft(latestSnapshot(r.bodies[3])).toContain("Spelled out: <secret>pp</secret>");
    const forms = [PP, formEncoded.slice(3), encodeURIComponent(PP), PP.toUpperCase(), spelled, spelled.toUpperCase(), "Tr0ub4dor", "TR0UB4DOR", "T r 0 u b 4"];
    for (const [where, text] of [["the prompts", prompts], ["the client's events", searchable(r.events)], ["the client's journal", readFileSync(r.journalFile, "utf8")]] as const) {
      for (const form of forms) expect.soft(text.includes(form) || text.toLowerCase().includes(form.toLowerCase()), `${JSON.stringify(form)} in ${where}`).toBe(false);
    }
  });
});
