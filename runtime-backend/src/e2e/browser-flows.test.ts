/**
 * End to end in a real browser: runTask over real HTTP against the backend, a script model
 * whose targets are role + name (resolved against the snapshots the page really produced),
 * headless Chromium driven by the engine, and fixture pages whose effects live on the server.
 * Each test asserts the page's final state (engineProbe) and the server's, not just the outcome.
 */
import { type RunEvent, runTask } from "@baton/sdk/client";
import { checkExpectations, engineProbe } from "@baton/sdk/script";
import { describe, expect, it } from "vitest";
import { unfence } from "../context/page-data.js";
import type { ModelRequest } from "../providers/types.js";
import type { ScriptTurn } from "../providers/script.js";
import { browserHandlers, evaluate, useBrowserRig } from "./rig.js";

const rig = useBrowserRig();
const setup = rig.setup;

const target = (role: string, name: string) => ({ role, name });

describe("browser flows with the script provider", () => {
  it("logs in through a real form: the server session exists and the account page shows it", async () => {
    const { backend, engine } = await setup({
      turns: [
        { text: "<goal>Log in as Ada</goal>", calls: [{ name: "take_snapshot" }] },
        {
          calls: [
            { name: "type_text", args: { ref: target("textbox", "Email"), text: "ada@example.com" } },
            { name: "type_text", args: { ref: target("textbox", "Password"), text: "hunter2" } },
            { name: "click", args: { ref: target("button", "Log in") } },
          ],
        },
        { calls: [{ name: "done", args: { answer: "Logged in as ada@example.com" } }] },
      ],
    });
    const events: RunEvent[] = [];
    const outcome = await runTask(backend.client, {
      task: "Log in as ada@example.com with password hunter2",
      startUrl: `${rig.site.a}/login`,
      handlers: browserHandlers(engine),
      onEvent: (e) => events.push(e),
    });
    expect(outcome.status).toBe("completed");
    expect(events.filter((e) => e.type === "tool_end" && e.error)).toEqual([]);
    expect(rig.site.state.logins).toEqual(["ada@example.com"]);
    const broken = await checkExpectations(
      { url: "/account$", text: ["Welcome, Ada", "Signed in as ada@example.com"], js: ["document.getElementById('who').textContent === 'ada@example.com'"] },
      engineProbe(engine),
      outcome.answer,
    );
    expect(broken).toEqual([]);
  });

  it("searches, then opens the right result", async () => {
    const { backend, engine } = await setup({
      turns: [
        { text: "<goal>Find the blue mug's price</goal>", calls: [{ name: "take_snapshot" }] },
        { calls: [{ name: "type_text", args: { ref: target("searchbox", "Search products"), text: "mug", press_enter: true } }] },
        { calls: [{ name: "take_snapshot" }] },
        { calls: [{ name: "click", args: { ref: target("link", "Blue mug") } }] },
        { calls: [{ name: "done", args: { answer: "The blue mug costs £12." } }] },
      ],
    });
    const outcome = await runTask(backend.client, { task: "What does the blue mug cost?", startUrl: `${rig.site.a}/search`, handlers: browserHandlers(engine) });
    expect(outcome.status).toBe("completed");
    // The results page the model read listed all three mugs; it picked the blue one.
    const snapshots = backend.model.requests.at(-2)?.items.filter((i) => i.type === "tool_result").map((i) => (i.type === "tool_result" ? i.output : "")) ?? [];
    expect(snapshots.join("\n")).toMatch(/Red mug/);
    expect(await engineProbe(engine).url()).toBe(`${rig.site.a}/product/blue-mug`);
    expect(await evaluate<string>(engine, "document.querySelector('h1').textContent")).toBe("Blue mug");
    expect(await engineProbe(engine).text()).toContain("Price: £12");
  });

  it("works across two tabs: opens one, reads it, switches back, types, closes it", async () => {
    // Tab ids are known only at run time, so this "model" reads them from the tool results.
    const ids: { first?: string; help?: string } = {};
    const lastOutputs = (req: ModelRequest) => req.items.flatMap((i) => (i.type === "tool_result" ? [JSON.parse(unfence(i.output)) as Record<string, any>] : []));
    const turns: ((req: ModelRequest) => ScriptTurn)[] = [
      () => ({ text: "<goal>Copy the support code into the note</goal>", calls: [{ name: "list_tabs" }] }),
      (req) => {
        ids.first = lastOutputs(req).at(-1)?.active_tab_id ?? lastOutputs(req).at(-1)?.activeTabId;
        return { calls: [{ name: "open_tab", args: { url: `${rig.site.a}/help` } }] };
      },
      (req) => {
        const tab = lastOutputs(req).at(-1)?.tab;
        ids.help = tab?.tab_id ?? tab?.tabId;
        return { calls: [{ name: "extract", args: {} }] };
      },
      () => ({ calls: [{ name: "switch_tab", args: { tab_id: ids.first } }, { name: "take_snapshot" }] }),
      () => ({ calls: [{ name: "type_text", args: { ref: target("textbox", "Code from the help page"), text: "4217" } }] }),
      () => ({ calls: [{ name: "close_tab", args: { tab_id: ids.help } }, { name: "list_tabs" }] }),
      () => ({ calls: [{ name: "done", args: { answer: "Copied 4217." } }] }),
    ];
    const { backend, engine } = await setup((req) => (turns[req.callIndex] ?? turns.at(-1)!)(req));
    const targetsBefore = await rig.browser.transport.send<{ targetInfos: { type: string; url: string }[] }>("Target.getTargets");
    const outcome = await runTask(backend.client, { task: "Copy the support code from the help page into the note", startUrl: `${rig.site.a}/notes`, handlers: browserHandlers(engine) });
    expect(outcome.status).toBe("completed");
    expect(ids.first).toBeTruthy();
    expect(ids.help).toBeTruthy();
    // The help tab really showed the code to the model.
    expect(JSON.stringify(backend.model.requests[3]?.items)).toContain("4217");
    // The engine is back on the notes page, with the code typed in.
    expect(await engineProbe(engine).url()).toBe(`${rig.site.a}/notes`);
    expect(await evaluate<string>(engine, "document.getElementById('code').value")).toBe("4217");
    // The help tab is gone from the browser; the last list_tabs saw only the notes tab.
    const targetsAfter = await rig.browser.transport.send<{ targetInfos: { type: string; url: string }[] }>("Target.getTargets");
    expect(targetsAfter.targetInfos.filter((t) => t.url.endsWith("/help"))).toEqual([]);
    expect(targetsAfter.targetInfos.filter((t) => t.type === "page").length).toBe(targetsBefore.targetInfos.filter((t) => t.type === "page").length);
    const lastList = JSON.stringify(backend.model.requests.at(-1)?.items.at(-1));
    expect(lastList).toContain("/notes");
    expect(lastList).not.toContain("/help");
  });

  it("fills a form inside a cross-origin iframe: the payment reaches the frame's server and the parent page", async () => {
    const { backend, engine } = await setup({
      turns: [
        { text: "<goal>Pay with the test card</goal>", calls: [{ name: "take_snapshot" }] },
        {
          calls: [
            { name: "type_text", args: { ref: target("textbox", "Card number"), text: "4242 4242 4242 4242" } },
            { name: "type_text", args: { ref: target("textbox", "Name on card"), text: "Ada Lovelace" } },
            { name: "click", args: { ref: target("button", "Pay £12") } },
          ],
        },
        { calls: [{ name: "wait_for", args: { text: "Paid with card ending" } }] },
        { calls: [{ name: "done", args: { answer: "Paid." } }] },
      ],
    });
    const outcome = await runTask(backend.client, { task: "Pay for the order with card 4242 4242 4242 4242, name Ada Lovelace", startUrl: `${rig.site.a}/checkout`, handlers: browserHandlers(engine) });
    expect(outcome.status).toBe("completed");
    // The snapshot the model read placed the card form in a cross-origin frame.
    expect(JSON.stringify(backend.model.requests[1]?.items)).toMatch(/cross-origin localhost/);
    expect(rig.site.state.payments).toEqual([{ num: "4242424242424242", name: "Ada Lovelace" }]);
    expect(await engineProbe(engine).text()).toContain("Paid with card ending 4242.");
  });
});
