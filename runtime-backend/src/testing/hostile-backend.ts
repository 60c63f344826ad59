import { AgentService } from "@baton/gen/baton/v1/descriptors";
import { Writable } from "node:stream";
import { type Client, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { createLogger } from "../log/logger.js";
import { createRedactor, envSecrets } from "../log/redact.js";
import { createModelResolver, type Env } from "../providers/registry.js";
import type { Provider } from "../providers/types.js";
import { type Backend, type BackendOptions, startBackend } from "../server/app.js";
import { createToken, ensureUser } from "../store/users.js";

/** A real backend on a loopback port with two users, and what it logged, for attacks on it. */
export interface HostileRig {
  readonly backend: Backend;
  readonly url: string;
  /** Tokens of "alice" and "bob". */
  readonly alice: string;
  readonly bob: string;
  /** A Connect client (HTTP/1.1, binary) with a bearer token. */
  client(token: string, options?: { json?: boolean }): Client<typeof AgentService>;
  /** Every log record so far, parsed. */
  logs(): Record<string, unknown>[];
  /** Log records at error level or above. */
  errors(): Record<string, unknown>[];
  close(): Promise<void>;
}

/** Options of {@link startHostileRig}. */
export interface HostileRigOptions extends Partial<Omit<BackendOptions, "resolveModel" | "logger">> {
  /** Environment of the model resolver (BATON_SCRIPT_DIR, provider keys and base URLs). */
  readonly env?: Env;
  /** Extra providers by prefix. */
  readonly providers?: Readonly<Record<string, Provider>>;
}

/**
 * Starts the backend as `baton serve` would (the real resolver, server and store; in memory
 * unless `dataDir` is given), with a logger whose records the test can read.
 */
export async function startHostileRig(o: HostileRigOptions = {}): Promise<HostileRig> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  const { env = {}, providers = {}, ...rest } = o;
  // As `baton serve` does: the resolver's environment holds the operator's secrets.
  const redact = createRedactor(envSecrets(env));
  const backend = await startBackend({
    ...rest,
    resolveModel: createModelResolver(env, providers),
    logger: createLogger({ level: "debug", destination: sink, redact }),
    redact,
  });
  await ensureUser(backend.db, "alice");
  await ensureUser(backend.db, "bob");
  const alice = await createToken(backend.db, "alice");
  const bob = await createToken(backend.db, "bob");
  const logs = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return {
    backend,
    url: backend.server.url,
    alice,
    bob,
    client(token, options = {}) {
      const auth: Interceptor = (next) => (req) => {
        req.header.set("authorization", `Bearer ${token}`);
        return next(req);
      };
      return createClient(
        AgentService,
        createConnectTransport({ baseUrl: backend.server.url, httpVersion: "1.1", useBinaryFormat: !options.json, interceptors: [auth] }),
      );
    },
    logs,
    errors: () => logs().filter((r) => Number(r.level) >= 50),
    close: () => backend.close(),
  };
}
