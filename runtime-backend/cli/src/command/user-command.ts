import { userIdPattern, signInUrl } from "@baton/backend/console";
import { createAccount, createSignInCode, getAccount, DataDirBusy, type Db, openDb } from "@baton/backend/store";
import { flag, parseArgs, unknownFlag } from "./args.js";
import type { Io } from "./io.js";
import { failedToStart, storeOf } from "./start-failure.js";

const usage = `usage: baton user create <id> [--name NAME] [--admin]   add a user; prints a one-time sign-in link
       baton user link <id>                                a new one-time sign-in link
       (both take --data-dir DIR or --database-url URL, and --url for the console's address)
`;

/** `baton user create|link`: accounts and their one-time console sign-in links, on the store directly. */
export async function userCommand(argv: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const p = parseArgs(argv);
  const [sub, id] = p.positional;
  const bad = unknownFlag(p, new Set(["name", "admin", "data-dir", "database-url", "url"]));
  if (bad) {
    io.stderr(`baton user: ${bad}\n${usage}`);
    return 2;
  }
  if ((sub !== "create" && sub !== "link") || !id) {
    io.stderr(usage);
    return 2;
  }
  if (!userIdPattern.test(id)) {
    io.stderr(`baton user: "${id}" is not a user id: 1-64 letters, digits, '.', '_', '-' or '@'\n`);
    return 2;
  }
  const store = storeOf(p, env);
  let db: Db;
  try {
    db = await openDb({ ...store, owner: "baton user" });
  } catch (e) {
    if (!(e instanceof DataDirBusy)) return failedToStart("user", e, store, io);
    io.stderr(`baton user: ${e.message}.\nWhile the server runs, an admin adds users and makes sign-in links in the console (Users); or stop it and run this again.\n`);
    return 1;
  }
  try {
    if (sub === "create") {
      if (!(await createAccount(db, id, (flag(p, "name") ?? id).trim() || id, p.flags.has("admin")))) {
        io.stderr(`baton user: ${id} already exists (\`baton user link ${id}\` makes a new sign-in link)\n`);
        return 1;
      }
    } else if (!(await getAccount(db, id))) {
      io.stderr(`baton user: no user ${id} (\`baton user create ${id}\`)\n`);
      return 1;
    }
    const { code, expiresAt } = await createSignInCode(db, id, 24 * 3_600_000);
    const base = (flag(p, "url", env.BATON_PUBLIC_URL) ?? `http://${env.BATON_HOST ?? "127.0.0.1"}:${env.PORT ?? "8787"}`).replace(/\/+$/, "");
    io.stdout(`${sub === "create" ? `Created ${id}. ` : ""}One-time sign-in link (until ${expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC):\n${signInUrl(base, code)}\n`);
    return 0;
  } finally {
    await db.close();
  }
}
