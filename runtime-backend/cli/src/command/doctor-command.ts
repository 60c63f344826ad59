import { execFile } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { promisify } from "node:util";
import { ChromiumNotFoundError, findChromium } from "@baton/sdk/node";
import type { Env } from "@baton/backend/providers";
import pg from "pg";
import { flag, type Parsed, unknownFlag } from "./args.js";
import type { Io } from "./io.js";
import { chooseModel, modelKeyNames } from "../run/model-choice.js";
import { defaultRunStore } from "../run/store-dir.js";
import { databaseWhere, notADatabaseUrl } from "./start-failure.js";

/**
 * One line of the report: ok, not there yet (made on first use, nothing to do), a warning
 * (things work without it) or a failure.
 */
export interface Check {
  readonly status: "ok" | "later" | "warn" | "fail";
  readonly what: string;
  /** What was found, or what to do about it. */
  readonly detail: string;
}

const marks = { ok: "✓", later: "·", warn: "!", fail: "✗" } as const;

/** What a store that is not there yet says: nothing is wrong, and when it will exist. */
const notYet = "not created yet (created on first start)";

/** The Node the CLI needs: `module.register` (bin/baton.js) arrived in 20.6. */
function nodeCheck(version: string): Check {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  if (major > 20 || (major === 20 && minor >= 6)) return { status: "ok", what: "Node", detail: version };
  return { status: "fail", what: "Node", detail: `${version} is too old: install Node ≥ 20.6 (in the repo, \`npm ci\` brings Node 24 for npm scripts and npx)` };
}

async function chromiumCheck(env: Env): Promise<Check> {
  let path: string;
  let source: string;
  try {
    ({ path, source } = findChromium(env));
  } catch (e) {
    if (e instanceof ChromiumNotFoundError) return { status: "fail", what: "Chromium", detail: e.message };
    throw e;
  }
  try {
    const { stdout } = await promisify(execFile)(path, ["--version"], { timeout: 15_000 });
    return { status: "ok", what: "Chromium", detail: `${stdout.trim()} at ${path} (${source})` };
  } catch (e) {
    const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
    return { status: "fail", what: "Chromium", detail: `${path} (${source}) does not run: ${why}; reinstall it (apt-get install --reinstall chromium) or set BATON_CHROMIUM` };
  }
}

/** A directory the CLI can create or write: it or its nearest existing parent is writable. */
function writable(dir: string): boolean {
  let d = dir;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  try {
    accessSync(d, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

async function storeChecks(p: Parsed, env: Env): Promise<Check[]> {
  const url = flag(p, "database-url", env.DATABASE_URL);
  const checks: Check[] = [];
  if (url) {
    const where = databaseWhere(url);
    if (!where) return [{ status: "fail", what: "Store", detail: notADatabaseUrl }];
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      await client.query("select 1");
      checks.push({ status: "ok", what: "Store", detail: `Postgres at ${where} answers` });
    } catch (e) {
      // The driver's message never holds the password; the URL is printed without it.
      const why = e instanceof Error ? e.message : String(e);
      checks.push({ status: "fail", what: "Store", detail: `Postgres at ${where}: ${why}; start it, fix DATABASE_URL, or unset it to use the embedded store` });
    } finally {
      await client.end().catch(() => undefined);
    }
  } else {
    const dir = resolve(flag(p, "data-dir", env.BATON_DATA_DIR ?? ".data") as string);
    checks.push(
      !writable(dir)
        ? { status: "fail", what: "Store", detail: `${dir} cannot be written: run from a writable directory or pass --data-dir DIR (or DATABASE_URL)` }
        : existsSync(dir)
          ? { status: "ok", what: "Store", detail: `embedded, in ${dir}` }
          : { status: "later", what: "Store", detail: `${notYet}: embedded, in ${dir}, by \`baton serve\` (\`npm start\` in a clone)` },
    );
  }
  const runStore = defaultRunStore(env);
  checks.push(
    !writable(runStore)
      ? { status: "fail", what: "Run store", detail: `${runStore} cannot be written: set XDG_CACHE_HOME, or give baton run --data-dir DIR` }
      : existsSync(runStore)
        ? { status: "ok", what: "Run store", detail: `baton run keeps its embedded store in ${runStore}` }
        : { status: "later", what: "Run store", detail: `${notYet}: baton run keeps its embedded store in ${runStore}` },
  );
  return checks;
}

function modelCheck(p: Parsed, env: Env): Check {
  const choice = chooseModel(flag(p, "model"), env);
  if (choice.ok) return { status: "ok", what: "Model", detail: `${choice.model} (keys from the environment; not shown)` };
  const first = choice.message.split("\n")[0] ?? "";
  return {
    status: "warn",
    what: "Model",
    detail: `${first.replace(/\. Set one of these and run again:$/, "")}: export ${modelKeyNames.join(", ").replace(/, ([^,]*)$/, " or $1")} (or BATON_CHAT_BASE_URL, OLLAMA_BASE_URL); \`baton run --script\` needs none`,
  };
}

async function backendCheck(p: Parsed, env: Env): Promise<Check> {
  const base = flag(p, "backend", env.BATON_BACKEND_URL ?? "http://127.0.0.1:8787") as string;
  try {
    const res = await fetch(new URL("/healthz", base), { signal: AbortSignal.timeout(3_000) });
    if (res.ok) return { status: "ok", what: "Backend", detail: `${base} answers` };
    return { status: "warn", what: "Backend", detail: `${base} answered ${res.status} to /healthz: is it a Baton backend?` };
  } catch (e) {
    const why = e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e);
    return { status: "warn", what: "Backend", detail: `none at ${base} (${why}): start one with \`baton serve\` (\`npm start\` in a clone); \`baton run\` starts its own` };
  }
}

/** Every check, in the order printed. */
export async function doctorChecks(p: Parsed, env: Env): Promise<Check[]> {
  const [chromium, store, backend] = await Promise.all([chromiumCheck(env), storeChecks(p, env), backendCheck(p, env)]);
  return [nodeCheck(process.version), chromium, ...store, modelCheck(p, env), backend];
}

/**
 * `baton doctor`: Node, Chromium, the store, model keys and the backend, one line each with
 * what to do about it. Exit 1 when something Baton needs is missing (✗); warnings (!) are
 * things it works without, and · marks what is made on first use.
 */
export async function doctorCommand(p: Parsed, io: Io, env: Env = process.env): Promise<number> {
  const bad = unknownFlag(p, new Set(["data-dir", "database-url", "backend", "model"]));
  if (bad) {
    io.stderr(`baton doctor: ${bad}\nusage: baton doctor [--data-dir DIR] [--database-url URL] [--backend URL] [--model provider:model]\n`);
    return 2;
  }
  const checks = await doctorChecks(p, env);
  const width = Math.max(...checks.map((c) => c.what.length));
  for (const c of checks) io.stdout(`${marks[c.status]} ${c.what.padEnd(width)}  ${c.detail}\n`);
  return checks.some((c) => c.status === "fail") ? 1 : 0;
}
