/**
 * The engine asks the URL policy before it opens a page and after each action (real headless
 * Chromium launched without Baton's browser guard, as a user's browser would be: only the
 * engine stands between the model and a refused URL here).
 */
import { create } from "@bufbuild/protobuf";
import {
  ClickParamsSchema,
  ListTabsParamsSchema,
  NavigateParamsSchema,
  OpenTabParamsSchema,
  TakeSnapshotParamsSchema,
} from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSite, type TestSite } from "../../../testing/test-site.js";
import { ToolErrorCode, ToolFailure } from "../../contract/index.js";
import { launchChromium, type LaunchedChromium } from "../../node/launch-chromium.js";
import { openPage } from "../../node/open-page.js";
import { WebSocketTransport } from "../../node/ws-transport.js";
import { urlPolicyFromLists } from "../../policy/url-policy.js";
import type { Engine } from "../engine.js";
import { type EngineHandlers, engineHandlers } from "../handlers.js";

let browser: LaunchedChromium;
let transport: WebSocketTransport;
let app: TestSite;
let hostile: TestSite;
beforeAll(async () => {
  browser = await launchChromium();
  transport = await WebSocketTransport.connect(browser.wsEndpoint);
  hostile = await startTestSite({ "/": "<h1>Hostile page</h1>" });
  const to = `http://127.0.0.1:${hostile.port}/`;
  app = await startTestSite({
    "/": `<h1>App</h1><a href="${to}" target="_blank">new tab</a> <a href="${to}">same tab</a>
          <button onclick="window.open('${to}')">popup</button> <a href="/ok" target="_blank">own tab</a>`,
    "/ok": "<h1>Own page</h1>",
  });
});
afterAll(async () => {
  await transport?.close();
  await browser?.close();
  await app?.close();
  await hostile?.close();
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => (e instanceof ToolFailure ? { code: e.code, message: e.message } : { code: -1, message: String(e) }),
  );
const pages = async () =>
  (await transport.send<{ targetInfos: { type: string; url: string }[] }>("Target.getTargets")).targetInfos.filter((t) => t.type === "page").map((t) => t.url);
/** The open pages once a closing tab has gone (Chromium lists it for a moment after Target.closeTarget). */
const pagesWithout = async (url: string) => {
  let open = await pages();
  for (let i = 0; i < 40 && open.includes(url); i++) {
    await new Promise((r) => setTimeout(r, 50));
    open = await pages();
  }
  return open;
};

async function withEngine(allowed: string | undefined, fn: (tools: EngineHandlers, engine: Engine) => Promise<void>): Promise<void> {
  const engine = await openPage(transport, allowed ? { urlPolicy: urlPolicyFromLists({ allowed }, { allowed: "--allowed-origins", blocked: "--blocked-origins" }) } : {});
  try {
    await fn(engineHandlers(engine), engine);
  } finally {
    engine.dispose();
    for (const t of (await transport.send<{ targetInfos: { targetId: string; type: string }[] }>("Target.getTargets")).targetInfos) {
      if (t.type === "page") await transport.send("Target.closeTarget", { targetId: t.targetId }).catch(() => undefined);
    }
  }
}

describe("open_tab and navigate ask the URL policy first", () => {
  it.each(["file:///etc/", "file:///etc/passwd", "chrome://version", "view-source:file:///etc/passwd", "javascript:alert(1)", "data:text/html,<h1>x</h1>"])(
    "open_tab(%s) is refused before any tab opens",
    async (url) => {
      await withEngine(undefined, async (tools) => {
        const before = await pages();
        const f = await failure(tools.openTab(create(OpenTabParamsSchema, { url }), undefined));
        expect(f?.code).toBe(ToolErrorCode.PERMISSION_DENIED);
        expect(f?.message).toMatch(/^Only http and https pages \(and about:blank\) can be opened, not [a-z-]+: URLs\./);
        expect(await pages()).toEqual(before);
        expect((await tools.listTabs(create(ListTabsParamsSchema, {}), undefined)).tabs).toHaveLength(1);
      });
    },
  );

  it("refuses a site the policy does not allow, and opens about:blank and allowed sites", async () => {
    await withEngine(app.origin, async (tools) => {
      const f = await failure(tools.navigate(create(NavigateParamsSchema, { url: `${hostile.origin}/` }), undefined));
      expect(f).toEqual({ code: ToolErrorCode.PERMISSION_DENIED, message: expect.stringMatching(new RegExp(`^${hostile.origin} is not an allowed site \\(--allowed-origins`)) });
      expect((await failure(tools.openTab(create(OpenTabParamsSchema, { url: `${hostile.origin}/` }), undefined)))?.code).toBe(ToolErrorCode.PERMISSION_DENIED);
      expect((await tools.openTab(create(OpenTabParamsSchema, { url: "about:blank" }), undefined)).tab?.url).toBe("about:blank");
      expect((await tools.navigate(create(NavigateParamsSchema, { url: `${app.origin}/` }), undefined)).title).toBe("");
      expect(hostile.requests).toEqual([]);
    });
  });
});

describe("after an action, tabs and pages the policy refuses are closed or left", () => {
  const refOf = async (tools: EngineHandlers, name: string) => {
    const text = (await tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined)).text ?? "";
    const ref = /(e\d+)/.exec(text.split("\n").find((l) => l.includes(`"${name}"`)) ?? "")?.[1];
    if (!ref) throw new Error(`no "${name}" in\n${text}`);
    return ref;
  };

  it("closes a tab a link opened to a refused site and says so; keeps one to an allowed page", async () => {
    await withEngine(app.origin, async (tools) => {
      await tools.navigate(create(NavigateParamsSchema, { url: `${app.origin}/` }), undefined);
      const r = await tools.click(create(ClickParamsSchema, { ref: await refOf(tools, "new tab") }), undefined);
      expect(r.evidence?.newTabId ?? "").toBe("");
      expect((r.evidence?.notes ?? []).join("\n")).toMatch(new RegExp(`the page opened a tab that was closed at once: ${hostile.origin}/: ${hostile.origin} is not an allowed site`));
      expect(await pagesWithout(`${hostile.origin}/`)).not.toContain(`${hostile.origin}/`);
      const own = await tools.click(create(ClickParamsSchema, { ref: await refOf(tools, "own tab") }), undefined);
      expect(own.evidence?.newTabId).toBeTruthy();
      expect((await tools.listTabs(create(ListTabsParamsSchema, {}), undefined)).tabs?.map((t) => t.url)).toEqual([`${app.origin}/`, `${app.origin}/ok`]);
    });
  });

  it("closes a window.open popup to a refused site by the time the model can use it", async () => {
    await withEngine(app.origin, async (tools) => {
      await tools.navigate(create(NavigateParamsSchema, { url: `${app.origin}/` }), undefined);
      await tools.click(create(ClickParamsSchema, { ref: await refOf(tools, "popup") }), undefined);
      const tabs = (await tools.listTabs(create(ListTabsParamsSchema, {}), undefined)).tabs?.map((t) => t.url);
      expect(tabs).toEqual([`${app.origin}/`]);
      expect(await pagesWithout(`${hostile.origin}/`)).not.toContain(`${hostile.origin}/`);
    });
  });

  it("leaves a page that a link took to a refused site, before anything of it is read", async () => {
    await withEngine(app.origin, async (tools) => {
      await tools.navigate(create(NavigateParamsSchema, { url: `${app.origin}/` }), undefined);
      const r = await tools.click(create(ClickParamsSchema, { ref: await refOf(tools, "same tab") }), undefined);
      expect(r.evidence?.url).toBe("about:blank");
      expect(r.evidence?.title).not.toContain("Hostile");
      expect((r.evidence?.notes ?? []).join("\n")).toMatch(new RegExp(`the page went to ${hostile.origin}/, which is refused, and was left for about:blank`));
      expect((await tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined)).text).not.toContain("Hostile");
    });
  });
});
