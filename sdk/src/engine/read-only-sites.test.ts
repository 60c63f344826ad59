/**
 * The engine holds actions to the site policy's read-only sites (real headless Chromium): a
 * page there can be read and left, but no click, typing or key press reaches it, in its top
 * document or in a frame of it embedded elsewhere. A page of a blocked site that was already
 * open when the engine took it is not even read.
 */
import { create } from "@bufbuild/protobuf";
import {
  ClickParamsSchema,
  DragParamsSchema,
  ExtractParamsSchema,
  ListTabsParamsSchema,
  NavigateParamsSchema,
  PressKeysParamsSchema,
  ScreenshotParamsSchema,
  TakeSnapshotParamsSchema,
  TypeTextParamsSchema,
} from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSite, type TestSite } from "../../testing/test-site.js";
import { ToolErrorCode, ToolFailure } from "../contract/index.js";
import { launchChromium, type LaunchedChromium } from "../node/launch-chromium.js";
import { openPage } from "../node/open-page.js";
import { WebSocketTransport } from "../node/ws-transport.js";
import { sitePolicyFromObject } from "../policy/site-policy.js";
import { Engine } from "./engine.js";
import { type EngineHandlers, engineHandlers } from "./handlers.js";

let browser: LaunchedChromium;
let transport: WebSocketTransport;
let bank: TestSite;
let shop: TestSite;
const form = `<h1>Transfer</h1><p>Balance: 1,024.00</p>
  <form method="post" action="/send"><label>Amount <input name="amount"></label><button>Send money</button></form>`;
