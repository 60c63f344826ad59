/**
 * The web frontend example in headless Chromium: the page bundles the SDK with esbuild, talks
 * to a real backend over connect-web (CORS, another origin) and runs the client-side tools with
 * the DOM fallback inside its workspace iframe. A scripted model subscribes Ada to the Pro plan;
 * the workspace's own submit handler records it.
 */
import { create } from "@bufbuild/protobuf";
import { NavigateParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { type Engine, engineHandlers } from "@baton/sdk/engine";
import { type LaunchedChromium, launchChromium, openPage, WebSocketTransport } from "@baton/sdk/node";
import { engineProbe } from "@baton/sdk/script";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createToken, ensureUser, ScriptProvider, startBackend } from "@baton/backend";
import { buildWebFrontend } from "./build.js";

let dir = "";
let site: Server;
let siteUrl = "";
let backend: Backend;
let token = "";
let browser: LaunchedChromium;
let transport: WebSocketTransport;
let engine: Engine;

const types: Record<string, string> = { ".html": "text/html", ".js": "text/javascript" };

beforeAll(async () => {
  dir = await buildWebFrontend(mkdtempSync(join(tmpdir(), "baton-web-")));
  site = createServer((req, res) => {
    const name = (req.url ?? "/").split("?")[0] === "/" ? "index.html" : (req.url ?? "").slice(1).split("?")[0]!;
    try {
      const body = readFileSync(join(dir, name.replace(/\.\./g, "")));
      res.writeHead(200, { "content-type": types[extname(name)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const model = new ScriptProvider({
    turns: [
      { text: "<goal>Subscribe Ada to the Pro plan</goal>", calls: [{ name: "take_snapshot" }] },
      {
        calls: [
          { name: "type_text", args: { ref: { role: "textbox", name: "Name" }, text: "Ada" } },
          { name: "select_option", args: { ref: { role: "combobox", name: "Plan" }, values: ["Pro"] } },
          { name: "click", args: { ref: { role: "button", name: "Subscribe" } } },
        ],
      },
      { calls: [{ name: "done", args: { answer: "Ada is subscribed to Pro." } }] },
    ],
  });
  // The page's origin is not the backend's: CORS must let it in.
  backend = await startBackend({
    port: 0,
    resolveModel: () => ({ provider: model, model: "web-example" }),
    cors: { origins: [siteUrl], allowLocalhost: false },
  });
  await ensureUser(backend.db, "alice");
  token = await createToken(backend.db, "alice");
  browser = await launchChromium();
  transport = await WebSocketTransport.connect(browser.wsEndpoint);
  engine = await openPage(transport);
});

afterAll(async () => {
  await transport?.close();
  await browser?.close();
  await backend?.close();
  await new Promise<void>((r) => (site ? site.close(() => r()) : r()));
  rmSync(dir, { recursive: true, force: true });
});

describe("examples/web-frontend", () => {
  it("drives a session from a web page and acts on its workspace", async () => {
    await engineHandlers(engine).navigate(create(NavigateParamsSchema, { url: `${siteUrl}/` }), undefined);
    const page = engineProbe(engine);
    await page.evaluate(`(() => {
      document.getElementById("backend").value = ${JSON.stringify(backend.server.url)};
      document.getElementById("token").value = ${JSON.stringify(token)};
      document.getElementById("run").click();
    })()`);
    let status = "running";
    for (let i = 0; i < 300 && (status === "running" || status === "idle"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = String(await page.evaluate(`document.getElementById("status").textContent`));
    }
    const log = String(await page.evaluate(`document.getElementById("log").textContent`));
    expect(status, log).toBe("completed");
    expect(await page.evaluate(`document.getElementById("workspace").contentDocument.getElementById("result").textContent`)).toBe(
      "Subscribed: Ada (Pro)",
    );
    expect(log).toContain("Thinking…");
    expect(log).toContain("completed: Ada is subscribed to Pro.");
  });
});
