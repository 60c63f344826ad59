/**
 * The guard over CDP of a browser Baton attached to rather than launched (real headless
 * Chromium started without Baton's launch switches; sites on loopback ports, one playing the
 * blocked site): scoped to one page, it refuses that page's requests to a blocked site and
 * leaves the browser's other tabs alone; over the whole browser (eval's remote browsers), it
 * holds pages in a fresh browser context too.
 */
import { create } from "@bufbuild/protobuf";
import { NavigateParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSite, type TestSite } from "../../testing/test-site.js";
import { engineHandlers } from "../engine/handlers.js";
import { type LaunchedChromium, launchChromium } from "../node/launch-chromium.js";
import { openPage } from "../node/open-page.js";
import { WebSocketTransport } from "../node/ws-transport.js";
import { attachedGuardNotice, guardBrowser } from "./browser-guard.js";
import { urlPolicyFromLists } from "./url-policy.js";

const names = { allowed: "--allowed-origins", blocked: "--blocked-origins" };

/** Waits until `ok()` holds (or gives up after `ms`). */
async function until(ok: () => boolean, ms = 5000): Promise<void> {
  for (const end = Date.now() + ms; !ok() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
}

describe("guardBrowser on an attached browser", () => {
  let chromium: LaunchedChromium;
  let transport: WebSocketTransport;
  let app: TestSite;
  let blocked: TestSite;
  beforeAll(async () => {
    chromium = await launchChromium();
    transport = await WebSocketTransport.connect(chromium.wsEndpoint);
    blocked = await startTestSite({ "/ours": "x", "/theirs": "x", "/context": "x" });
    // Each page asks the blocked site for its own path, so the record says which page got through.
    const asks = (path: string) => `<p>app</p><script>fetch(${JSON.stringify(`${blocked.origin}${path}`)}, { mode: "no-cors" }).catch(() => {})</script>`;
    app = await startTestSite({ "/ours": asks("/ours"), "/theirs": asks("/theirs"), "/context": asks("/context") });
  });
  afterAll(async () => {
    await transport?.close();
    await chromium?.close();
    await app?.close();
    await blocked?.close();
  });

  it("scoped to our page: refuses its requests to a blocked site, and not those of the user's other tabs", async () => {
    const policy = urlPolicyFromLists({ blocked: blocked.origin }, names);
    const ours = await openPage(transport);
    const theirs = await openPage(transport);
    const off = await guardBrowser(transport, policy, { sessionId: ours.page.rootId });
    try {
      await engineHandlers(ours).navigate(create(NavigateParamsSchema, { url: `${app.origin}/ours` }), undefined);
      await engineHandlers(theirs).navigate(create(NavigateParamsSchema, { url: `${app.origin}/theirs` }), undefined);
      await until(() => blocked.requests.some((r) => r.endsWith(" /theirs")));
      expect(blocked.requests.filter((r) => r.endsWith(" /theirs"))).toHaveLength(1);
      expect(blocked.requests.filter((r) => r.endsWith(" /ours"))).toEqual([]);
      expect(app.requests.some((r) => r.endsWith(" /ours"))).toBe(true);
    } finally {
      off();
      ours.dispose();
      theirs.dispose();
    }
  });

  it("scoped to our page: holds its frames in other processes too", async () => {
    // A frame of another site (127.0.0.2) runs in a process of its own, a target of its own.
    const partner = await startTestSite({ "/frame": `<p>partner</p><script>fetch(${JSON.stringify(`${blocked.origin}/oopif`)}, { mode: "no-cors" }).catch(() => {})</script>` }, "127.0.0.2");
    const page = await startTestSite({ "/": `<p>app</p><iframe src="${partner.origin}/frame"></iframe>` });
    const policy = urlPolicyFromLists({ blocked: blocked.origin }, names);
    const ours = await openPage(transport);
    const off = await guardBrowser(transport, policy, { sessionId: ours.page.rootId });
    try {
      await engineHandlers(ours).navigate(create(NavigateParamsSchema, { url: `${page.origin}/` }), undefined);
      await until(() => partner.requests.some((r) => r.endsWith(" /frame")));
      expect([...ours.page.sessions.values()].some((s) => s.parentId === ours.page.rootId)).toBe(true);
      await until(() => blocked.requests.some((r) => r.endsWith(" /oopif")), 1500);
      expect(blocked.requests.filter((r) => r.endsWith(" /oopif"))).toEqual([]);
    } finally {
      off();
      ours.dispose();
      await partner.close();
      await page.close();
    }
  });

  it("over the whole browser: holds a page in a fresh browser context, blocked sites and local files alike", async () => {
    const policy = urlPolicyFromLists({ blocked: blocked.origin }, names);
    const off = await guardBrowser(transport, policy);
    const { browserContextId } = await transport.send<{ browserContextId: string }>("Target.createBrowserContext", {});
    try {
      const engine = await openPage(transport, { browserContextId });
      const tools = engineHandlers(engine);
      await tools.navigate(create(NavigateParamsSchema, { url: `${app.origin}/context` }), undefined);
      await until(() => blocked.requests.some((r) => r.endsWith(" /context")), 1500);
      expect(blocked.requests.filter((r) => r.endsWith(" /context"))).toEqual([]);
      await engine.page.send("Page.navigate", { url: "file:///etc/passwd" }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 500));
      // The request fails, or the target watch closes a tab that shows the file: either way no content.
      const shown = await engine.page
        .send<{ result: { value?: string } }>("Runtime.evaluate", { expression: "location.href + document.body?.innerText", returnByValue: true })
        .then((r) => r.result.value ?? "", () => "");
      expect(shown).not.toMatch(/root:x:0/);
      engine.dispose();
    } finally {
      off();
      await transport.send("Target.disposeBrowserContext", { browserContextId }).catch(() => undefined);
    }
  });

  it("says what it cannot hold, scoped or whole", () => {
    expect(attachedGuardNotice("the browser at http://h:9222", false)).toMatch(/http:\/\/h:9222.*back\/forward cache.*not held: .*other tabs.*WebSockets.*--host-resolver-rules/);
    expect(attachedGuardNotice("the browser at http://h:9222", true)).not.toMatch(/other tabs/);
  });
});
