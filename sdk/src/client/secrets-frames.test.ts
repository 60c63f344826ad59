/**
 * A secret scoped to an origin is typed only into a field whose own frame is on it, in real
 * Chromium: a page on 127.0.0.1:A (the secret's origin) embeds a frame from 127.0.0.1:B (another
 * origin, same site, so in the same process) and one from localhost:C (another site, out of
 * process). B's and C's servers record every character their fields receive. Typing the secret
 * into a cross-origin frame's field is refused; so is typing it into A's own field when the page
 * moves the focus into B's frame, or when A's own frame navigates to B, after the field was
 * found: the check runs again just before the keys go out. A's own fields get it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import type { ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../contract/index.js";
import type { Engine } from "../engine/engine.js";
import { engineHandlers } from "../engine/handlers.js";
import { launchChromium, type LaunchedChromium } from "../node/launch-chromium.js";
import { openPage } from "../node/open-page.js";
import { WebSocketTransport } from "../node/ws-transport.js";
import { engineProbe } from "../script/engine-probe.js";
import type { RunContext } from "./run-task.js";
import { withSecrets } from "./secrets.js";

const PW = "correct horse battery";

/** What a frame's field reports to its own server on every input event. */
const reporter = `<script>document.querySelectorAll("input").forEach((i) => i.addEventListener("input", () => fetch("/got", { method: "POST", body: i.value })));</script>`;

interface Origin {
  readonly url: string;
  /** Every value a field of this origin reported. */
  readonly got: string[];
  readonly server: Server;
}

async function origin(host: string, page: (path: string) => string | undefined): Promise<Origin> {
  const got: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/got") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        got.push(body);
        res.end();
      });
      return;
    }
    const html = page(path);
    res.writeHead(html ? 200 : 404, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(html ?? "not found");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://${host}:${(server.address() as AddressInfo).port}`, got, server };
}

let a: Origin;
let b: Origin;
let c: Origin;
let chromium: LaunchedChromium;
let transport: WebSocketTransport;
let engine: Engine;
let h: ClientToolHandlers<RunContext>;
const ctx: RunContext = { sessionId: "s", toolcallId: "t", signal: new AbortController().signal };

beforeAll(async () => {
  b = await origin("127.0.0.1", (path) =>
    path === "/frame"
      ? // Takes the focus whenever its window gets it, as a frame that wants keystrokes would.
        `<!doctype html><title>B</title><label>B password <input type="password"></label>${reporter}<script>addEventListener("focus", () => document.querySelector("input").focus());</script>`
      : undefined,
  );
  c = await origin("localhost", (path) => (path === "/frame" ? `<!doctype html><title>C</title><label>C password <input type="password"></label>${reporter}` : undefined));
  a = await origin("127.0.0.1", (path) => {
    const frames = `<iframe src="${b.url}/frame" width="420" height="90"></iframe><iframe src="${c.url}/frame" width="420" height="90"></iframe>`;
    if (path === "/login") return `<!doctype html><title>A</title><label>A password <input id="pw" type="password"></label>${frames}${reporter}`;
    if (path === "/mover") {
      // Moves the focus into B's frame as soon as A's field gets it.
      return `<!doctype html><title>A</title><label>A pin <input id="pin" type="password"></label>${frames}${reporter}<script>document.getElementById("pin").addEventListener("focus", () => document.querySelector("iframe").focus());</script>`;
    }
    if (path === "/host") return `<!doctype html><title>A</title><iframe id="inner" src="/inner" width="420" height="90"></iframe>`;
    if (path === "/inner") {
      // A's own frame, which navigates to B's page as soon as its field gets the focus.
      return `<!doctype html><title>A inner</title><label>Inner password <input type="password"></label>${reporter}<script>document.querySelector("input").addEventListener("focus", () => { location.href = "${b.url}/frame"; });</script>`;
    }
    return undefined;
  });
  chromium = await launchChromium({ args: ["--site-per-process"] });
  transport = await WebSocketTransport.connect(chromium.wsEndpoint);
  engine = await openPage(transport, { viewport: { width: 1000, height: 700 } });
  const handlers = { ...engineHandlers<RunContext>(engine), askUser: async () => ({ answer: "" }) } as ClientToolHandlers<RunContext>;
  h = withSecrets(handlers, [{ name: "pw", value: PW, origins: [a.url] }], engineProbe(engine));
}, 60_000);

afterAll(async () => {
  await transport?.close().catch(() => undefined);
  await chromium?.close();
  for (const o of [a, b, c]) o?.server.close();
});

async function open(path: string): Promise<string> {
  await h.navigate({ url: `${a.url}${path}` } as never, ctx);
  return (await h.takeSnapshot({} as never, ctx)).text ?? "";
}

function refOf(text: string, name: string): string {
  const ref = new RegExp(`(e\\d+) textbox "${name}"`).exec(text)?.[1];
  if (!ref) throw new Error(`no textbox "${name}" in\n${text}`);
  return ref;
}

async function typing(ref: string): Promise<ToolFailure | undefined> {
  return h.typeText({ ref, text: "<secret>pw</secret>" } as never, ctx).then(
    () => undefined,
    (e: unknown) => e as ToolFailure,
  );
}

const seen = (o: Origin) => o.got.filter((v) => v.length > 0);
const settleReports = () => new Promise((r) => setTimeout(r, 300));

describe("a secret scoped to an origin, on a page that frames other origins", { timeout: 60_000 }, () => {
  it("is refused in another origin's frame (same process or not), with a clear tool error, and typed into the page's own field", async () => {
    const text = await open("/login");
    for (const [name, o] of [["B password", b], ["C password", c]] as const) {
      const err = await typing(refOf(text, name));
      expect(err).toBeInstanceOf(ToolFailure);
      expect(err?.code).toBe(ToolErrorCode.PERMISSION_DENIED);
      expect(err?.message).toMatch(new RegExp(`is in a frame on ${o.url.replace(/[.:/]/g, "\\$&")}; this text may only be typed on ${a.url.replace(/[.:/]/g, "\\$&")}\\. Nothing was typed\\.`));
      expect(err?.message).not.toContain(PW);
    }
    await typing(refOf(text, "A password"));
    expect(await engineProbe(engine).evaluate(`document.getElementById("pw").value`)).toBe(PW);
    await settleReports();
    expect(seen(a)).toContain(PW);
    expect(seen(b)).toEqual([]);
    expect(seen(c)).toEqual([]);
  });

  it("is refused when the page moves the focus into another origin's frame after the field was found", async () => {
    const text = await open("/mover");
    const err = await typing(refOf(text, "A pin"));
    expect(err?.code).toBe(ToolErrorCode.NOT_ACTIONABLE);
    expect(err?.message).toContain("before its text was typed (the page moved it), so nothing was typed");
    await settleReports();
    expect(seen(b)).toEqual([]);
    expect(await engineProbe(engine).evaluate(`document.getElementById("pin").value`)).toBe("");
  });

  it("is refused when the field's own frame navigates to another origin before the keys go out", async () => {
    const text = await open("/host");
    const err = await typing(refOf(text, "Inner password"));
    expect(err).toBeInstanceOf(ToolFailure);
    await settleReports();
    expect(seen(b)).toEqual([]);
  });
});
