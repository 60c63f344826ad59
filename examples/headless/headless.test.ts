/**
 * The headless example end to end: a real backend (script model), real Chromium through the
 * engine, a small search site on loopback. The example searches, picks a result and finishes.
 */
import { type Backend, createToken, ensureUser, ScriptProvider, startBackend } from "@baton/backend";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHeadless } from "./main.js";

let site: Server;
let siteUrl = "";
let backend: Backend;
let token = "";

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

beforeAll(async () => {
  site = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    res.setHeader("content-type", "text/html");
    if (url.pathname === "/search") {
      const q = url.searchParams.get("q") ?? "";
      res.end(page("Results", `<h1>Results for ${q.replace(/[<&]/g, "")}</h1><ul><li><a href="/docs/other">Other docs</a></li><li><a href="/docs/baton">Baton docs</a></li></ul>`));
    } else if (url.pathname === "/docs/baton") {
      res.end(page("Baton documentation", "<h1>Baton documentation</h1><p>Welcome.</p>"));
    } else {
      res.end(page("Search", '<form action="/search"><label>Search <input type="search" name="q"></label><button>Go</button></form>'));
    }
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  const a = site.address();
  siteUrl = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}`;
  const model = new ScriptProvider({
    turns: [
      { text: "<goal>Open the Baton docs</goal>", calls: [{ name: "take_snapshot" }] },
      { calls: [{ name: "type_text", args: { ref: { role: "searchbox", name: "Search" }, text: "baton", press_enter: true } }] },
      { calls: [{ name: "take_snapshot" }] },
      { calls: [{ name: "click", args: { ref: { role: "link", name: "Baton docs" } } }] },
      { calls: [{ name: "done", args: { answer: "The Baton documentation is open." } }] },
    ],
  });
  backend = await startBackend({ port: 0, resolveModel: () => ({ provider: model, model: "headless-example" }) });
  await ensureUser(backend.db, "alice");
  token = await createToken(backend.db, "alice");
});

afterAll(async () => {
  await backend?.close();
  await new Promise<void>((r) => (site ? site.close(() => r()) : r()));
});

describe("examples/headless", () => {
  it("searches, picks a result and finishes on the right page", async () => {
    const tools: string[] = [];
    const outcome = await runHeadless({
      backendUrl: backend.server.url,
      token,
      task: "Open the Baton docs",
      startUrl: `${siteUrl}/`,
      onEvent: (e) => {
        if (e.type === "tool_end") tools.push(`${e.tool.name}${e.error ? ` ✗ ${e.error.message}` : ""}`);
      },
    });
    expect(outcome.status, tools.join("\n")).toBe("completed");
    expect(outcome.answer).toBe("The Baton documentation is open.");
    expect(outcome.finalUrl).toBe(`${siteUrl}/docs/baton`);
    expect(tools).toEqual(["take_snapshot", "type_text", "take_snapshot", "click"]);
  });
});
