import { type Client, createClient, type Interceptor, type Transport } from "@connectrpc/connect";
import { AgentService } from "@baton/gen/baton/v1/descriptors";
import { binaryTransport } from "./binary-transport.js";

/** Options of {@link createBatonClient}. */
export interface BatonClientOptions {
  /** The backend's base URL, such as "http://127.0.0.1:8787". Ignored when `transport` is given. */
  readonly baseUrl?: string;
  /** The user's API token, sent as `Authorization: Bearer …` and never logged. */
  readonly token?: string;
  /**
   * A Connect transport to use instead of the default {@link binaryTransport} (Connect over
   * fetch, binary codec only; browsers and Node 18+). In Node, `nodeTransport` from `@baton/sdk/node` (connect-node,
   * keep-alive, no Nagle delay); in tests, `createRouterTransport` runs the backend's routes in
   * memory.
   */
  readonly transport?: Transport;
  /** Extra interceptors (tracing, headers). */
  readonly interceptors?: readonly Interceptor[];
}

/** A typed AgentService client. */
export type BatonClient = Client<typeof AgentService>;

/** Adds the bearer token to every request. */
export function bearerToken(token: string): Interceptor {
  return (next) => async (req) => {
    req.header.set("Authorization", `Bearer ${token}`);
    return next(req);
  };
}

/**
 * Creates an AgentService client for a Baton backend.
 *
 * ```ts
 * const client = createBatonClient({ baseUrl: "http://127.0.0.1:8787", token: process.env.BATON_TOKEN });
 * const { session } = await client.createSession({ task: "Find the cheapest flight" });
 * ```
 */
export function createBatonClient(options: BatonClientOptions): BatonClient {
  const interceptors = [...(options.token ? [bearerToken(options.token)] : []), ...(options.interceptors ?? [])];
  if (options.transport) {
    if (interceptors.length > 0) {
      throw new Error("createBatonClient: with a custom transport, put the token and interceptors on the transport");
    }
    return createClient(AgentService, options.transport);
  }
  if (!options.baseUrl) {
    throw new Error("createBatonClient: give baseUrl (such as http://127.0.0.1:8787) or a transport");
  }
  const transport = binaryTransport({ baseUrl: options.baseUrl, interceptors });
  return createClient(AgentService, transport);
}
