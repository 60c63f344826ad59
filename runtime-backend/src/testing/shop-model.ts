/**
 * A stand-in for a model on the Mugshop fixture (`examples/replay/shop`): it reads the latest
 * snapshot in each request (any wire) the way a model reads refs off the page, and buys a large
 * blue mug in ten actions, one per turn, each followed by a snapshot. Asked to repair a step of
 * a replay, it looks at the page and does what the failed step meant (the control whose name
 * begins like the recorded one's). Used by the replay tests and `npm run bench:replay`.
 */
import { findTarget, snapshotRefs } from "@baton/sdk/script";
import type { FakeReply } from "./fake-llm-server.js";
import { callNames, latestSnapshot, userTexts } from "./sent-prompt.js";

/** The ten actions, as role + name and arguments. */
export const shopActions: readonly {
  readonly tool: string;
  readonly role: string;
  readonly name: string;
  readonly args?: Record<string, unknown>;
  /** What to wait for after the action (the page answers late), as wait_for's arguments. */
  readonly waitFor?: Record<string, unknown>;
}[] = [
  { tool: "type_text", role: "searchbox", name: "Search products", args: { text: "mug" }, waitFor: { text: "Blue mug" } },
  { tool: "click", role: "option", name: "Blue mug" },
  { tool: "click", role: "radio", name: "Large" },
  { tool: "click", role: "button", name: "Increase quantity" },
  { tool: "click", role: "button", name: "Add to basket", waitFor: { url: "basket" } },
  { tool: "click", role: "link", name: "Checkout" },
  { tool: "type_text", role: "textbox", name: "Full name", args: { text: "Ada Lovelace" } },
  { tool: "type_text", role: "textbox", name: "Email", args: { text: "ada@example.com" } },
  { tool: "select_option", role: "combobox", name: "Delivery", args: { values: ["Express (next day)"] } },
  { tool: "click", role: "button", name: "Place order" },
];

/** The task the model is given. */
export const shopTask = "Buy two large blue mugs with express delivery, for Ada Lovelace (ada@example.com)";

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, args: JSON.stringify(args) });

/** A model for one run: the main task in order, or, for a heal prompt, the one step it names. */
export function shopModel(): (body: unknown) => FakeReply {
  let turn = 0;
  return (body) => {
    const prompt = userTexts(body)[0] ?? "";
    if (prompt.includes("You are repairing one step")) return heal(body, prompt);
    const t = turn;
    if (t === 0) {
      turn++;
      return { kind: "calls", calls: [call("take_snapshot")], text: "<goal>Buy two large blue mugs with express delivery</goal>Looking at the shop." };
    }
    const a = shopActions[t - 1];
    if (!a) return { kind: "calls", calls: [call("done", { answer: "Ordered two large blue mugs, express delivery." })] };
    const ref = findTarget(snapshotRefs(latestSnapshot(body)), { role: a.role, name: a.name });
    // Not on the page yet (it is still loading): look again a moment later.
    if (!ref) return { kind: "calls", calls: [call("wait_for", { ms: 300 }), call("take_snapshot")] };
    turn++;
    return { kind: "calls", calls: [call(a.tool, { ref, ...a.args }), ...(a.waitFor ? [call("wait_for", a.waitFor)] : []), call("take_snapshot")] };
  };
}

/** Repairs the step the prompt names: snapshot, then the control named like the recorded one, then done. */
function heal(body: unknown, prompt: string): FakeReply {
  const last = callNames(body).at(-1);
  if (!last) return { kind: "calls", calls: [call("take_snapshot")] };
  if (last === "take_snapshot") {
    const m = /as recorded: (\w+)\(ref=(\w+) "([^"]+)"/.exec(prompt);
    const [, tool = "click", role = "button", name = ""] = m ?? [];
    const word = name.split(" ")[0] ?? name;
    const ref = findTarget(snapshotRefs(latestSnapshot(body)), { role, name: word });
    return ref ? { kind: "calls", calls: [call(tool, { ref })] } : { kind: "calls", calls: [call("done", { answer: `No ${role} like "${name}" here.`, success: false })] };
  }
  return { kind: "calls", calls: [call("done", { answer: "Did the step on the changed page." })] };
}
