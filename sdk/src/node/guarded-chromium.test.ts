/**
 * A Chromium Baton launches holds to the URL policy itself, whoever asks for the URL: pages,
 * links, frames, redirects, popups, raw CDP commands, WebSockets (real headless Chromium, sites
 * on loopback ports; a site on 127.0.0.2 plays the network neighbour).
 */
import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema, NavigateParamsSchema, SwitchTabParamsSchema, TakeSnapshotParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSite, type TestSite } from "../../testing/test-site.js";
import { engineHandlers } from "../engine/handlers.js";
import { urlPolicyFromLists } from "../policy/url-policy.js";
import { type GuardedChromium, launchGuardedChromium } from "./guarded-chromium.js";
import { openPage } from "./open-page.js";

const names = { allowed: "--allowed-origins", blocked: "--blocked-origins" };
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What any local file or directory listing would show in a snapshot. */
const fileContent = /root:x:0|Index of \/etc|\[parent directory\]/;

async function pageTargets(g: GuardedChromium): Promise<{ targetId: string; url: string }[]> {
  const { targetInfos } = await g.transport.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>("Target.getTargets");
  return targetInfos.filter((t) => t.type === "page");
}

/** The visible text of a target's document, read through its own session. */
async function textOf(g: GuardedChromium, targetId: string): Promise<string> {
  const { sessionId } = await g.transport.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
  const r = await g.transport.send<{ result: { value?: string } }>("Runtime.evaluate", { expression: "location.href + '\\n' + (document.body?.innerText ?? '')", returnByValue: true }, sessionId);
  await g.transport.send("Target.detachFromTarget", { sessionId }).catch(() => undefined);
  return r.result.value ?? "";
}

describe("a launched browser without site lists", () => {
  let g: GuardedChromium;
  let site: TestSite;
  beforeAll(async () => {
    g = await launchGuardedChromium();
    site = await startTestSite({
      "/": `<a href="file:///etc/passwd">same tab</a> <a href="file:///etc/" target="_blank">new tab</a>
            <button onclick="window.open('file:///etc/')">popup</button>
            <iframe src="file:///etc/passwd"></iframe> <iframe src="/to-file"></iframe>`,
      "/to-file": (_req, res) => void res.writeHead(302, { location: "file:///etc/" }).end(),
    });
  });
  afterAll(async () => {
    await g?.close();
    await site?.close();
  });

  it("loads no local file through a link, an iframe, a redirect or window.open", async () => {
    const engine = await openPage(g.transport);
    const tools = engineHandlers(engine);
    await tools.navigate(create(NavigateParamsSchema, { url: `${site.origin}/` }), undefined);
    const snap = async () => (await tools.takeSnapshot(create(TakeSnapshotParamsSchema, { fresh: true } as never), undefined)).text ?? "";
    const ref = (text: string, name: string) => /(e\d+)[^\n]*/.exec(text.split("\n").find((l) => l.includes(name)) ?? "")?.[1] ?? "";
    const first = await snap();
    expect(first).not.toMatch(fileContent);
    for (const name of ["new tab", "popup", "same tab"]) {
      await tools.click(create(ClickParamsSchema, { ref: ref(await snap(), name) }), undefined).catch(() => undefined);
    }
    const redirected = await tools.navigate(create(NavigateParamsSchema, { url: `${site.origin}/to-file` }), undefined).catch((e: Error) => e.message);
    expect(JSON.stringify(redirected)).not.toMatch(fileContent);
    await settle(500);
    for (const t of await pageTargets(g)) {
      expect(await textOf(g, t.targetId)).not.toMatch(fileContent);
      if (t.targetId !== engine.page.targetId) continue;
      await tools.switchTab(create(SwitchTabParamsSchema, { tabId: t.targetId }), undefined);
      expect(await snap()).not.toMatch(fileContent);
    }
    engine.dispose();
  });

  it("blocks file: and closes chrome: tabs opened by a raw CDP command, past the engine", async () => {
    const { targetId: fileTab } = await g.transport.send<{ targetId: string }>("Target.createTarget", { url: "file:///etc/" });
    const { targetId: chromeTab } = await g.transport.send<{ targetId: string }>("Target.createTarget", { url: "chrome://version" });
    // Closed once Chromium reports the tab's URL (a tab still being created cannot be closed yet).
    let open = (await pageTargets(g)).map((t) => t.targetId);
    for (let i = 0; i < 50 && open.includes(chromeTab); i++) {
      await settle(100);
      open = (await pageTargets(g)).map((t) => t.targetId);
    }
    expect(open).not.toContain(chromeTab);
    if (open.includes(fileTab)) expect(await textOf(g, fileTab)).not.toMatch(fileContent);
  });
});

