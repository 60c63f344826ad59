import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { builtinSuiteDir, filterTasks, loadSuite, tasksOnVia } from "./suite.js";
import { parseTask, TaskError } from "./task.js";
import { placeOriginsIn } from "./task-trust.js";

const dir = mkdtempSync(join(tmpdir(), "baton-eval-task-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ok = { name: "shop/x", goal: "Buy it", site: "shop", state: { expect: { a: 1 } } };

describe("suite files", () => {
  it("reads a task with defaults", () => {
    const t = parseTask({ ...ok, setup: { path: "/api/seed", body: { n: 1 } }, js: "window.ok" }, "s.jsonl:1");
    expect(t).toMatchObject({ name: "shop/x", goal: "Buy it", site: "shop", js: ["window.ok"], approve: true, maxSteps: 30, timeoutMs: 60_000 });
    expect(t.setup).toEqual([{ method: "POST", path: "/api/seed", body: { n: 1 } }]);
    expect(t.state).toEqual({ path: "/api/state", expect: { a: 1 } });
  });

  it("names the line, the task and the key of every mistake", () => {
    const bad = (raw: unknown) => {
      try {
        parseTask(raw, "s.jsonl:7");
      } catch (e) {
        expect(e).toBeInstanceOf(TaskError);
        return (e as Error).message;
      }
      throw new Error("accepted");
    };
    expect(bad({ ...ok, colour: "red" })).toBe(
      's.jsonl:7 (shop/x): unknown key "colour" (known: name, goal, site, start_url, script, setup, js, url, state, answer, tool_calls, max_steps, timeout_ms, approve, user_reply, tags, policy, other_site, secrets, budget, status, approvals, masked, vias, restart_backend)',
    );
    expect(bad({ goal: "x" })).toBe('s.jsonl:7: "name" is required');
    expect(bad({ name: "a", goal: "x", site: "shop" })).toContain("a task needs at least one check");
    expect(bad({ name: "a", goal: "x", start_url: "/cart", answer: "y" })).toContain('"start_url" "/cart" is a path: name the "site"');
    expect(bad({ ...ok, url: "(" })).toContain('"url" is not a valid regular expression');
    expect(bad({ ...ok, max_steps: 0 })).toContain('"max_steps" must be a whole number from 1 to 1000');
    expect(bad({ ...ok, setup: [{ path: "api" }] })).toContain('"setup[0].path" must be a path starting with "/"');
    expect(bad({ ...ok, setup: [{ path: "/a", method: "FETCH" }] })).toContain('"setup[0].method" must be one of');
    expect(bad({ ...ok, state: { path: "/s" } })).toContain('"state" must be an object with "expect"');
    expect(bad({ name: "a", goal: "x", start_url: "https://example.com", state: { expect: {} } })).toContain('"state" reads the task\'s site');
    expect(bad({ ...ok, name: "has space" })).toContain('"name" may hold letters');
    expect(bad([1])).toBe("s.jsonl:7: a task must be a JSON object");
  });

  it("reads the trust keys, and names the key of every mistake in them", () => {
    const t = parseTask(
      {
        ...ok,
        other_site: "ads",
        policy: { read_only: ["{site}"], blocked: "{other_site}" },
        secrets: { otp: "totp:JBSWY3DPEHPK3PXP", pin: { value: "1234", origins: ["*"] } },
        budget: "tokens=1500,time=30s",
        status: "budget_exhausted",
        approve: "always",
        approvals: 1,
        masked: ["#pin"],
        vias: ["headless"],
        restart_backend: true,
      },
      "s.jsonl:1",
    );
    expect(t.approve).toBe(true);
    expect(t.trust).toEqual({
      policy: { read_only: ["{site}"], blocked: ["{other_site}"] },
      otherSite: "ads",
      secrets: [
        { name: "otp", value: "JBSWY3DPEHPK3PXP", totp: true, origins: ["{site}"] },
        { name: "pin", value: "1234", totp: false, origins: ["*"] },
      ],
      budget: { tokens: 1500, seconds: 30 },
      status: "budget_exhausted",
      answer: "always",
      approvals: 1,
      masked: ["#pin"],
      vias: ["headless"],
      restartBackend: true,
    });
    expect(parseTask({ ...ok, approve: "never" }, "s").approve).toBe(false);
    expect(parseTask({ name: "a", goal: "x", site: "shop", approvals: 0 }, "s").trust.approvals).toBe(0);
    const bad = (extra: Record<string, unknown>) => {
      try {
        parseTask({ ...ok, ...extra }, "s.jsonl:3");
      } catch (e) {
        expect(e).toBeInstanceOf(TaskError);
        return (e as Error).message;
      }
      throw new Error("accepted");
    };
    expect(bad({ policy: { readonly_sites: ["{site}"] } })).toBe('s.jsonl:3 (shop/x): "policy": unknown key "readonly_sites" (known: allowed, blocked, read_only)');
    expect(bad({ policy: { blocked: ["http://{other_site}/x y"] } })).toContain('"policy"');
    expect(bad({ secrets: ["pw"] })).toContain('"secrets" must be an object of NAME');
    expect(bad({ secrets: { otp: "totp:not a seed!" } })).toContain('"secrets.otp": ');
    expect(bad({ secrets: { pw: { value: "x", where: "y" } } })).toContain('"secrets.pw.where" is not a secret key');
    expect(bad({ budget: "tokens=lots" })).toContain('"budget": tokens=lots: give a whole number of tokens');
    expect(bad({ budget: { tokens: 5 } })).toContain('"budget" must be a string of ceilings');
    expect(bad({ status: "failed" })).toContain('"status" must be "completed" or "budget_exhausted"');
    expect(bad({ approve: "sometimes" })).toContain('"approve" must be true, false, "always" or "never"');
    expect(bad({ approvals: -1 })).toContain('"approvals" must be a whole number');
    expect(bad({ masked: ["#pin"] })).toContain('"masked" checks that secrets are painted over: give the task "secrets"');
    expect(bad({ vias: ["firefox"] })).toContain('"vias" must be a list of headless, extension');
    expect(bad({ restart_backend: "yes", approve: "always" })).toContain('"restart_backend" must be true or false');
    expect(bad({ restart_backend: true })).toContain('"restart_backend" restarts the backend once a decision for the site is stored: give the task "approve": "always" or "never"');
    expect(bad({ other_site: "../x" })).toContain('"other_site" must be a folder name');
    expect(bad({ policy: { blocked: ["{other_site}"] } })).toContain('"policy" names {other_site}: give the task an "other_site"');
  });

  it("puts a run's origins in place of {site} and {other_site}, in every string of a value", () => {
    const o = { site: "http://127.0.0.1:5001" };
    expect(placeOriginsIn({ read_only: ["{site}"], n: 1, body: { partner: "{other_site}/x", deep: ["{site}/a"] } }, o)).toEqual({
      read_only: ["http://127.0.0.1:5001"],
      n: 1,
      body: { partner: "{other_site}/x", deep: ["http://127.0.0.1:5001/a"] },
    });
  });

  it("keeps a task off the vias it does not list; the extension takes every trust key", () => {
    const plain = parseTask(ok, "s");
    const headless = parseTask({ ...ok, name: "shop/h", policy: { read_only: ["{site}"] }, vias: ["headless"] }, "s");
    expect(tasksOnVia([plain, headless], "extension")).toEqual({ run: [plain], skipped: ["shop/h"] });
    expect(tasksOnVia([plain, headless], "headless")).toEqual({ run: [plain, headless], skipped: [] });
    const unmarked = parseTask({ ...ok, name: "shop/s", secrets: { pw: "x" }, budget: "tokens=10" }, "s");
    expect(tasksOnVia([unmarked], "extension")).toEqual({ run: [unmarked], skipped: [] });
  });

  it("loads a folder of *.jsonl files and refuses duplicates, missing sites and missing scripts", () => {
    const suite = join(dir, "suite");
    mkdirSync(join(suite, "sites", "shop"), { recursive: true });
    mkdirSync(join(suite, "scripts"), { recursive: true });
    writeFileSync(join(suite, "scripts", "a.json"), "{}");
    writeFileSync(join(suite, "b.jsonl"), `${JSON.stringify({ ...ok, name: "b/one", script: "scripts/a.json" })}\n\n`);
    writeFileSync(join(suite, "a.jsonl"), `${JSON.stringify({ ...ok, name: "a/one" })}\n${JSON.stringify({ ...ok, name: "a/two" })}\n`);
    const s = loadSuite(suite);
    expect(s.tasks.map((t) => t.name)).toEqual(["a/one", "a/two", "b/one"]);
    expect(filterTasks(s.tasks, "a/*").map((t) => t.name)).toEqual(["a/one", "a/two"]);
    expect(filterTasks(s.tasks, "*/one, b/*").map((t) => t.name)).toEqual(["a/one", "b/one"]);
    expect(filterTasks(s.tasks, "a/tw?").map((t) => t.name)).toEqual(["a/two"]);

    writeFileSync(join(suite, "c.jsonl"), `${JSON.stringify({ ...ok, name: "a/one" })}\n`);
    expect(() => loadSuite(suite)).toThrow('two tasks are named "a/one"');
    writeFileSync(join(suite, "c.jsonl"), `${JSON.stringify({ ...ok, name: "c", site: "mail" })}\n`);
    expect(() => loadSuite(suite)).toThrow("the site folder sites/mail does not exist");
    writeFileSync(join(suite, "c.jsonl"), `${JSON.stringify({ ...ok, name: "c", other_site: "ads" })}\n`);
    expect(() => loadSuite(suite)).toThrow("the site folder sites/ads does not exist");
    writeFileSync(join(suite, "c.jsonl"), `${JSON.stringify({ ...ok, name: "c", script: "scripts/none.json" })}\n`);
    expect(() => loadSuite(suite)).toThrow("the script scripts/none.json does not exist");
    writeFileSync(join(suite, "c.jsonl"), `{"name":\n`);
    expect(() => loadSuite(suite)).toThrow(/c\.jsonl:1: not valid JSON/);
    expect(() => loadSuite(join(dir, "nothing"))).toThrow("no such file or folder");
  });

  it("the built-in suite loads, and every task has a script and a check that reads the outcome", () => {
    const s = loadSuite(builtinSuiteDir);
    expect(s.tasks.length).toBeGreaterThanOrEqual(7);
    for (const t of s.tasks) {
      expect(t.script, t.name).toBeTruthy();
      expect(t.js.length + (t.url ? 1 : 0) + (t.state ? 1 : 0) + (t.answer ? 1 : 0) + t.toolCalls.length, t.name).toBeGreaterThan(0);
      // Every task runs via extension too.
      expect(tasksOnVia([t], "extension"), t.name).toEqual({ run: [t], skipped: [] });
    }
  });
});
