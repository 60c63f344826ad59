import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { builtinSuiteDir, filterTasks, loadSuite } from "./suite.js";
import { parseTask, TaskError } from "./task.js";

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
    expect(bad({ ...ok, colour: "red" })).toBe('s.jsonl:7 (shop/x): unknown key "colour" (known: name, goal, site, start_url, script, setup, js, url, state, answer, tool_calls, max_steps, timeout_ms, approve, user_reply, tags)');
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
    }
  });
});
