import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import type { ToolRisk } from "@baton/sdk/contract";
import { defaultFoldOptions } from "@baton/backend/context";
import { createLogger, type LogFormat, logFormatFor, logFormats, textDestination, createRedactor, envSecrets } from "@baton/backend/log";
import { createModelResolver } from "@baton/backend/providers";
import { linkBase, startBackend } from "@baton/backend/server";
import { createStartSignInCode, makeAdmin, createToken, ensureUser, registerToken, userForToken } from "@baton/backend/store";
import { signInUrl } from "@baton/backend/console";
import { flag, flagsOrExit, hostList, httpUrl, maxStepsLimit, onlyKnownFlags, type Parsed, UsageError, wholeNumber } from "./args.js";
import type { Io } from "./io.js";
import { databaseWhere, failedToStart, notADatabaseUrl, type StoreFlags, storeOf } from "./start-failure.js";

/** The environment with the operator's script directory (`--script-dir` wins over BATON_SCRIPT_DIR). */
function scriptDirEnv(p: Parsed, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const dir = flag(p, "script-dir", env.BATON_SCRIPT_DIR);
  return dir ? { ...env, BATON_SCRIPT_DIR: resolve(dir) } : { ...env, BATON_SCRIPT_DIR: undefined };
}

/** Where the reference extension is installed (`@baton/extension`, a dependency of the command), or undefined. */
function extensionDirOf(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve("@baton/extension/package.json"));
  } catch {
    return undefined;
  }
}

/** How to load the extension and sign it in to this backend, when the repository has it. */
function extensionNote(url: string): string {
  const extensionDir = extensionDirOf();
  if (!extensionDir) return "";
  const dist = join(extensionDir, "dist");
  const build = existsSync(join(dist, "manifest.json")) ? "" : " (build it first: npm run build -w runtime-extension)";
  return `Chrome extension: load ${dist} with chrome://extensions → Load unpacked${build}; sign in with ${url} and the token above\n`;
}

/** `baton serve`'s usage, also the first lines of `baton --help`. */
export const serveUsage = `  baton serve [--port 8787] [--host 127.0.0.1] [--data-dir ./.data] [--database-url postgres://…]
              [--model provider:model] [--max-steps 50] [--approve irreversible[,mutating] | none]
              [--script-dir DIR]   enable script models (script:NAME), read from DIR only
              [--allowed-hosts LIST]  host names to answer besides the listen address, localhost
                                   and BATON_PUBLIC_URL's ("baton.lan,baton.lan:8787"); others get 421
              [--public-rate-limit 300]  calls a minute (and at once) each client address may make
                                   without signing in (device linking, sign-in); 0 for no limit
              [--log-format text|json]   default: text on a terminal, JSON otherwise
`;

const serveKnown = new Set(["port", "host", "data-dir", "database-url", "model", "max-steps", "approve", "script-dir", "allowed-hosts", "public-rate-limit", "log-format", "help"]);

/** What `--approve` (or BATON_APPROVE) may name: the risks that wait for a person's approval. */
const approvable: readonly ToolRisk[] = ["irreversible", "mutating"];

/** `baton serve`'s settings, from its flags and the environment they override. */
interface ServeFlags {
  readonly port: number;
  readonly host: string;
  /** The Postgres URL, or the embedded store's folder. */
  readonly store: StoreFlags;
  readonly risks: ToolRisk[];
  readonly maxSteps: number;
  /** BATON_CONTEXT_TOKENS: the folded context's token budget, when set. */
  readonly contextTokens: number | undefined;
  /** BATON_PUBLIC_URL without a trailing slash, when set. */
  readonly publicUrl: string | undefined;
  /** `--allowed-hosts` / BATON_ALLOWED_HOSTS: names answered besides the listen address. */
  readonly allowedHosts: string[];
  /** `--public-rate-limit` / BATON_PUBLIC_RATE_LIMIT: anonymous calls a minute per client address (0: none), when set. */
  readonly publicRateLimit: number | undefined;
  /** --log-format or BATON_LOG_FORMAT, when given. */
  readonly logFormat: LogFormat | undefined;
}

