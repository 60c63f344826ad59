import { DataDirBusy, type Db, openDb, createToken, ensureUser } from "@baton/backend/store";
import { providerHelp } from "@baton/backend/providers";
import { parseArgs, unknownFlag } from "./command/args.js";
import { type Io, processIo } from "./command/io.js";
import { doctorCommand } from "./command/doctor-command.js";
import { serveCommand, serveUsage } from "./command/serve-command.js";
import { failedToStart, storeOf } from "./command/start-failure.js";
import { withTelemetry } from "./command/telemetry.js";

const usage = `baton — the Baton backend

${serveUsage}  baton token create <user> [--data-dir …] [--database-url …]   issue an API token
  baton user create <id> [--name NAME] [--admin] | baton user link <id>
                                 add a user / a one-time console sign-in link (same store flags)
  baton login [--backend http://127.0.0.1:8787] [--name NAME]
                                 link this machine in the console (PKCE); baton run --backend uses it
  baton run "<task>" [--start-url URL] [--serve DIR] [--script FILE] [--model provider:model]
            [--backend URL --token T] [--data-dir DIR] [--max-steps N] [--headed] [--cdp-url URL]
            [--secret NAME=@FILE] [--save-script FILE] [--heal] [--policy FILE] [--yes] [--json]
                                                          run a task in Chromium (baton run --help)
  baton eval [suite.jsonl | dir] [--model P:M] [--via headless|extension] [--repeat N]
             [--concurrency N] [--cdp-url URL]… [--filter GLOBS] [--out report.jsonl] [--html report.html] [--policy FILE]
                                                          run an eval suite (baton eval --help)
  baton eval compare a.jsonl b.jsonl [--fail-on-regression]     per-task deltas of two reports
  baton snapshot …                                              (from @baton/sdk/node)
  baton mcp [--http PORT] [--headed | --cdp-url URL] [--policy FILE] [--allowed-origins …] [--allow-irreversible]
                                 the browser tools as an MCP server (baton mcp --help)
  baton doctor [--data-dir DIR] [--database-url …] [--backend URL] [--model provider:model]
                                 check Node, Chromium, the store, model keys and the backend

Models ("provider:model"):
${Object.entries(providerHelp)
  .map(([k, v]) => `  ${k.padEnd(11)} ${v}`)
  .join("\n")}
`;

/** `baton token create <user>`: prints a new API token for the user (created if needed). */
async function tokenCommand(argv: string[], io: Io): Promise<number> {
  const p = parseArgs(argv);
  const [sub, user] = p.positional;
  const bad = unknownFlag(p, new Set(["data-dir", "database-url"]));
  if (sub !== "create" || !user || bad) {
    io.stderr(`${bad ? `baton token: ${bad}\n` : ""}usage: baton token create <user> [--data-dir DIR | --database-url URL]\n`);
    return 2;
  }
  const store = storeOf(p, process.env);
  let db: Db;
  try {
    db = await openDb({ ...store, owner: "baton token" });
  } catch (e) {
    if (!(e instanceof DataDirBusy)) return failedToStart("token", e, store, io);
    // A token written behind a running server's back would never be seen by it (and the
    // server's own writes would be lost): say so instead.
    io.stderr(`baton token: ${e.message}.\nWhile the server runs, give it a token with BATON_API_TOKEN at its start, or stop it, create the token, and start it again.\n`);
    return 1;
  }
  try {
    await ensureUser(db, user);
    io.stdout(`${await createToken(db, user, "cli")}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

/**
 * `baton snapshot …`, served by the SDK's Node entry. Loaded lazily: `serve` should not pay
 * for the browser tooling, and a build without it still runs every other command.
 */
async function snapshotCommand(argv: string[], io: Io): Promise<number> {
  let mod: typeof import("@baton/sdk/node");
  try {
    mod = await import("@baton/sdk/node");
  } catch (e) {
    io.stderr(`baton snapshot is not available: @baton/sdk/node could not be loaded (${e instanceof Error ? e.message.split("\n")[0] : String(e)})\n`);
    return 1;
  }
  return mod.snapshotCommand(argv, io);
}

/**
 * Runs the CLI; resolves to the exit code. The commands that run sessions or tools (serve, run,
 * eval, mcp) export traces when the OTEL_* environment asks for them (`telemetry.ts`).
 */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv;
  const traced = (run: () => Promise<number>) => withTelemetry(command as string, (line) => io.stderr(`${line}\n`), run);
  switch (command) {
    case "serve":
      return traced(() => serveCommand(parseArgs(rest), io));
    case "token":
      return tokenCommand(rest, io);
    case "user":
      return (await import("./command/user-command.js")).userCommand(rest, io);
    case "login":
      return (await import("./command/login-command.js")).loginCommand(parseArgs(rest), io);
    case "run": {
      // Loaded lazily: only run needs the browser tooling.
      const [{ runCommand }, { processRunDeps }] = await Promise.all([import("./run/run-command.js"), import("./run/process-deps.js")]);
      return traced(() => runCommand(rest, processRunDeps()));
    }
    case "eval": {
      // Loaded lazily, like run: only eval needs the harness and the browser tooling.
      const [{ evalCommand }, { processRunDeps }] = await Promise.all([import("./eval/eval-command.js"), import("./run/process-deps.js")]);
      return traced(() => evalCommand(rest, processRunDeps()));
    }
    case "snapshot":
      return snapshotCommand(rest, io);
    case "mcp":
      return traced(async () => (await import("./mcp/mcp-command.js")).mcpCommand(parseArgs(rest), io));
    case "doctor":
      return doctorCommand(parseArgs(rest), io);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      io.stdout(usage);
      return 0;
    default:
      io.stderr(`unknown command "${command}"\n\n${usage}`);
      return 2;
  }
}
