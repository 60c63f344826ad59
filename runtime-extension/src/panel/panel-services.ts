import { createBatonClient } from "@baton/sdk/client";
import type { Transport } from "@connectrpc/connect";
import { modeOf } from "../settings.js";
import type { PanelServices } from "./panel-model.js";

/** A transport that becomes `get()`'s once it resolves: a client can be made before the service it talks to has started. */
export function deferredTransport(get: () => Promise<Transport>): Transport {
  return {
    unary: async (method, signal, timeoutMs, header, input, contextValues) => (await get()).unary(method, signal, timeoutMs, header, input, contextValues),
    stream: async (method, signal, timeoutMs, header, input, contextValues) => (await get()).stream(method, signal, timeoutMs, header, input, contextValues),
  };
}

/**
 * The panel's services: connected mode (the user's backend over connect-web) whenever a backend URL
 * is set; otherwise the standalone mode, the AgentService in this page (loaded on first use, so
 * connected mode never loads the embedded database).
 */
export const panelServices: PanelServices = {
  client: (s) =>
    modeOf(s) === "connected"
      ? createBatonClient({ baseUrl: s.backendUrl.trim(), token: s.token })
      : createBatonClient({ transport: deferredTransport(async () => (await import("../standalone/standalone-services.js")).standaloneTransport(s)) }),
};
