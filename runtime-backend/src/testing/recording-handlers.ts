import type { ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { type RunContext, withoutBrowser } from "@baton/sdk/client";

/**
 * Client tool handlers with no browser that record, in order, every click ("click e9") and
 * typing ("type e1") they execute: what a page would have seen. The other tools answer as
 * unavailable.
 */
export function recordingHandlers(log: string[]): ClientToolHandlers<RunContext> {
  return {
    ...withoutBrowser(async () => ({ answer: "" })),
    click: async (p) => (log.push(`click ${p.ref}`), { evidence: { url: "http://127.0.0.1/shop", title: "Shop" } }),
    typeText: async (p) => (log.push(`type ${p.ref}`), { value: p.text }),
  };
}
