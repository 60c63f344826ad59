import { createRouterTransport, type Transport } from "@connectrpc/connect";
import type { LogSink } from "../log/log-sink.js";
import { createRedactor } from "../log/redact.js";
import { Agent } from "../loop/agent.js";
import type { ModelResolver } from "../loop/deps.js";
import { agentRoutes } from "../server/routes.js";
import { migrate } from "../store/migrations.js";
import { openPgliteDb } from "../store/pglite-db.js";
import { SessionStore } from "../store/session-store.js";
import { ensureUser } from "../store/users.js";

export { type UserModelKey, userModelResolver } from "./user-models.js";

/** Options of {@link startStandalone}. */
export interface StandaloneOptions {
  /** Where PGlite keeps the store: `idb://name` in a browser (IndexedDB), a directory in Node, in memory when unset. */
  readonly dataDir?: string;
  readonly resolveModel: ModelResolver;
  readonly defaultModel?: string;
  /** The user's own secrets (their model key): masked in provider errors before anything is stored or shown. */
  readonly secrets?: readonly string[];
  readonly logger?: LogSink;
}

/** The agent service running in this page or process, and the transport its clients use. */
export interface Standalone {
  /** A Connect transport to the AgentService: `createClient(AgentService, transport)`. */
  readonly transport: Transport;
  readonly agent: Agent;
  close(): Promise<void>;
}

/** The one user of a standalone store: whoever holds the page. */
export const standaloneUser = "local";

/**
 * The AgentService without a server (the extension's standalone mode): the same
 * loop, context folding, providers and store face as `baton serve`, on PGlite in this thread
 * (on IndexedDB in a browser page), served through Connect's in-memory router transport, so a
 * client speaks the same contract as to a backend. Nothing here needs Node: no worker thread,
 * no files, no pino, no `node:crypto`. One page holds the store at a time, like one process
 * holds an embedded data directory: any lease found at start belongs to a page that was closed
 * mid-step, so it is cleared and the session resumes at its next `Step`.
 */
export async function startStandalone(o: StandaloneOptions): Promise<Standalone> {
  const db = await openPgliteDb(o.dataDir);
  try {
    await migrate(db);
    await ensureUser(db, standaloneUser);
  } catch (e) {
    await db.close();
    throw e;
  }
  const store = new SessionStore(db);
  await store.clearLeases();
  const agent = new Agent({
    store,
    resolveModel: o.resolveModel,
    ...(o.defaultModel ? { defaultModel: o.defaultModel } : {}),
    ...(o.logger ? { logger: o.logger } : {}),
    redact: createRedactor(o.secrets ?? []),
  });
  const transport = createRouterTransport(agentRoutes(agent, async () => standaloneUser));
  return { transport, agent, close: () => db.close() };
}
