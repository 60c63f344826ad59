/**
 * Approvals and stops in a real browser: a "purchase" gated by approval (denied, then
 * approved) and a run stopped in the middle. The fixture server counts orders and clicks, so
 * the tests see what really happened on the rig.site.
 */
import { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { type ApprovalRequest, runTask } from "@baton/sdk/client";
import { engineProbe } from "@baton/sdk/script";
import { describe, expect, it } from "vitest";
import { browserHandlers, useBrowserRig } from "./rig.js";

const rig = useBrowserRig();
const setup = rig.setup;

const placeOrder = { name: "click", args: { ref: { role: "button", name: "Place order" }, irreversible: true } };

describe("approval-gated purchase", () => {
  it("places no order when denied, and exactly one when approved", async () => {
    const { backend, engine } = await setup({
      turns: [
        { text: "<goal>Buy the blue mug</goal>", calls: [{ name: "take_snapshot" }] },
        { calls: [placeOrder] },
        // The model reads the denial, looks at the page again, then asks again. (A role+name
        // target resolves against a snapshot in the previous turn's results: the folded
        // context keeps only the latest interaction in full.)
        { text: "You declined; asking once more.", calls: [{ name: "take_snapshot" }] },
        { calls: [placeOrder] },
        { calls: [{ name: "done", args: { answer: "Order placed." } }] },
      ],
    });
    const asked: { request: ApprovalRequest; ordersBefore: number; pageBefore: string }[] = [];
    const outcome = await runTask(backend.client, {
      task: "Buy the blue mug in my basket",
      startUrl: `${rig.site.a}/shop`,
      handlers: browserHandlers(engine),
      onApproval: async (request) => {
        asked.push({ request, ordersBefore: rig.site.state.orders, pageBefore: await engineProbe(engine).text() });
        return asked.length === 1 ? { approved: false, reason: "Not now." } : { approved: true };
      },
    });
    expect(outcome.status).toBe("completed");
    expect(asked.map((a) => a.request.tool.name)).toEqual(["click", "click"]);
    // The approval names the real button, flagged irreversible.
    const call = asked[0]?.request.call.tool;
    expect(call?.case === "click" && call.value.irreversible).toBe(true);
    // After the denial nothing was ordered: not on the server, not on the page.
    expect(asked[1]?.ordersBefore).toBe(0);
    expect(asked[1]?.pageBefore).not.toContain("Order placed");
    // The model was told the user refused.
    expect(JSON.stringify(backend.model.requests[2]?.items)).toMatch(/Not now/);
    // After the approval: exactly one order, shown on the page.
    expect(rig.site.state.orders).toBe(1);
    expect(await engineProbe(engine).text()).toContain("Order placed: #1");
  });
});

describe("stop", () => {
  it("stops in the middle: no further clicks reach the site and the session is stopped", async () => {
    const add = { name: "click", args: { ref: { role: "button", name: "Add one" } } };
    const { backend, engine } = await setup({
      turns: [
        { text: "<goal>Click five times</goal>", calls: [{ name: "take_snapshot" }] },
        ...Array.from({ length: 5 }, () => ({ calls: [add, { name: "take_snapshot" }] })),
        { calls: [{ name: "done", args: { answer: "Clicked five times." } }] },
      ],
    });
    const before = rig.site.state.count;
    const stop = new AbortController();
    let clicks = 0;
    const handlers = browserHandlers(engine);
    const outcome = await runTask(backend.client, {
      task: "Click 'Add one' five times",
      startUrl: `${rig.site.a}/counter`,
      handlers: {
        ...handlers,
        click: async (p, ctx) => {
          const r = await handlers.click(p, ctx);
          // The user presses stop while the second click is running.
          if (++clicks === 2) stop.abort();
          return r;
        },
      },
      signal: stop.signal,
    });
    expect(outcome.status).toBe("stopped");
    expect(outcome.reason).toMatch(/stopped/);
    const got = await backend.client.getSession({ sessionId: outcome.sessionId });
    expect(got.session?.status).toBe(SessionStatus.STOPPED);
    // The click under way finished; nothing after it ran (not even its turn's snapshot), and
    // the model was not asked again.
    expect(rig.site.state.count - before).toBe(2);
    expect(await engineProbe(engine).text()).toContain(`Count: ${rig.site.state.count}`);
    expect(backend.model.requests.length).toBe(3);
    await new Promise((r) => setTimeout(r, 300));
    expect(rig.site.state.count - before).toBe(2);
  });
});