describe("a launched browser with site lists", () => {
  let hostile: TestSite;
  let neighbour: TestSite;
  let sites: TestSite[] = [];
  beforeAll(async () => {
    hostile = await startTestSite({ "/": "<p>hostile</p>" });
    neighbour = await startTestSite({}, "127.0.0.2");
    sites = [hostile, neighbour];
  });
  afterAll(async () => {
    for (const s of sites) await s.close();
  });

  it("lets WebSockets connect only to allowed sites, from a page and from a worker", async () => {
    const refused = (path: string) => [`ws://127.0.0.2:${neighbour.port}${path}`, `ws://127.0.0.1:${hostile.port}${path}`];
    /** Page script: opens a WebSocket to each URL, sends on open, and reports each outcome. */
    const connect = (urls: string, report: string) =>
      `for (const u of ${urls}) { const s = new WebSocket(u); s.onopen = () => { s.send("secret"); ${report}(u + " open"); }; s.onerror = () => ${report}(u + " error"); }`;
    const app = await startTestSite({
      "/": `<script>window.seen = []; const note = (m) => seen.push(m);
              ${connect(`[...${JSON.stringify(refused("/page"))}, "ws://" + location.host + "/own"]`, "note")}
              new Worker("/worker.js").onmessage = (e) => note(e.data);</script>`,
      "/worker.js": (_req, res) => void res.writeHead(200, { "content-type": "text/javascript" }).end(connect(JSON.stringify(refused("/worker")), "postMessage")),
    });
    sites.push(app);
    const g = await launchGuardedChromium({ policy: urlPolicyFromLists({ allowed: app.origin }, names) });
    try {
      // A plain session on the tab, so nothing but the browser's guard stands between the page and its sockets.
      const { targetId } = await g.transport.send<{ targetId: string }>("Target.createTarget", { url: "about:blank" });
      const { sessionId } = await g.transport.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
      await g.transport.send("Page.navigate", { url: `${app.origin}/` }, sessionId);
      const seen = async () => (await g.transport.send<{ result: { value?: string[] } }>("Runtime.evaluate", { expression: "window.seen ?? []", returnByValue: true }, sessionId)).result.value ?? [];
      for (let i = 0; i < 50 && (await seen()).length < 5; i++) await settle(100);
      expect((await seen()).sort()).toEqual([`ws://127.0.0.1:${app.port}/own open`, ...[...refused("/page"), ...refused("/worker")].map((u) => `${u} error`)].sort());
      expect(app.sockets).toEqual([`127.0.0.1:${app.port} /own`, "/own: secret"]);
      expect(neighbour.sockets).toEqual([]);
      expect(hostile.sockets).toEqual([]);
    } finally {
      await g.close();
    }
  });

  it("holds --blocked-origins to every spelling of a loopback host: trailing dot, IPv4-mapped IPv6, 0.0.0.0", async () => {
    const victim = await startTestSite({ "/": "<p>victim</p>" });
    sites.push(victim);
    const spellings = ["localhost.", "[::ffff:127.0.0.1]", "0.0.0.0", "127.0.0.1", "LOCALHOST"].map((h) => `${h}:${victim.port}`);
    const app = await startTestSite({
      "/": `<body><script>window.seen = [];
        for (const h of ${JSON.stringify(spellings)}) {
          const f = document.createElement("iframe"); f.src = "http://" + h + "/frame"; document.body.append(f);
          new Image().src = "http://" + h + "/img";
          fetch("http://" + h + "/fetch", { mode: "no-cors" }).then(() => seen.push(h + " fetched"), () => seen.push(h + " refused"));
          const s = new WebSocket("ws://" + h + "/ws"); s.onopen = () => seen.push(h + " socket"); s.onerror = () => seen.push(h + " refused");
        }
        fetch("/control").then(() => seen.push("control"));</script>`,
      "/control": "ok",
    });
    sites.push(app);
    const g = await launchGuardedChromium({ policy: urlPolicyFromLists({ blocked: `http://localhost:${victim.port}` }, names) });
    try {
      const { targetId } = await g.transport.send<{ targetId: string }>("Target.createTarget", { url: "about:blank" });
      const { sessionId } = await g.transport.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
      await g.transport.send("Page.navigate", { url: `${app.origin}/` }, sessionId);
      const seen = async () => (await g.transport.send<{ result: { value?: string[] } }>("Runtime.evaluate", { expression: "window.seen ?? []", returnByValue: true }, sessionId)).result.value ?? [];
      for (let i = 0; i < 50 && (await seen()).length < 2 * spellings.length + 1; i++) await settle(100);
      expect(await seen()).toContain("control");
      expect((await seen()).filter((m) => !m.endsWith("refused") && m !== "control")).toEqual([]);
      await settle(300);
      expect(victim.requests).toEqual([]);
      expect(victim.sockets).toEqual([]);
    } finally {
      await g.close();
    }
  });
});
