/**
 * The console's sessions list as a user reads it, in headless Chromium at 1280 and 800 px wide:
 * every session titled by the task the user typed (not the goal the model wrote), the whole
 * table inside the window with no sideways scrolling, and a filter that matches nothing saying
 * so. Screenshots of each width go to `.artifacts/console/` (the README's come from there).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService, SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { NavigateParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { type Engine, engineHandlers } from "@baton/sdk/engine";
import { type LaunchedChromium, launchChromium, openPage, WebSocketTransport } from "@baton/sdk/node";
import { engineProbe } from "@baton/sdk/script";
import { createModelResolver } from "@baton/backend/providers";
import { type Backend, startBackend } from "@baton/backend/server";
import { createSignInCode, ensureUser, issueToken } from "@baton/backend/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitCodes, runCommand } from "./run-command.js";

const root = resolve(import.meta.dirname, "../../../..");
const artifacts = join(root, ".artifacts/console");
let wrongPassword = "";
let backend: Backend;
let scripts = "";
let browser: LaunchedChromium;
let transport: WebSocketTransport;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A long task, as people type them, and the shorter goal the model wrote for it. */
const task = "Sign in to the staff portal as ada@example.com with the password in my vault, then download last month's invoices for the Riverton account";
const goal = "Download invoices";

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  scripts = mkdtempSync(join(tmpdir(), "baton-console-layout-"));
  writeFileSync(join(scripts, "done.json"), JSON.stringify({ turns: [{ text: `<goal>${goal}</goal>`, calls: [{ name: "done", args: { answer: "Downloaded 14 invoices." } }] }] }));
  writeFileSync(join(scripts, "a-script-with-a-rather-long-file-name-for-the-model-column.json"), JSON.stringify({ turns: [{ calls: [{ name: "done", args: { answer: "Done." } }] }] }));
  // What baton run names a script by (its absolute path), and a model error quoting a long URL.
  writeFileSync(
    join(scripts, "login_wrong_password_v2.json"),
    JSON.stringify({ turns: [{ error: { status: 400, message: "https://api.example.com/v1/responses?request_id=req_0123456789abcdef0123456789abcdef&attempt=1 answered: unsupported_parameter" } }] }),
  );
  backend = await startBackend({ port: 0, resolveModel: createModelResolver({ ...process.env, BATON_SCRIPT_DIR: scripts }), defaultModel: "script:done.json", console: true });
  await ensureUser(backend.db, "local", "Ada Lovelace");
  const { token } = await issueToken(backend.db, "local", { name: "test", source: "cli" });
  const auth = (next: never) => (req: { header: Headers }) => (req.header.set("authorization", `Bearer ${token}`), (next as (r: unknown) => unknown)(req));
  const agent = createClient(AgentService, createConnectTransport({ baseUrl: backend.server.url, httpVersion: "1.1", interceptors: [auth as never] }));
  for (const [t, model] of [
    [task, "script:done.json"],
    ["Find the cheapest direct flight to Oslo next Friday and hold it for 24 hours", "script:a-script-with-a-rather-long-file-name-for-the-model-column.json"],
    ["Rename the workspace to Acme Research", "script:done.json"],
    ["Sign in as ada@example.com", `script:${join(scripts, "login_wrong_password_v2.json")}`],
  ] as const) {
    const { session } = await agent.createSession({ task: t, model });
    const r = await agent.step({ sessionId: session?.id ?? "" });
    expect(r.session?.status).toBe(model.includes("wrong") ? SessionStatus.FAILED : SessionStatus.COMPLETED);
  }
  // The README's example of a run whose expectations fail, run by `baton run` against this backend.
  copyFileSync(join(root, "examples/scripts/login-wrong-password.json"), join(scripts, "login-wrong-password.json"));
  let out = "";
  let err = "";
  const code = await runCommand(
    ["Sign in as ada@example.com", "--serve", join(root, "examples/scripts/site"), "--start-url", "/login.html", "--script", join(scripts, "login-wrong-password.json"), "--backend", backend.server.url, "--token", token, "--json"],
    { out: { write: (t: string) => void (out += t) }, err: { write: (t: string) => void (err += t) }, env: {}, ask: async () => undefined, onInterrupt: () => () => undefined },
  );
  expect(code, out + err).toBe(exitCodes.failed);
  expect(err).toContain("3 expectation(s) of the script did not hold");
  const events = out.trim().split("\n").map((l) => JSON.parse(l) as { type: string; sessionId?: string });
  wrongPassword = String(events.find((e) => e.type === "session")?.sessionId);
  // A verdict is for finished work only.
  const { session: idle } = await agent.createSession({ task: "Not started" });
  const early = await agent.reportVerdict({ sessionId: idle?.id ?? "", verdict: { passed: true } }).catch((e: unknown) => ConnectError.from(e));
  expect(early).toMatchObject({ code: Code.FailedPrecondition });
  browser = await launchChromium();
  transport = await WebSocketTransport.connect(browser.wsEndpoint);
}, 180_000);

afterAll(async () => {
  await transport?.close();
  await browser?.close();
  await backend?.close();
  if (scripts) rmSync(scripts, { recursive: true, force: true });
});

