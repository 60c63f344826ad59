/**
 * The custom-tool example end to end over real HTTP: Acme's proto → protoc-gen-baton → typed
 * handlers → declared to the model per session → the (scripted) model calls them → results go
 * back to the model. Cancelling is irreversible: denied once (the order stays), then approved.
 */
import { type Backend, createToken, ensureUser, type Provider, ScriptProvider, startBackend } from "@baton/backend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OrderStatus } from "./gen/acme/v1/orders_pb.js";
import { type Order, runSupportAgent } from "./main.js";

let backend: Backend;
let token = "";
type ModelRequest = Parameters<Provider["generate"]>[0];
const seen: ModelRequest[] = [];
const turns = [
  { text: "<goal>Cancel order A-1042 if it has not shipped</goal>", calls: [{ name: "lookup_order", args: { order_id: "A-1042" } }] },
  { calls: [{ name: "cancel_order", args: { order_id: "A-1042", reason: "ordered twice" } }] },
  { calls: [{ name: "cancel_order", args: { order_id: "A-1042", reason: "ordered twice (confirmed)" } }] },
  { calls: [{ name: "done", args: { answer: "Order A-1042 is cancelled." } }] },
];
const model = new ScriptProvider((req) => {
  seen.push(req);
  return turns[req.callIndex] ?? { calls: [{ name: "done", args: { answer: "out of script", success: false } }] };
});

beforeAll(async () => {
  backend = await startBackend({ port: 0, resolveModel: () => ({ provider: model, model: "acme" }) });
  await ensureUser(backend.db, "alice");
  token = await createToken(backend.db, "alice");
});
afterAll(async () => backend?.close());

describe("examples/custom-tool", () => {
  it("declares Acme's tools to the model, runs them in the client and gates the irreversible one", async () => {
    const orders = new Map<string, Order>([["A-1042", { status: OrderStatus.PROCESSING, items: ["Blue mug"], totalCents: 1250 }]]);
    const decisions: boolean[] = [];
    let asked = 0;
    const outcome = await runSupportAgent({
      backendUrl: backend.server.url,
      token,
      task: "Cancel order A-1042 if it has not shipped",
      orders,
      approve: (tool, args) => {
        expect(tool).toBe("cancel_order");
        expect(JSON.parse(args)).toMatchObject({ order_id: "A-1042" });
        // The first request is denied: the order must still be processing then.
        const ok = asked++ > 0;
        if (!ok) expect(orders.get("A-1042")?.status).toBe(OrderStatus.PROCESSING);
        decisions.push(ok);
        return ok;
      },
    });
    expect(outcome.status).toBe("completed");
    expect(decisions).toEqual([false, true]);
    expect(orders.get("A-1042")?.status).toBe(OrderStatus.CANCELLED);
    // The model was offered Acme's tools beside Baton's, read the lookup, and was told the
    // first cancel was denied before it asked again.
    expect(seen).toHaveLength(4);
    const names = seen[0]!.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["lookup_order", "cancel_order", "click", "done"]));
    const results = (i: number) =>
      seen[i]!.items.flatMap((it) => (it.type === "tool_result" ? [it.output] : [])).join("\n");
    expect(JSON.parse(results(1))).toEqual({ order_id: "A-1042", status: "processing", items: ["Blue mug"], total_cents: 1250 });
    expect(results(2)).toContain("denied");
    expect(JSON.parse(results(3))).toEqual({ status: "cancelled" });
  });
});