beforeAll(async () => {
  browser = await launchChromium();
  transport = await WebSocketTransport.connect(browser.wsEndpoint);
  const sink = (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => res.writeHead(200, { "content-type": "text/html" }).end("<h1>Sent</h1>");
  bank = await startTestSite({ "/": form, "/send": sink });
  shop = await startTestSite({ "/": `<h1>Shop</h1><button onclick="document.title='bought'">Buy</button><iframe title="bank" src="${bank.origin}/" width="600" height="300"></iframe>` });
});
afterAll(async () => {
  await transport?.close();
  await browser?.close();
  await bank?.close();
  await shop?.close();
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => (e instanceof ToolFailure ? { code: e.code, message: e.message } : { code: -1, message: String(e) }),
  );

async function withEngine(fn: (tools: EngineHandlers, engine: Engine) => Promise<void>): Promise<void> {
  const engine = await openPage(transport, { urlPolicy: sitePolicyFromObject({ read_only: [bank.origin] }, "--policy trust.json") });
  try {
    await fn(engineHandlers(engine), engine);
  } finally {
    engine.dispose();
    await transport.send("Target.closeTarget", { targetId: engine.page.targetId }).catch(() => undefined);
  }
}

/** The ref of the first element of the latest snapshot's text with this role and name. */
function refOf(text: string, role: string, name: string): string {
  const m = new RegExp(`(e\\d+) ${role} "${name}"`).exec(text);
  if (!m?.[1]) throw new Error(`no ${role} "${name}" in:\n${text}`);
  return m[1];
}

describe("read-only sites", () => {
  it("can be read, but a click, typing or keys there are refused with the site and rule named, and nothing reaches the site", async () => {
    await withEngine(async (tools) => {
      await tools.navigate(create(NavigateParamsSchema, { url: `${bank.origin}/` }));
      const snap = { text: String((await tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}))).text) };
      expect(snap.text).toContain("Balance: 1,024.00");
      const typed = await failure(tools.typeText(create(TypeTextParamsSchema, { ref: refOf(snap.text, "textbox", "Amount"), text: "500", pressEnter: true })));
      expect(typed?.code).toBe(ToolErrorCode.PERMISSION_DENIED);
      expect(typed?.message).toContain(`${bank.origin} is a read-only site (--policy trust.json: read-only ${bank.origin})`);
      expect(typed?.message).toContain("nothing was done");
      const clicked = await failure(tools.click(create(ClickParamsSchema, { ref: refOf(snap.text, "button", "Send money") })));
      expect(clicked?.code).toBe(ToolErrorCode.PERMISSION_DENIED);
      const keys = await failure(tools.pressKeys(create(PressKeysParamsSchema, { keys: ["Enter"] })));
      expect(keys?.code).toBe(ToolErrorCode.PERMISSION_DENIED);
      expect(bank.requests.filter((r) => r.endsWith("/send"))).toEqual([]);
      // Leaving is not acting on the page: navigate goes elsewhere.
      const away = await tools.navigate(create(NavigateParamsSchema, { url: `${shop.origin}/` }));
      expect(away.url).toContain(shop.origin);
    });
  });

  it("holds a frame of a read-only site embedded in a page that is not", async () => {
    await withEngine(async (tools, engine) => {
      await tools.navigate(create(NavigateParamsSchema, { url: `${shop.origin}/` }));
      const read = async () => ({ text: String((await tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}))).text) });
      let snap = await read();
      for (let i = 0; i < 20 && !snap.text.includes("Send money"); i++) {
        await new Promise((r) => setTimeout(r, 100));
        snap = await read();
      }
      const inFrame = await failure(tools.click(create(ClickParamsSchema, { ref: refOf(snap.text, "button", "Send money") })));
      expect(inFrame?.code).toBe(ToolErrorCode.PERMISSION_DENIED);
      // A drag names two elements: one in the frame is enough to refuse it.
      const dragged = await failure(tools.drag(create(DragParamsSchema, { fromRef: refOf(snap.text, "button", "Buy"), toRef: refOf(snap.text, "button", "Send money") })));
      expect(dragged?.code).toBe(ToolErrorCode.PERMISSION_DENIED);
      // A click at the button's point names no element: it is held to the frame it lands in.
      const box = engine.lastSnapshot?.elements.find((e) => e.name === "Send money")?.box;
      if (!box) throw new Error("no box for Send money");
      const atPoint = await failure(tools.click(create(ClickParamsSchema, { x: box.x + box.width / 2, y: box.y + box.height / 2 })));
      expect(atPoint?.code).toBe(ToolErrorCode.PERMISSION_DENIED);
      expect(atPoint?.message).toContain(`${bank.origin} is a read-only site`);
      // Keys go where the focus is: a Tab from the shop's button moves it into the bank's form.
      await tools.pressKeys(create(PressKeysParamsSchema, { ref: refOf(snap.text, "button", "Buy"), keys: ["Tab"] }));
      const active = await engine.page.send<{ result: { value: string } }>("Runtime.evaluate", { expression: "document.activeElement?.tagName ?? ''", returnByValue: true });
      expect(active.result.value).toBe("IFRAME");
      const enter = await failure(tools.pressKeys(create(PressKeysParamsSchema, { keys: ["5", "Enter"] })));
      expect(enter?.code).toBe(ToolErrorCode.PERMISSION_DENIED);
      expect(enter?.message).toContain(`${bank.origin} is a read-only site`);
      expect(bank.requests.filter((r) => r.endsWith("/send"))).toEqual([]);
      // The page around it is not read-only.
      await tools.click(create(ClickParamsSchema, { ref: refOf(snap.text, "button", "Buy") }));
      expect(await engine.page.send<{ result: { value: string } }>("Runtime.evaluate", { expression: "document.title", returnByValue: true }).then((r) => r.result.value)).toBe("bought");
    });
  });

  it("answers STALE_REF, not a refusal, for a ref whose frame is gone", async () => {
    const framed = await startTestSite({
      "/": `<h1>Framed</h1><button onclick="document.querySelector('iframe').remove()">Close panel</button><iframe title="panel" src="/panel"></iframe>`,
      "/panel": `<button>Save panel</button>`,
    });
    try {
      await withEngine(async (tools) => {
        await tools.navigate(create(NavigateParamsSchema, { url: `${framed.origin}/` }));
        const snap = String((await tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}))).text);
        const save = refOf(snap, "button", "Save panel");
        await tools.click(create(ClickParamsSchema, { ref: refOf(snap, "button", "Close panel") }));
        // The policy names a read-only site, so a frame it could not place would be refused.
        const gone = await failure(tools.click(create(ClickParamsSchema, { ref: save })));
        expect(gone?.code).toBe(ToolErrorCode.STALE_REF);
      });
    } finally {
      await framed.close();
    }
  });

  it("does not read a page of a blocked site that was open before the engine took it, and leaves it", async () => {
    // As the tab an extension task starts in: loaded before any policy held it.
    const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", { url: `${bank.origin}/` });
    const engine = await Engine.attach(transport, targetId, { urlPolicy: sitePolicyFromObject({ blocked: [bank.origin] }, "your settings") });
    try {
      const tools = engineHandlers(engine);
      for (const read of [
        () => tools.takeSnapshot(create(TakeSnapshotParamsSchema, {})),
        () => tools.screenshot(create(ScreenshotParamsSchema, {})),
        () => tools.extract(create(ExtractParamsSchema, {})),
      ]) {
        const refused = await failure(read());
        expect(refused?.code).toBe(ToolErrorCode.PERMISSION_DENIED);
        expect(refused?.message).toContain(`This page may not be read: ${bank.origin} is blocked (your settings)`);
        expect(refused?.message).not.toContain("1,024.00");
      }
      // Tabs and navigation are how the agent leaves it.
      expect((await tools.listTabs(create(ListTabsParamsSchema, {}))).tabs?.length).toBeGreaterThan(0);
      await tools.navigate(create(NavigateParamsSchema, { url: `${shop.origin}/` }));
      const snap = await tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}));
      expect(String(snap.text)).toContain("Shop");
    } finally {
      engine.dispose();
      await transport.send("Target.closeTarget", { targetId }).catch(() => undefined);
    }
  });

  it("does not describe focus that moved into a frame of a blocked site, nor read a dialog it opened", async () => {
    // Another site (localhost): the bank's frame runs out of process, where focus is followed.
    const elsewhere = await startTestSite({ "/": `${form}<script>addEventListener("message", () => alert("Balance: 1,024.00"));</script>` }, "localhost");
    const page = await startTestSite({
      "/": `<h1>Search</h1><label>Query <input id="q"></label><iframe title="bank" src="${elsewhere.origin}/" width="600" height="200"></iframe>
        <button onclick="frames[0].postMessage('ping', '*')">Ping</button>`,
    });
    const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", { url: `${page.origin}/` });
    const engine = await Engine.attach(transport, targetId, { urlPolicy: sitePolicyFromObject({ blocked: [elsewhere.origin] }, "your settings") });
    try {
      const tools = engineHandlers(engine);
      const frameSession = () => [...engine.page.sessions.values()].find((s) => s.parentId !== undefined);
      for (let i = 0; i < 50 && !frameSession(); i++) await new Promise((r) => setTimeout(r, 100));
      // The bank's field holds what the user typed there before the task.
      const fill = () =>
        engine.page
          .send<{ result: { value?: string } }>("Runtime.evaluate", { expression: `document.querySelector("input").value = "acct 7731-0042"`, returnByValue: true }, frameSession()?.id)
          .then((r) => r.result.value, () => undefined);
      let typed = await fill();
      for (let i = 0; i < 50 && typed === undefined; i++) typed = await new Promise((r) => setTimeout(r, 100)).then(fill);
      expect(typed).toBe("acct 7731-0042");
      const snap = await tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}));
      const query = refOf(String(snap.text), "textbox", "Query");
      const into = await tools.pressKeys(create(PressKeysParamsSchema, { ref: query, keys: ["Tab"] }));
      const focusIn = await engine.page.send<{ result: { value: string } }>("Runtime.evaluate", { expression: "document.activeElement?.tagName ?? ''", returnByValue: true });
      expect(focusIn.result.value).toBe("IFRAME");
      expect(JSON.stringify(into)).not.toContain("7731");
      expect(into.evidence?.focused).toBeUndefined();
      // The page's own button makes the bank's frame say its balance in an alert.
      const pinged = await tools.click(create(ClickParamsSchema, { ref: refOf(String(snap.text), "button", "Ping") }));
      expect(engine.page.dialogs.at(-1)?.message).toBe("Balance: 1,024.00");
      expect(pinged.evidence?.dialog?.message).toBe("(opened by a frame of a site the policy refuses: not read)");
      expect(JSON.stringify(pinged)).not.toContain("1,024");
    } finally {
      engine.dispose();
      await transport.send("Target.closeTarget", { targetId }).catch(() => undefined);
      await page.close();
      await elsewhere.close();
    }
  });

  it("lists a frame of a blocked site that loaded before the engine took the page, without reading it", async () => {
    const before = bank.requests.length;
    const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", { url: `${shop.origin}/` });
    const engine = await Engine.attach(transport, targetId, { urlPolicy: sitePolicyFromObject({ blocked: [bank.origin] }, "your settings") });
    try {
      const tools = engineHandlers(engine);
      const read = async () => String((await tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}))).text);
      let text = await read();
      for (let i = 0; i < 30 && !(bank.requests.length > before && text.includes("iframe")); i++) {
        await new Promise((r) => setTimeout(r, 100));
        text = await read();
      }
      expect(text).toContain("Shop");
      expect(text).toMatch(/iframe .*\[refused by the site policy: not read\]/);
      expect(text).not.toContain("Balance");
      expect(text).not.toContain("Send money");
      // An out-of-process frame is known by its session before its URL arrives; a snapshot in
      // that window goes by the document it read, and still does not read it. (The shop's one
      // frame is the bank's; its recorded URL may not have arrived yet, which is that window.)
      const frames = [...engine.page.frames.values()].filter((f) => f.parentId !== undefined);
      expect(frames.length).toBeGreaterThan(0);
      for (const f of frames) f.url = "about:blank";
      const early = (await engine.pageSnapshot({ fresh: true })).lines.map((l) => l.text).join("\n");
      expect(early).toMatch(/iframe .*\[refused by the site policy: not read\]/);
      expect(early).not.toContain("Balance");
    } finally {
      engine.dispose();
      await transport.send("Target.closeTarget", { targetId }).catch(() => undefined);
    }
  });
});
