import { pino } from "pino";
import { createLogger, createRedactor, envSecrets } from "@baton/backend/log";
import { type Env, createModelResolver } from "@baton/backend/providers";
import { startBackend } from "@baton/backend/server";
import { createToken, ensureUser } from "@baton/backend/store";

/** The backend a run talks to. */
export interface RunBackend {
  readonly baseUrl: string;
  /** Bearer token; never printed. */
  readonly token: string;
  /** Where sessions are stored, for the user ("in memory", a directory, or the URL). */
  readonly where: string;
  close(): Promise<void>;
}

/** A backend that cannot be used, with the reason for the user. */
export class BackendUnavailable extends Error {
  override readonly name = "BackendUnavailable";
}

/**
 * Starts the backend inside this process on a loopback port, on an embedded store in `dataDir`
 * (in memory when unset); `allowedHosts` are names ("host:port") it answers besides its own address. The local
 * user gets a fresh token for this run. Logs go to stderr at `error` unless BATON_LOG_LEVEL says
 * otherwise, so they never mix with the progress output.
 */
export async function startLocalBackend(o: { dataDir?: string; model: string; maxSteps?: number; env: Env; allowedHosts?: readonly string[] }): Promise<RunBackend> {
  const redact = createRedactor(envSecrets(o.env));
  const logger = createLogger({ level: o.env.BATON_LOG_LEVEL ?? "error", destination: pino.destination({ dest: 2, sync: true }), redact });
  const backend = await startBackend({
    port: 0,
    host: "127.0.0.1",
    ...(o.dataDir ? { dataDir: o.dataDir, owner: "baton run" } : {}),
    resolveModel: createModelResolver(o.env),
    defaultModel: o.model,
    ...(o.maxSteps ? { defaultMaxSteps: o.maxSteps } : {}),
    approval: { risks: ["irreversible"] },
    ...(o.allowedHosts ? { allowedHosts: o.allowedHosts } : {}),
    logger,
    redact,
  });
  try {
    await ensureUser(backend.db, "local");
    const token = await createToken(backend.db, "local", "baton run");
    return { baseUrl: backend.server.url, token, where: o.dataDir ? `embedded store in ${o.dataDir}` : "in-memory store", close: () => backend.close() };
  } catch (e) {
    await backend.close();
    throw e;
  }
}

/** Checks that an external backend answers its health check (capped at 5 s). */
export async function remoteBackend(url: string, token: string | undefined): Promise<RunBackend> {
  if (!token) throw new BackendUnavailable(`--backend ${url} needs an API token: pass --token, set BATON_API_TOKEN, or link this machine with "baton login --backend ${url}".`);
  const baseUrl = url.replace(/\/+$/, "");
  try {
    const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`GET /healthz answered ${res.status}`);
  } catch (e) {
    throw new BackendUnavailable(`The backend at ${baseUrl} is unreachable (${e instanceof Error ? e.message : String(e)}). Is "baton serve" running there?`);
  }
  return { baseUrl, token, where: baseUrl, close: async () => undefined };
}
