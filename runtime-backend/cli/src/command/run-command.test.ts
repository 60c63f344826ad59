/**
 * `baton run`: the real binary on a local page (exit codes and output), broken expectations,
 * a model-driven run through the Anthropic SDK against a fake Messages server, approvals without
 * a terminal, Ctrl-C, the missing-keys message, and the progress wording.
 * Browser runs use real headless Chromium and the in-process backend on a temp data directory.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { SessionSchema } from "@baton/gen/baton/v1/descriptors";
import { afterAll, describe, expect, it } from "vitest";
import { startBackendProcess } from "../testing/backend-process.js";
import { describeCall } from "@baton/sdk/client";
import { createProgress, displayText } from "../run/progress.js";
import { approvalPrompt, askUserHandler, noTtyDenial } from "../run/prompts.js";
import { serveStatic } from "../run/static-server.js";
import { launchChromium, WebSocketTransport } from "@baton/sdk/node";
import { anthropicWire, FakeLlmServer } from "@baton/backend/testing/fake-llm-server";
import { latestSnapshot } from "@baton/backend/testing/sent-prompt";
import { shopModel, shopTask } from "@baton/backend/testing/shop-model";
import { exitCodes, type RunDeps, runCommand } from "../run/run-command.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const bin = join(root, "runtime-backend/cli/bin/baton.js");
const dir = mkdtempSync(join(tmpdir(), "baton-run-cmd-"));
const dataDir = join(dir, "data");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the real `baton run` binary; resolves with its exit code and output (capped at 170 s). */
function baton(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, "run", ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 170_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Deps for runCommand in this process: captured output, no terminal. */
function fakeDeps(env: Record<string, string | undefined> = {}, onOut?: (all: string, interrupt: () => void) => void): RunDeps & { output(): string; errors(): string } {
  let out = "";
  let err = "";
  let interrupt = () => undefined as void;
  return {
    out: { write: (t: string) => ((out += t), onOut?.(out, interrupt)) },
    err: { write: (t: string) => (err += t) },
    env,
    ask: async () => undefined,
    onInterrupt(handler) {
      interrupt = handler;
      return () => undefined;
    },
    output: () => out,
    errors: () => err,
  };
}

const login = ["Sign in as ada@example.com", "--serve", "examples/scripts/site", "--start-url", "/login.html", "--data-dir", dataDir];

// Each run starts a backend (creating its embedded store the first time) and Chromium; on two
// shared cores with other suites running in parallel that can take well over a minute.
const browserRun = { timeout: 180_000 };

describe("baton run (the binary)", browserRun, () => {
  it("runs the example script on the local page: exit 0, progress a person can follow, password never shown", async () => {
    const r = await baton([...login, "--script", "examples/scripts/login.json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Step 1 · Thinking…");
    expect(r.stdout).toMatch(/✓ Typing "ada@example.com" into 'Email' \(\d+ ms\)/);
    expect(r.stdout).toMatch(/✓ Typing •+ into 'Password'/);
    expect(r.stdout).toMatch(/✓ Clicking 'Sign in' \(\d+ ms\)/);
    expect(r.stdout).toContain("Finished in 3 step(s): Signed in as ada@example.com.");
    expect(r.stdout).toContain("✓ All expectations of the script hold");
    expect(r.stdout).not.toContain("correct horse");
    expect(r.stdout).not.toMatch(/bt_[\w-]{10,}/);
  });

  it("fails with a non-zero exit and names each expectation that did not hold", async () => {
    const script = join(dir, "wrong.json");
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          { calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "type_text", args: { ref: { role: "textbox", name: "Email" }, text: "ada@example.com" } }] },
          { calls: [{ name: "done", args: { answer: "Signed in." } }] },
        ],
        expect: { text: ["Welcome back, Ada"], url: "/account\\.html$" },
      }),
    );
    const r = await baton([...login, "--script", script, "--json"]);
    expect(r.code).toBe(exitCodes.failed);
    expect(r.stderr).toContain("2 expectation(s) of the script did not hold");
    expect(r.stderr).toContain('expected text "Welcome back, Ada" on the page, not found');
    expect(r.stderr).toMatch(/expected the URL to match \/\/account\\\.html\$\/, but it is http:\/\/127\.0\.0\.1:\d+\/login\.html/);
    // --json: every stdout line is a JSON event, ending with the broken expectations.
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; broken?: string[] });
    expect(events.map((e) => e.type)).toContain("tool_start");
    expect(events.find((e) => e.type === "done")).toMatchObject({ status: "completed" });
    expect(events.at(-1)?.broken).toHaveLength(2);
  });
});