/**
 * Reads and checks `baton serve`'s flags and the environment variables they stand for; throws a
 * UsageError for an unknown flag, a port, step limit or context budget that is not a whole
 * number in range, a `--database-url` that is not a postgres:// URL, a public URL that is not
 * http(s), or an `--approve` that names no known risk: a typo there must not turn approvals off.
 */
function serveFlags(p: Parsed, env: NodeJS.ProcessEnv): ServeFlags {
  onlyKnownFlags(p, serveKnown);
  if (p.positional.length > 0) throw new UsageError(`unexpected argument ${p.positional[0]}`);
  for (const k of serveKnown) if (k !== "help" && p.flags.get(k) === true) throw new UsageError(`--${k} needs a value`);
  const port = wholeNumber(p.flags.has("port") ? "--port" : "PORT", flag(p, "port", env.PORT), 0, 65_535) ?? 8787;
  const maxSteps = wholeNumber(p.flags.has("max-steps") ? "--max-steps" : "BATON_MAX_STEPS", flag(p, "max-steps", env.BATON_MAX_STEPS), 1, maxStepsLimit) ?? 50;
  const store = storeOf(p, env);
  if (store.databaseUrl && !databaseWhere(store.databaseUrl)) throw new UsageError(notADatabaseUrl);
  const approve = (flag(p, "approve", env.BATON_APPROVE ?? "irreversible") as string).trim();
  const risks = approve === "none" ? [] : approve.split(",").map((r) => r.trim());
  const unknown = risks.filter((r) => !approvable.includes(r as ToolRisk));
  if (unknown.length > 0 || (risks.length === 0 && approve !== "none")) {
    throw new UsageError(`${p.flags.has("approve") ? "--approve" : "BATON_APPROVE"} ${JSON.stringify(approve)}: name ${approvable.join(" and/or ")} (comma-separated), or none`);
  }
  // Below a few thousand tokens the task and one snapshot do not fit; NaN would never fold.
  const contextTokens = wholeNumber("BATON_CONTEXT_TOKENS", env.BATON_CONTEXT_TOKENS || undefined, 2_000, 2_000_000);
  const publicUrl = httpUrl("BATON_PUBLIC_URL", env.BATON_PUBLIC_URL, "https://baton.example.com (the console's address)");
  const allowedHosts = hostList(p.flags.has("allowed-hosts") ? "--allowed-hosts" : "BATON_ALLOWED_HOSTS", flag(p, "allowed-hosts", env.BATON_ALLOWED_HOSTS));
  const publicRateLimit = wholeNumber(
    p.flags.has("public-rate-limit") ? "--public-rate-limit" : "BATON_PUBLIC_RATE_LIMIT",
    flag(p, "public-rate-limit", env.BATON_PUBLIC_RATE_LIMIT || undefined),
    0,
    1_000_000,
  );
  const logFormat = flag(p, "log-format", env.BATON_LOG_FORMAT || undefined);
  if (logFormat !== undefined && !logFormats.includes(logFormat as LogFormat)) {
    throw new UsageError(`${p.flags.has("log-format") ? "--log-format" : "BATON_LOG_FORMAT"} ${JSON.stringify(logFormat)}: use ${logFormats.join(" or ")}`);
  }
  return {
    allowedHosts,
    publicRateLimit,
    logFormat: logFormat as LogFormat | undefined,
    port,
    contextTokens,
    publicUrl,
    host: flag(p, "host", env.BATON_HOST ?? "127.0.0.1") as string,
    store,
    risks: risks as ToolRisk[],
    maxSteps,
  };
}

