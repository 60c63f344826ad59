import { riskPolicy, type RiskPolicyOptions } from "../loop/approval.js";
import { Agent } from "../loop/agent.js";
import type { ModelResolver } from "../loop/deps.js";
import type { FoldOptions } from "../context/fold.js";
import type { Logger } from "../log/logger.js";
import { createRedactor, envSecrets, type Redact } from "../log/redact.js";
import type { Db } from "../store/db.js";
import { openDb, type StoreLocation } from "../store/open.js";
import { SessionStore } from "../store/session-store.js";
import { startEmbeddedUpkeep } from "../store/upkeep.js";
import { bearerAuth } from "./auth.js";
import type { CorsOptions } from "./cors.js";
import { agentRoutes } from "./routes.js";
import { type RunningServer, serve } from "./serve.js";

/** Everything `baton serve` (and the benchmarks) configure. */
export interface BackendOptions extends StoreLocation {
  readonly port?: number;
  readonly host?: string;
  readonly resolveModel: ModelResolver;
  readonly defaultModel?: string;
  readonly defaultMaxSteps?: number;
  readonly approval?: RiskPolicyOptions;
  readonly cors?: CorsOptions;
  readonly logger?: Logger;
  /** Context folding budgets; seed 001's defaults when unset. */
  readonly fold?: FoldOptions;
  /** Serve binary unary calls on the fast path (`fast-unary.ts`); default true. */
  readonly fastUnary?: boolean;
  /**
   * Masks the operator's secrets in provider errors and client logs before they are stored or
   * returned; default: the secrets of this process's environment (`envSecrets`).
   */
  readonly redact?: Redact;
}

/** A running backend: its server, store and agent. */
export interface Backend {
  readonly server: RunningServer;
  readonly db: Db;
  readonly agent: Agent;
  close(): Promise<void>;
}

/** Opens the store, builds the agent and serves the routes. */
export async function startBackend(o: BackendOptions): Promise<Backend> {
  const db = await openDb(o);
  const store = new SessionStore(db);
  if (db.kind === "embedded") {
    // One process owns an embedded store, so any lease in it is from a process that died.
    await store.clearLeases();
  }
  // The embedded engine has no autovacuum or checkpointer of its own (Postgres does).
  const upkeep = startEmbeddedUpkeep(db, o.logger ? { logger: o.logger } : {});
  const agent = new Agent({
    store,
    resolveModel: o.resolveModel,
    ...(o.defaultModel ? { defaultModel: o.defaultModel } : {}),
    ...(o.defaultMaxSteps ? { defaultMaxSteps: o.defaultMaxSteps } : {}),
    approval: riskPolicy(o.approval),
    ...(o.logger ? { logger: o.logger } : {}),
    ...(o.fold ? { fold: o.fold } : {}),
    redact: o.redact ?? createRedactor(envSecrets(process.env)),
  });
  const server = await serve({
    routes: agentRoutes(agent, bearerAuth(db)),
    ...(o.port !== undefined ? { port: o.port } : {}),
    ...(o.host ? { host: o.host } : {}),
    ...(o.cors ? { cors: o.cors } : {}),
    ...(o.fastUnary === false ? { fastUnary: false } : {}),
  });
  return {
    server,
    db,
    agent,
    async close() {
      await server.close();
      await upkeep.stop();
      await db.close();
    },
  };
}