describe("baton run --secret", browserRun, () => {
  it("types the secret from a file where the script says <secret>password</secret>, and never prints it", async () => {
    const pw = join(dir, "password.txt");
    writeFileSync(pw, "correct horse\n");
    const r = await baton([...login, "--script", "examples/scripts/login-secret.json", "--secret", `password=@${pw}`, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"expectations":"ok"');
    expect(r.stdout).not.toContain("correct horse");
    // On the command line, a value is refused before anything starts.
    const bad = await baton([...login, "--script", "examples/scripts/login-secret.json", "--secret", "password=correct horse"]);
    expect(bad.code).toBe(exitCodes.usage);
    expect(bad.stderr).toContain("not on the command line");
  });
});

describe("baton run --model anthropic:…", browserRun, () => {
  it("drives the Mugshop to a placed order through the Anthropic SDK against a fake Messages server, its thinking carried from step to step", async () => {
    const fake = await new FakeLlmServer(anthropicWire).start();
    try {
      // The stand-in model reads each request's latest snapshot; it thinks before each turn.
      const model = shopModel();
      fake.script((body) => {
        const r = model(body);
        return r.kind === "calls" ? { ...r, reasoning: `Step ${fake.bodies.length}: read the page, then act.` } : r;
      });
      const key = "sk-ant-e2e-never-printed-0123456789";
      const r = await baton(
        [shopTask, "--serve", "examples/replay/shop", "--start-url", "/index.html", "--data-dir", dataDir, "--model", "anthropic:claude-haiku-4-5", "--json"],
        { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: fake.url },
      );
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(events.find((e) => e.type === "done")).toMatchObject({ status: "completed", answer: "Ordered two large blue mugs, express delivery." });
      expect(r.stdout + r.stderr).not.toContain(key);
      // Every model call went over Anthropic's wire; the page the model saw last is the confirmation.
      expect(fake.paths.length).toBeGreaterThanOrEqual(12);
      expect(new Set(fake.paths)).toEqual(new Set(["/v1/messages"]));
      expect(latestSnapshot(fake.bodies.at(-1))).toContain('# Order confirmed');
      // Each later call answered the last turn with its thinking block (and signature) in front of its calls.
      for (const body of fake.bodies.slice(1) as { thinking?: unknown; messages: { role: string; content: { type: string; signature?: string }[] }[] }[]) {
        expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
        const turn = body.messages.find((m) => m.role === "assistant");
        expect(turn?.content[0]).toMatchObject({ type: "thinking", signature: "sig-thinking-0" });
        expect(turn?.content.some((c) => c.type === "tool_use")).toBe(true);
      }
    } finally {
      await fake.stop();
    }
  });
});

describe("baton run (in process)", browserRun, () => {
  const shop = join(dir, "shop");
  mkdirSync(shop, { recursive: true });
  writeFileSync(
    join(shop, "index.html"),
    `<!doctype html><title>Basket</title><h1>Basket</h1><button onclick="document.getElementById('r').textContent = 'Order placed #' + (++window.n)">Place order</button><p id="r"></p><script>window.n = 0</script>`,
  );
  const buy = join(dir, "buy.json");
  writeFileSync(
    buy,
    JSON.stringify({
      turns: [
        { calls: [{ name: "take_snapshot" }] },
        { calls: [{ name: "click", args: { ref: { role: "button", name: "Place order" }, irreversible: true } }] },
        { calls: [{ name: "done", args: { answer: "Done." } }] },
      ],
      expect: { text: ["Order placed #1"], js: ["window.n === 1"] },
    }),
  );
  const args = ["Buy it", "--serve", shop, "--script", buy, "--data-dir", dataDir];

  it("without a terminal, denies irreversible actions and says to pass --yes; with --yes, approves them", async () => {
    const denied = fakeDeps();
    expect(await runCommand(args, denied)).toBe(exitCodes.failed);
    expect(denied.output()).toContain(`✗ Denied click: ${noTtyDenial}`);
    expect(noTtyDenial).toContain("--yes");
    // The order was not placed: the script's expectation about the page says so.
    expect(denied.errors()).toContain('expected text "Order placed #1" on the page, not found');

    const approved = fakeDeps();
    expect(await runCommand([...args, "--yes"], approved)).toBe(exitCodes.done);
    expect(approved.output()).toContain("✓ Approved click");
    expect(approved.output()).toContain("✓ Clicking 'Place order' (irreversible)");
    expect(approved.output()).toContain("✓ All expectations of the script hold");
  });

  it("never opens a local file: open_tab to file: is refused and the model is told why", async () => {
    const peek = join(dir, "peek.json");
    writeFileSync(
      peek,
      JSON.stringify({
        turns: [
          { calls: [{ name: "open_tab", args: { url: "file:///etc/" } }, { name: "navigate", args: { url: "file:///etc/passwd" } }] },
          { calls: [{ name: "list_tabs" }, { name: "take_snapshot" }] },
          { calls: [{ name: "done", args: { answer: "Done." } }] },
        ],
      }),
    );
    const deps = fakeDeps();
    await runCommand(["Read my files", "--serve", shop, "--script", peek, "--data-dir", dataDir, "--json"], deps);
    const events = deps.output().trim().split("\n").map((l) => JSON.parse(l) as { type: string; name?: string; error?: string; result?: unknown });
    const errors = events.filter((e) => e.type === "tool_end" && e.error).map((e) => e.error);
    expect(errors).toEqual([expect.stringContaining("not file: URLs"), expect.stringContaining("not file: URLs")]);
    expect(deps.output()).not.toMatch(/root:x:0|Index of \/etc/);
  });

  it("remembers 'always on this site' answered at the terminal in the run's store: the next run on that site is not asked", async () => {
    const served = await serveStatic(shop);
    try {
      const store = join(dir, "remember-store");
      const args = ["Buy it", "--start-url", `${served.url}/`, "--script", buy, "--data-dir", store];
      const asked: string[] = [];
      const first = { ...fakeDeps(), ask: async (q: string) => (asked.push(q), "a") };
      expect(await runCommand(args, first)).toBe(exitCodes.done);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain(`[a] always on ${served.url}`);
      expect(first.output()).toContain("✓ Approved click");
      const second = { ...fakeDeps(), ask: async (q: string) => (asked.push(q), "n") };
      expect(await runCommand(args, second)).toBe(exitCodes.done);
      expect(asked).toHaveLength(1);
      expect(second.output()).toContain("✓ All expectations of the script hold");
    } finally {
      await served.close();
    }
  });

  it("--policy (YAML) with a read-only site: the page loads and is read, the click is refused with a tool error naming the file, nothing is placed", async () => {
    const policy = join(dir, "policy.yaml");
    writeFileSync(policy, "# the shop may be looked at, not changed\nread_only:\n  - 127.0.0.1\n");
    const tryBuy = join(dir, "try-buy.json");
    writeFileSync(
      tryBuy,
      JSON.stringify({
        turns: [
          { calls: [{ name: "take_snapshot" }] },
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Place order" } } }] },
          { calls: [{ name: "done", args: { answer: "Could not order." } }] },
        ],
        expect: { text: ["Basket"], js: ["window.n === 0"] },
      }),
    );
    const deps = fakeDeps();
    const code = await runCommand(["Buy it", "--serve", shop, "--script", tryBuy, "--data-dir", dataDir, "--policy", policy, "--json"], deps);
    const events = deps.output().trim().split("\n").map((l) => JSON.parse(l) as { type: string; tool?: string; error?: string; expectations?: string });
    const ends = events.filter((e) => e.type === "tool_end");
    // Read: the snapshot ran (and named the button the script then targets by role and name).
    expect(ends.find((e) => e.tool === "take_snapshot")).toMatchObject({ tool: "take_snapshot" });
    expect(ends.find((e) => e.tool === "take_snapshot")?.error).toBeUndefined();
    const refused = ends.find((e) => e.tool === "click")?.error ?? "";
    expect(refused).toContain("is a read-only site");
    expect(refused).toContain(`--policy ${policy}: read-only 127.0.0.1`);
    expect(refused).toContain("nothing was done");
    // The script's expectations: the page still shows the basket and no order was placed.
    expect(events.at(-1)).toMatchObject({ expectations: "ok" });
    expect(code).toBe(exitCodes.done);
  });

  it("rejects a bad --policy file with the file and the fault, before any browser opens", async () => {
    const bad = join(dir, "bad-policy.json");
    writeFileSync(bad, JSON.stringify({ readonly_sites: ["example.com"] }));
    const deps = fakeDeps();
    expect(await runCommand(["Buy it", "--serve", shop, "--script", buy, "--data-dir", dataDir, "--policy", bad], deps)).toBe(exitCodes.usage);
    expect(deps.errors()).toContain(`--policy ${bad}: unknown key "readonly_sites" (known: allowed, blocked, read_only)`);
  });

  it("stops cleanly on Ctrl-C: the session is stopped and the exit code is 130", async () => {
    const slow = join(dir, "slow.json");
    writeFileSync(
      slow,
      JSON.stringify({
        turns: [{ calls: [{ name: "take_snapshot" }] }, { calls: [{ name: "take_snapshot" }], delayMs: 3_000 }, { calls: [{ name: "done", args: { answer: "x" } }] }],
      }),
    );
    let pressed = false;
    const deps = fakeDeps({}, (all, interrupt) => {
      if (!pressed && all.includes("Step 2 · Thinking")) {
        pressed = true;
        interrupt();
      }
    });
    expect(await runCommand(["Wait", "--serve", shop, "--script", slow, "--data-dir", dataDir], deps)).toBe(exitCodes.interrupted);
    expect(deps.output()).toContain("Stopping…");
    expect(deps.output()).toMatch(/■ Stopped after \d step\(s\): stopped by the user/);
  });

  it("says exactly what to set when no model key is configured, before starting anything", async () => {
    const deps = fakeDeps({});
    expect(await runCommand(["Find the opening hours"], deps)).toBe(exitCodes.usage);
    for (const v of ["OPENAI_API_KEY", "GEMINI_API_KEY", "ANTHROPIC_API_KEY", "BATON_CHAT_BASE_URL", "--script"]) expect(deps.errors()).toContain(v);
    const named = fakeDeps({});
    expect(await runCommand(["x", "--model", "gemini:gemini-2.5-flash"], named)).toBe(exitCodes.usage);
    expect(named.errors()).toContain("set GEMINI_API_KEY or GOOGLE_API_KEY");
  });

  it("stops at --max-steps with exit 1 and the reason", async () => {
    const deps = fakeDeps();
    expect(await runCommand([...args, "--yes", "--max-steps", "1"], deps)).toBe(exitCodes.failed);
    expect(deps.errors()).toContain("failed: Reached the step limit (1).");
  });

  it("ends at --budget after the action in hand, with exit 1, the reason, and the spend shown after each step", async () => {
    const costly = join(dir, "costly.json");
    writeFileSync(
      costly,
      JSON.stringify({
        turns: [
          { calls: [{ name: "take_snapshot" }], usage: { input: 3000, output: 100 } },
          { calls: [{ name: "click", args: { ref: { role: "button", name: "Place order" }, irreversible: true } }], usage: { input: 3000, output: 100 } },
          { calls: [{ name: "done", args: { answer: "Done." } }] },
        ],
      }),
    );
    const deps = fakeDeps();
    expect(await runCommand(["Buy it", "--serve", shop, "--script", costly, "--data-dir", dataDir, "--yes", "--json", "--budget", "tokens=5000,time=10m"], deps)).toBe(exitCodes.failed);
    expect(deps.errors()).toBe("baton run: budget reached: 6,200 of 5,000 tokens used.\n");
    const events = deps.output().trim().split("\n").map((l) => JSON.parse(l) as { type: string; tool?: string; status?: string; spent?: { tokens: number }; budget?: unknown });
    expect(events.filter((e) => e.type === "spend").map((e) => e.spent?.tokens)).toEqual([3100, 6200]);
    expect(events.find((e) => e.type === "spend")?.budget).toEqual({ tokens: 5000, costUsd: 0, seconds: 600 });
    // The click handed out before the ceiling ran and was reported; then the run ended.
    const order = events.map((e) => (e.type === "tool_end" ? `${e.type}:${e.tool}` : e.type === "done" ? `done:${e.status}` : "")).filter(Boolean);
    expect(order).toEqual(["tool_end:take_snapshot", "tool_end:click", "done:budget_exhausted"]);
    const bad = fakeDeps();
    expect(await runCommand([...args, "--budget", "time=soon"], bad)).toBe(exitCodes.usage);
    expect(bad.errors()).toContain("--budget time=soon: give a duration, such as time=90s, time=15m or time=1h30m");
  });

  it("attaches to a running browser with --cdp-url and leaves it running", async () => {
    const chromium = await launchChromium();
    try {
      const deps = fakeDeps();
      expect(await runCommand([...args, "--yes", "--cdp-url", chromium.wsEndpoint], deps)).toBe(exitCodes.done);
      expect(chromium.process.exitCode).toBeNull();
      // Said once, at attach time: what an attached browser is not held to.
      expect(deps.errors().match(/baton run: attached to the browser at ws:\/\/\S+: .*not held: .*WebSockets/g)).toHaveLength(1);
      // Only the run's own page was closed; the browser still answers.
      const t = await WebSocketTransport.connect(chromium.wsEndpoint);
      const { targetInfos } = await t.send<{ targetInfos: { url: string }[] }>("Target.getTargets");
      expect(targetInfos.some((i) => i.url.startsWith("http://127.0.0.1"))).toBe(false);
      await t.close();
    } finally {
      await chromium.close();
    }
  });

  it("runs against a running backend with --backend and --token (the token is never printed)", async () => {
    const token = "bt_run_cmd_remote_0123456789abcdef";
    // The same store the other runs use (created once): with --backend this run opens none itself.
    // Its operator lets it read the example scripts (script models are off by default).
    const serve = await startBackendProcess(["--data-dir", dataDir, "--script-dir", join(root, "examples/scripts")], { BATON_API_TOKEN: token });
    try {
      const deps = fakeDeps();
      // Paths made absolute: this runs in the test process, whatever its working directory.
      const args = [...login.slice(0, 5), "--script", "examples/scripts/login.json", "--backend", serve.url, "--token", token];
      const code = await runCommand(args.map((a) => (a.startsWith("examples/") ? join(root, a) : a)), deps);
      expect(deps.errors()).toBe("");
      expect(code).toBe(exitCodes.done);
      expect(deps.output()).toContain(`Backend: ${serve.url}`);
      expect(deps.output()).toContain("✓ All expectations of the script hold");
      expect(deps.output() + deps.errors()).not.toContain(token);
    } finally {
      await serve.kill("SIGTERM");
    }
  });

  it("rejects bad usage and bad script files with where and why", async () => {
    const noTask = fakeDeps();
    expect(await runCommand(["--script", buy], noTask)).toBe(exitCodes.usage);
    expect(noTask.errors()).toContain("give the task");
    const bad = join(dir, "bad.json");
    writeFileSync(bad, '{"turns":[{"txt":"a"}]}');
    const badScript = fakeDeps();
    expect(await runCommand(["x", "--script", bad], badScript)).toBe(exitCodes.usage);
    expect(badScript.errors()).toContain(`${bad}: turns[0].txt: unknown key`);
    const noDir = fakeDeps();
    expect(await runCommand(["x", "--serve", join(dir, "missing"), "--script", buy], noDir)).toBe(exitCodes.usage);
    expect(noDir.errors()).toContain("is not a directory");
    // A backend that is not a URL is the command line's mistake, not an unreachable backend.
    const notUrl = fakeDeps();
    expect(await runCommand(["x", "--backend", "127.0.0.1:8787", "--token", "bt_x"], notUrl)).toBe(exitCodes.usage);
    expect(notUrl.errors()).toContain('--backend "127.0.0.1:8787" is not an http:// or https:// address, such as http://127.0.0.1:8787');
    const unreachable = fakeDeps();
    expect(await runCommand(["x", "--backend", "http://127.0.0.1:9", "--token", "bt_x"], unreachable)).toBe(exitCodes.unavailable);
    expect(unreachable.errors()).toContain("unreachable");
    expect(unreachable.errors()).not.toContain("bt_x");
  });
});

describe("progress wording", () => {
  const lookup = (ref: string) =>
    ({ e1: { role: "button", name: "Submit" }, e2: { role: "textbox", name: "Password" }, e3: { role: "textbox", name: "" } })[ref];
  const call = (init: Parameters<typeof create<typeof toolCatalog.call>>[1]) => create(toolCatalog.call, init);

  it("names elements from the latest snapshot and masks passwords", () => {
    expect(describeCall(call({ tool: { case: "click", value: { ref: "e1" } } }), lookup)).toBe("Clicking 'Submit'");
    expect(describeCall(call({ tool: { case: "click", value: { ref: "e1", irreversible: true } } }), lookup)).toBe("Clicking 'Submit' (irreversible)");
    expect(describeCall(call({ tool: { case: "typeText", value: { ref: "e2", text: "hunter2" } } }), lookup)).toBe("Typing ••••••• into 'Password'");
    expect(describeCall(call({ tool: { case: "typeText", value: { ref: "e3", text: "hi", pressEnter: true } } }), lookup)).toBe('Typing "hi" into the textbox e3 and pressing Enter');
    expect(describeCall(call({ tool: { case: "click", value: { ref: "e9" } } }), lookup)).toBe("Clicking e9");
    expect(describeCall(call({ tool: { case: "navigate", value: { url: "https://example.com/" } } }), lookup)).toBe("Opening https://example.com/");
  });

  it("prints what the session spent against its budget when it changes, and nothing without a budget", () => {
    let out = "";
    const p = createProgress("plain", { write: (t: string) => (out += t) }, lookup);
    const createdAt = { seconds: BigInt(Math.floor(Date.now() / 1000)), nanos: 0 };
    const session = (input: bigint, budget?: { tokens: bigint; costUsd: number }) =>
      create(SessionSchema, { id: budget ? "ses_1" : "ses_0", createdAt, usage: { inputTokens: input, outputTokens: 100n, costUsd: 0.0123 }, ...(budget ? { budget } : {}) });
    p.event({ type: "spend", session: session(900n) });
    expect(out).toBe("");
    p.event({ type: "spend", session: session(900n, { tokens: 5000n, costUsd: 0.5 }) });
    p.event({ type: "spend", session: session(900n, { tokens: 5000n, costUsd: 0.5 }) });
    p.event({ type: "spend", session: session(1900n, { tokens: 5000n, costUsd: 0.5 }) });
    expect(out).toBe("  Budget: 1,000 of 5,000 tokens used, $0.0123 of $0.50 spent\n  Budget: 2,000 of 5,000 tokens used, $0.0123 of $0.50 spent\n");
  });

  it("draws a spinner status on a TTY and keeps finished lines above it", () => {
    let out = "";
    const p = createProgress("tty", { write: (t: string) => (out += t), isTTY: true }, lookup);
    p.event({ type: "thinking" });
    const click = call({ tool: { case: "click", value: { ref: "e1" } } });
    p.event({ type: "tool_start", toolcallId: "c1", tool: toolCatalog.tools.click, call: click });
    p.event({ type: "tool_end", toolcallId: "c1", tool: toolCatalog.tools.click, ms: 42 });
    p.end();
    expect(out).toContain("Step 1 · Thinking…");
    expect(out).toContain("Step 1 · Clicking 'Submit'…");
    expect(out).toContain("\r\x1b[2K✓ Clicking 'Submit' (42 ms)\n");
    expect(out.endsWith("\r\x1b[2K")).toBe(true);
  });

  it("shows the model's words as they stream, line by line, and the whole text only when it did not stream", () => {
    let out = "";
    const p = createProgress("tty", { write: (t: string) => (out += t), isTTY: true }, lookup);
    p.event({ type: "thinking", attempt: 1 });
    p.event({ type: "reasoning_delta", delta: "Need the form" });
    expect(out).toContain("Step 1 · Thinking… Need the form");
    p.event({ type: "reasoning_delta", delta: ".\nThen submit." });
    p.event({ type: "text_delta", delta: "Filling in " });
    p.event({ type: "text_delta", delta: "the form." });
    expect(out).toContain("Thinking… Filling in the form.");
    p.event({ type: "reasoning", text: "Need the form.\nThen submit." });
    p.event({ type: "text", text: "Filling in the form." });
    p.end();
    const lines = out.split(/\r\x1b\[2K|\n/).filter((l) => l && !/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/.test(l));
    expect(lines).toEqual(["  · Need the form.", "  · Then submit.", "  Filling in the form."]);

    let plain = "";
    const q = createProgress("plain", { write: (t: string) => (plain += t) }, lookup);
    q.event({ type: "thinking" });
    q.event({ type: "text_delta", delta: "Half a line, " });
    // The model call is retried: what streamed is void, and the new attempt's text counts.
    q.event({ type: "thinking", attempt: 2 });
    q.event({ type: "text", text: "A different answer." });
    expect(plain).toBe("Step 1 · Thinking…\n  ↻ the model call is retried (attempt 2)\n  A different answer.\n");
  });

  it("asks y/n for approvals and ask_user questions at the terminal", async () => {
    const request = { toolcallId: "c1", tool: toolCatalog.tools.click, call: call({ tool: { case: "click", value: { ref: "e1", irreversible: true } } }), site: "https://shop.example", risk: "irreversible" as const, signal: new AbortController().signal };
    const asked: string[] = [];
    const answer = (a: string | undefined) => async (q: string) => (asked.push(q), a);
    const describe = () => "Clicking 'Submit'";
    expect(await approvalPrompt(false, answer("y"), describe, () => undefined)(request)).toMatchObject({ approved: true });
    expect(await approvalPrompt(false, answer("n"), describe, () => undefined)(request)).toMatchObject({ approved: false });
    expect(await approvalPrompt(false, answer(undefined), describe, () => undefined)(request)).toEqual({ approved: false, reason: noTtyDenial });
    expect(await approvalPrompt(true, answer("n"), describe, () => undefined)(request)).toMatchObject({ approved: true });
    const always = await approvalPrompt(false, answer("a"), describe, () => undefined)(request);
    expect(always).toMatchObject({ approved: true, scope: "site" });
    expect(always.expiresAt).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);
    expect(await approvalPrompt(false, answer("v"), describe, () => undefined)(request)).toMatchObject({ approved: false, scope: "site", reason: expect.stringContaining("https://shop.example") });
    // Without a site only this call can be decided: "a" is not "yes".
    expect(await approvalPrompt(false, answer("a"), describe, () => undefined)({ ...request, site: "" })).toMatchObject({ approved: false });
    expect(asked[0]).toContain("Clicking 'Submit'");
    expect(asked).toHaveLength(6);
    const q = create(toolCatalog.tools.ask_user.params, { question: "Which size?", choices: ["S", "M"] });
    expect(await askUserHandler(answer("M"), () => undefined)(q)).toEqual({ answer: "M" });
    expect(asked.at(-1)).toContain("Choices: S | M");
    expect((await askUserHandler(answer(undefined), () => undefined)(q)).answer).toMatch(/not available/);
  });

  it("shows the model's text without protocol tags", () => {
    expect(displayText("<goal>Buy a mug</goal>Opening the shop.\n<context>shop open</context>")).toBe("Goal: Buy a mug\nOpening the shop.");
  });
});
