import { withTimeout } from "@baton/sdk/cdp";
import type { DomRunner } from "@baton/sdk/engine/dom";

/** What a call into the page's agent comes back as. */
type AgentReply = { readonly missing: true } | { readonly value: unknown } | { readonly error: string };

/**
 * Runs in the tab's isolated world (serialised by `chrome.scripting`, so it must stand alone):
 * calls the DOM agent, or says it is not installed in this document yet.
 */
function callAgent(op: string, arg: unknown): AgentReply | Promise<AgentReply> {
  const agent = (globalThis as { __batonDomAgent?: (op: string, arg: unknown) => unknown }).__batonDomAgent;
  if (!agent) return { missing: true };
  try {
    return Promise.resolve(agent(op, arg)).then(
      (value): AgentReply => ({ value }),
      (e: unknown): AgentReply => ({ error: e instanceof Error ? e.message : String(e) }),
    );
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The DOM fallback's runner in the extension: `chrome.scripting.executeScript` calls the agent
 * in the tab's isolated world and installs it (the `dom-agent.js` file the build writes from
 * `domAgentSource`) in each new document on first use, with no `eval` anywhere.
 */
export function scriptingRunner(tabId: number, timeoutMs = 10_000): DomRunner {
  const invoke = async (op: string, arg: unknown): Promise<AgentReply> => {
    const [frame] = await chrome.scripting.executeScript({ target: { tabId }, func: callAgent, args: [op, arg ?? null] });
    return (frame?.result as AgentReply | undefined) ?? { error: "the page did not answer" };
  };
  const once = async <T>(op: string, arg: unknown): Promise<T> => {
    let reply = await invoke(op, arg);
    if ("missing" in reply) {
      await chrome.scripting.executeScript({ target: { tabId }, files: ["dom-agent.js"] });
      reply = await invoke(op, arg);
    }
    if ("error" in reply) throw new Error(reply.error);
    if ("missing" in reply) throw new Error("the DOM agent did not install");
    return reply.value as T;
  };
  return {
    call: <T>(op: string, arg?: unknown) => withTimeout(once<T>(op, arg), timeoutMs, `DOM agent ${op}`),
    url: async () => (await chrome.tabs.get(tabId)).url ?? "",
  };
}