/** A signed-in page of the given width. */
async function signedIn(width: number): Promise<Engine> {
  const engine = await openPage(transport, { viewport: { width, height: 800 } });
  const { code } = await createSignInCode(backend.db, "local", 60_000);
  await engineHandlers(engine).navigate(create(NavigateParamsSchema, { url: `${backend.server.url}/sign-in#${code}` }), undefined);
  // A sign-in link trades its code only on a click that names the account.
  await until(engine, "the sign-in button", `[...document.querySelectorAll("button")].some((b) => /^(Sign in as |Go to the console)/.test(b.textContent))`);
  await engineProbe(engine).evaluate(`[...document.querySelectorAll("button")].find((b) => /^(Sign in as |Go to the console)/.test(b.textContent)).click()`);
  await until(engine, "the sessions list", `document.querySelectorAll("table.table tbody tr").length === 6`);
  return engine;
}

async function until(engine: Engine, what: string, expression: string): Promise<void> {
  const end = Date.now() + 15_000;
  while ((await engineProbe(engine).evaluate(expression)) !== true) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** How far the page and the list reach past the window's right edge, in CSS pixels (0: they fit). */
async function overflow(engine: Engine): Promise<{ page: number; table: number }> {
  return JSON.parse(
    String(
      await engineProbe(engine).evaluate(
        `JSON.stringify({ page: document.scrollingElement.scrollWidth - innerWidth, table: Math.max(0, ...[...document.querySelectorAll(".card, table.table")].map((e) => Math.ceil(e.getBoundingClientRect().right) - document.documentElement.clientWidth)) })`,
      ),
    ),
  );
}

async function shot(engine: Engine, name: string): Promise<void> {
  const r = await engine.page.send<{ data: string }>("Page.captureScreenshot", { format: "png" });
  writeFileSync(join(artifacts, `${name}.png`), Buffer.from(r.data, "base64"));
}

describe("the sessions list at the widths people use", { timeout: 120_000 }, () => {
  for (const width of [1280, 800]) {
    it(`fits ${width} px, titles each session with the user's words, and says when a filter matches nothing`, async () => {
      const engine = await signedIn(width);
      const titles = String(await engineProbe(engine).evaluate(`[...document.querySelectorAll("td.task a")].map((a) => a.textContent).join("\\n")`));
      expect(titles).toContain(task);
      expect(titles.split("\n")).not.toContain(goal);
      expect(await overflow(engine)).toEqual({ page: 0, table: 0 });
      await shot(engine, `sessions-${width}`);

      // The run whose expectations failed: failed, saying what did not hold, under the Failed filter too.
      const row = `[...document.querySelectorAll("tbody tr")].find((r) => r.querySelector("a").getAttribute("href") === "/sessions/${wrongPassword}")`;
      expect(await engineProbe(engine).evaluate(`${row}.querySelector(".pill").textContent`)).toBe("Failed");
      expect(String(await engineProbe(engine).evaluate(`${row}.querySelector(".reason").textContent`))).toMatch(/^Checked by the client: 3 expectation\(s\) of the script did not hold: expected text "Welcome back, Ada"/);
      await engineProbe(engine).evaluate(`[...document.querySelectorAll(".segmented button")].find((b) => b.textContent === "Failed").click()`);
      await until(engine, "the Failed list", `document.querySelectorAll("table.table tbody tr").length === 2`);
      expect(await engineProbe(engine).evaluate(`!!${row}`)).toBe(true);

      await engineProbe(engine).evaluate(`[...document.querySelectorAll(".segmented button")].find((b) => b.textContent === "Stopped").click()`);
      await until(engine, "the empty Stopped list", `!document.querySelector("table.table") && !!document.querySelector(".empty")`);
      const empty = String(await engineProbe(engine).evaluate(`document.querySelector(".empty").textContent`));
      expect(empty).not.toContain("No sessions yet");
      expect(empty).toContain("No stopped sessions");
      expect(await overflow(engine)).toEqual({ page: 0, table: 0 });

      // The failed run's own page: failed, what did not hold, and the agent's claim as its claim.
      await engineHandlers(engine).navigate(create(NavigateParamsSchema, { url: `${backend.server.url}/sessions/${wrongPassword}` }), undefined);
      await until(engine, "the failed session", `!!document.querySelector(".banner-bad") && !!document.querySelector(".tool")`);
      expect(await engineProbe(engine).evaluate(`document.querySelector(".page-header h1").textContent`)).toBe("Sign in as ada@example.com");
      expect(await engineProbe(engine).evaluate(`document.querySelector(".page-header .pill").textContent`)).toBe("Failed");
      expect(String(await engineProbe(engine).evaluate(`document.querySelector(".banner-bad").textContent`))).toContain("did not hold");
      expect(await engineProbe(engine).evaluate(`document.querySelector(".banner-ok")`)).toBe(null);
      expect((await overflow(engine)).page).toBe(0);
      await shot(engine, `session-failed-${width}`);
      await transport.send("Target.closeTarget", { targetId: engine.page.targetId });
    });
  }
});