/**
 * `baton serve`: the backend on an embedded store (default ./.data) or Postgres
 * (--database-url / DATABASE_URL). Ensures a "local" user with an API token: BATON_API_TOKEN
 * when set, otherwise one generated on first start and kept in <data-dir>/api-token.
 */
export async function serveCommand(p: Parsed, io: Io, env: NodeJS.ProcessEnv = process.env, isTTY = process.stdout.isTTY): Promise<number> {
  const start = flagsOrExit(p, io, "serve", serveUsage, () => serveFlags(p, env));
  if ("exit" in start) return start.exit;
  const o = start.flags;
  const { port, host, store, risks, maxSteps, contextTokens, publicUrl, allowedHosts, publicRateLimit } = o;
  // The operator's keys never reach a log, a stored row or another user.
  const redact = createRedactor(envSecrets(env));
  const logger = createLogger({ redact, ...(logFormatFor(o.logFormat, isTTY) === "text" ? { destination: await textDestination(Boolean(isTTY)) } : {}) });
  let backend: Awaited<ReturnType<typeof startBackend>>;
  try {
    backend = await startBackend({
      port,
      host,
      ...store,
      owner: "baton serve",
      resolveModel: createModelResolver(scriptDirEnv(p, env)),
      defaultModel: flag(p, "model", env.BATON_MODEL ?? "openai:gpt-5-mini"),
      defaultMaxSteps: maxSteps,
      approval: { risks },
      cors: { ...(env.BATON_EXTENSION_IDS ? { extensionIds: env.BATON_EXTENSION_IDS.split(",") } : {}), ...(env.BATON_CORS_ORIGINS ? { origins: env.BATON_CORS_ORIGINS.split(",") } : {}) },
      logger,
      redact,
      ...(contextTokens ? { fold: { ...defaultFoldOptions, tokenBudget: contextTokens } } : {}),
      ...(publicUrl ? { publicUrl } : {}),
      allowedHosts,
      ...(publicRateLimit !== undefined ? { publicRateLimit: publicRateLimit === 0 ? false : { burst: publicRateLimit, perMinute: publicRateLimit } } : {}),
      console: true,
    });
  } catch (e) {
    return failedToStart("serve", e, store, io);
  }
  // The operator's own account: it may manage users and quotas in the console.
  await ensureUser(backend.db, "local");
  await makeAdmin(backend.db, "local");
  let tokenNote: string;
  if (env.BATON_API_TOKEN) {
    await registerToken(backend.db, "local", env.BATON_API_TOKEN, "env");
    tokenNote = "API token: from BATON_API_TOKEN";
  } else {
    const file = join(store.dataDir ?? resolve("."), "api-token");
    // A missing file, or a token in it that was revoked (in the console), gets a new one.
    const kept = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
    if (!kept || (await userForToken(backend.db, kept)) !== "local") {
      const token = await createToken(backend.db, "local", "generated");
      writeFileSync(file, `${token}\n`, { mode: 0o600 });
      chmodSync(file, 0o600);
    }
    tokenNote = `API token for user "local": ${file} (${readFileSync(file, "utf8").trim().slice(0, 6)}…)`;
  }
  backend.db.dataDirLock?.setUrl(backend.server.url);
  const where = backend.db.kind === "embedded" ? `embedded store in ${store.dataDir}` : "postgres store";
  // A one-time link into the console for the operator, fresh at every start; the last start's, if unused, stops working.
  const { code } = await createStartSignInCode(backend.db, "local", 24 * 3_600_000);
  const consoleUrl = signInUrl(linkBase({ listenHost: host, port: backend.server.port, publicUrl }), code);
  io.stdout(
    `Baton backend listening on ${backend.server.url} (${where})\n${tokenNote}\nConsole: ${consoleUrl} (one-time sign-in link for "local", valid 24 h)\n${extensionNote(backend.server.url)}`,
  );
  logger.info({ url: backend.server.url, store: backend.db.kind }, "listening");
  await new Promise<void>((done) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await backend.close();
  return 0;
}
