import { riskPolicy, type RiskPolicyOptions } from "../loop/approval.js";
import { Agent } from "../loop/agent.js";
import type { ModelResolver } from "../loop/deps.js";
import type { FoldOptions } from "../context/fold.js";
import type { Logger } from "../log/logger.js";
import { createRedactor, envSecrets, type Redact } from "../log/redact.js";
import type { Db } from "../store/db.js";
import { openDb, type StoreLocation } from "../store/open.js";
import { tokenRevokedChannel } from "../store/api-tokens.js";
import { SessionStore } from "../store/session-store.js";
import { startUpkeep } from "../store/upkeep.js";
import { QuotaGuard } from "../loop/quota.js";
import { type ApprovalMemory, storeTrust } from "../loop/trust.js";
import type { UrlPolicy } from "@baton/sdk/policy";
import { linkBase } from "./allowed-hosts.js";
import { bearerAuth } from "./auth.js";
import { consoleAuth, requestAuth } from "./console-auth.js";
import { consoleBuild, consolePages } from "./console-pages.js";
import { allRoutes, consoleRoutes } from "./console-routes.js";
import type { CorsOptions } from "./cors.js";
import { defaultPublicRateLimit, type RateLimit } from "./rate-limit.js";
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
  /** Context folding budgets; `defaultFoldOptions` when unset. */
  readonly fold?: FoldOptions;
  /**
   * Masks the operator's secrets in provider errors and client logs before they are stored or
   * returned; default: the secrets of this process's environment (`envSecrets`).
   */
  readonly redact?: Redact;
  /** Serve the web console at `/` (`baton serve` does; its build is made first in a clone). Default false. */
  readonly console?: boolean;
  /** The console's public address, for the links it hands out and a Secure cookie ("https://…"); its host is answered too. */
  readonly publicUrl?: string;
  /**
   * Calls each client address may make to the methods anyone may call without signing in
   * (device linking, sign-in): `defaultPublicRateLimit` when unset; false for none.
   */
  readonly publicRateLimit?: RateLimit | false;
  /** Host names answered beyond the listen address and loopback names: "name" or "name:port" (`allowed-hosts.ts`). */
  readonly allowedHosts?: readonly string[];
  /** How long a one-time sign-in link works (default 24 hours). */
  readonly signInLinkMs?: number;
  /** A site policy every session is held to besides the store's (`baton run --policy FILE`). */
  readonly sitePolicy?: UrlPolicy;
  /** Keep remembered approval decisions here instead of the store (`baton run`'s file). */
  readonly approvals?: ApprovalMemory;
}

/** A running backend: its server, store and agent. */
export interface Backend {
  readonly server: RunningServer;
  readonly db: Db;
  readonly agent: Agent;
  /** Daily quotas, enforced before each model call. */
  readonly quotas: QuotaGuard;
  close(): Promise<void>;
}

/** Opens the store, builds the agent and serves the routes. */
export async function startBackend(o: BackendOptions): Promise<Backend> {
  const db = await openDb(o);
  // What the start opened, closed in reverse order (the store and its lock last) by close() or a failed start.
  const undo: (() => Promise<unknown>)[] = [() => db.close()];
  try {
    const store = new SessionStore(db);
    if (db.kind === "embedded") {
      // One process owns an embedded store, so any lease in it is from a process that died.
      await store.clearLeases();
    }
    // Expired links and sessions are purged on either engine; the embedded one also has no
    // autovacuum or checkpointer of its own (Postgres does).
    const upkeep = startUpkeep(db, o.logger ? { logger: o.logger } : {});
    undo.unshift(() => upkeep.stop());
    const quotas = new QuotaGuard(db);
    await quotas.load();
    const agent = new Agent({
      quota: quotas,
      store,
      resolveModel: o.resolveModel,
      ...(o.defaultModel ? { defaultModel: o.defaultModel } : {}),
      ...(o.defaultMaxSteps ? { defaultMaxSteps: o.defaultMaxSteps } : {}),
      approval: riskPolicy(o.approval),
      trust: storeTrust(db, { ...(o.sitePolicy ? { extraPolicy: () => o.sitePolicy as UrlPolicy } : {}), ...(o.approvals ? { approvals: o.approvals } : {}) }),
      ...(o.logger ? { logger: o.logger } : {}),
      ...(o.fold ? { fold: o.fold } : {}),
      redact: o.redact ?? createRedactor(envSecrets(process.env)),
    });
    const bearer = bearerAuth(db);
    // Replicas on one Postgres hear of each other's revocations at once.
    const unlisten = db.listen ? await db.listen(tokenRevokedChannel, (id) => bearer.forget(id)) : undefined;
    if (unlisten) undo.unshift(unlisten);
    const auth = requestAuth(bearer, consoleAuth(db));
    let port = o.port ?? 0;
    const consoleDeps = {
      db,
      agent,
      forgetToken: (id: string) => bearer.forget(id),
      quotas,
      signInLinkMs: o.signInLinkMs ?? 24 * 3_600_000,
      publicUrl: o.publicUrl,
      linkBase: () => linkBase({ listenHost: o.host ?? "127.0.0.1", port, publicUrl: o.publicUrl }),
    };
    const pages = o.console ? consolePages(await consoleBuild()) : undefined;
    const server = await serve({
      routes: allRoutes(agentRoutes(agent, auth), consoleRoutes(consoleDeps, auth)),
      ...(pages ? { pages } : {}),
      ...(o.port !== undefined ? { port: o.port } : {}),
      ...(o.host ? { host: o.host } : {}),
      ...(o.cors ? { cors: o.cors } : {}),
      hosts: { publicUrl: o.publicUrl, allowed: o.allowedHosts },
      anonymousLimit: o.publicRateLimit ?? defaultPublicRateLimit,
    });
    port = server.port;
    return {
      server,
      db,
      agent,
      quotas,
      async close() {
        await server.close();
        for (const u of undo) await u();
      },
    };
  } catch (e) {
    for (const u of undo) await u().catch(() => undefined);
    throw e;
  }
}
