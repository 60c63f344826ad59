import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "@baton/backend/store";
import { parseArgs } from "./args.js";
import { main } from "../main.js";
import { serveCommand } from "./serve-command.js";
import { databaseWhere } from "./start-failure.js";

const dir = mkdtempSync(join(tmpdir(), "baton-start-failure-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `baton serve` with these flags; what it printed and its exit code. */
async function serve(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await serveCommand(parseArgs(args), { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) }, {});
  return { code, stdout, stderr };
}

/** One line, no stack trace. */
function expectOneLine(stderr: string): void {
  expect(stderr.trim().split("\n"), stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe("baton serve: a start that fails says why in one line, and exits 1 (2 for a bad flag)", () => {
  it("when the port is taken", async () => {
    const taken: Server = createServer();
    await new Promise<void>((ok) => taken.listen(0, "127.0.0.1", ok));
    const port = (taken.address() as { port: number }).port;
    try {
      const r = await serve(["--port", String(port), "--data-dir", join(dir, "port")]);
      expect(r.code).toBe(1);
      expectOneLine(r.stderr);
      expect(r.stderr).toContain(`baton serve: port ${port} on 127.0.0.1 is in use (by another server?): stop what holds it, or choose another port`);
      expect(r.stdout).toBe("");
      // The store it opened was closed: the same directory opens again.
      const db = await openDb({ dataDir: join(dir, "port"), owner: "test" });
      await db.close();
    } finally {
      taken.close();
    }
  });

  it("when another process holds the data directory", async () => {
    const held = await openDb({ dataDir: join(dir, "held"), owner: "another baton serve" });
    try {
      const r = await serve(["--port", "0", "--data-dir", join(dir, "held")]);
      expect(r.code).toBe(1);
      expectOneLine(r.stderr);
      expect(r.stderr).toMatch(/^baton serve: the data directory .*held is in use by another baton serve \(pid \d+/);
    } finally {
      await held.close();
    }
  });

  it("when the data directory cannot be created (its parent is a file)", async () => {
    writeFileSync(join(dir, "a-file"), "");
    const r = await serve(["--port", "0", "--data-dir", join(dir, "a-file", "store")]);
    expect(r.code).toBe(1);
    expectOneLine(r.stderr);
    expect(r.stderr).toContain(`baton serve: cannot use the data directory ${join(dir, "a-file", "store")} (ENOTDIR on mkdir`);
    expect(r.stderr).toContain("choose a directory this user may write (--data-dir), or --database-url");
  });

  it("when the database cannot be reached, without printing its password", async () => {
    const r = await serve(["--port", "0", "--database-url", "postgres://baton:s3cret-pw@127.0.0.1:1/baton"]);
    expect(r.code).toBe(1);
    expectOneLine(r.stderr);
    expect(r.stderr).toContain("baton serve: cannot use the database at postgres://127.0.0.1:1/baton: connect ECONNREFUSED");
    expect(r.stderr).not.toContain("s3cret-pw");
  });

  it.each(["baton:s3cret-pw@localhost", "localhost:5432/baton?password=s3cret-pw", "http://u:s3cret-pw@localhost/db"])(
    "when the database URL %s is not a postgres:// URL: exit 2 before anything opens, the URL not repeated",
    async (url) => {
      const r = await serve(["--port", "0", "--database-url", url]);
      expect(r.code).toBe(2);
      // The reason, then the usage.
      expect(r.stderr.split("\n")[0]).toBe("baton serve: the database URL (--database-url or DATABASE_URL) is not a postgres:// URL: use postgres://user:password@host:port/db");
      expect(r.stderr).not.toContain("s3cret-pw");
    },
  );
});

describe("the other commands that open a store or listen say why in one line too", () => {
  /** Runs `baton …argv`; what it printed on stderr and its exit code. */
  async function baton(argv: string[]): Promise<{ code: number; stderr: string }> {
    let stderr = "";
    const code = await main(argv, { stdout: () => undefined, stderr: (t) => void (stderr += t) });
    return { code, stderr };
  }

  it.each([
    ["token", ["token", "create", "bob"]],
    ["user", ["user", "create", "bob"]],
  ])("baton %s, when the database cannot be reached", async (command, argv) => {
    const r = await baton([...argv, "--database-url", "postgres://baton:s3cret-pw@127.0.0.1:1/baton"]);
    expect(r.code).toBe(1);
    expectOneLine(r.stderr);
    expect(r.stderr).toContain(`baton ${command}: cannot use the database at postgres://127.0.0.1:1/baton: connect ECONNREFUSED`);
    expect(r.stderr).not.toContain("s3cret-pw");
  });

  it("baton mcp --http, when the port is taken", async () => {
    const taken: Server = createServer();
    await new Promise<void>((ok) => taken.listen(0, "127.0.0.1", ok));
    const port = (taken.address() as { port: number }).port;
    try {
      const r = await baton(["mcp", "--http", String(port)]);
      expect(r.code).toBe(1);
      // The line that names the browser it launched, then why it stopped.
      expect(r.stderr.trim().split("\n").at(-1)).toBe(`baton mcp: port ${port} on 127.0.0.1 is in use (by another server?): stop what holds it, or choose another port`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  }, 60_000);
});

describe("databaseWhere", () => {
  it("prints host, port and database only", () => {
    expect(databaseWhere("postgres://baton:pw@db.internal:6543/app?sslmode=require")).toBe("postgres://db.internal:6543/app");
    expect(databaseWhere("postgresql://baton@localhost/app")).toBe("postgres://localhost:5432/app");
    expect(databaseWhere("postgres:///app?host=/run/postgresql")).toBe("postgres:///run/postgresql:5432/app");
    expect(databaseWhere("mysql://u:pw@localhost/app")).toBeUndefined();
  });
});

describe("baton serve: flags are checked before anything starts (exit 2, nothing opened)", () => {
  it.each([
    [["--port", "abc"], '--port must be a whole number from 0 to 65535, not "abc"'],
    [["--port", "99999"], '--port must be a whole number from 0 to 65535, not "99999"'],
    [["--max-steps", "abc"], '--max-steps must be a whole number from 1 to 10000, not "abc"'],
    [["--max-steps", "0"], '--max-steps must be a whole number from 1 to 10000, not "0"'],
    // A typo must not turn the approval of irreversible actions off.
    [["--approve", "irreversable"], '--approve "irreversable": name irreversible and/or mutating (comma-separated), or none'],
    [["--approve", ""], '--approve "": name irreversible and/or mutating'],
    [["--data-dri", "x"], "unknown option --data-dri"],
    [["--data-dir"], "--data-dir needs a value"],
    [["extra"], "unexpected argument extra"],
  ])("baton serve %j", async (args, message) => {
    const r = await serve([...args, ...(args.includes("--data-dir") ? [] : ["--data-dir", join(dir, "never")])]);
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")[0]).toContain(`baton serve: ${message}`);
    expect(r.stdout).toBe("");
  });

  it.each([
    [{ PORT: "http" }, 'PORT must be a whole number from 0 to 65535, not "http"'],
    [{ BATON_APPROVE: "mutatin" }, 'BATON_APPROVE "mutatin": name irreversible and/or mutating'],
    // NaN used to be a budget nothing exceeds: the context was never folded.
    [{ BATON_CONTEXT_TOKENS: "8k" }, 'BATON_CONTEXT_TOKENS must be a whole number from 2000 to 2000000, not "8k"'],
    [{ BATON_PUBLIC_URL: "baton.example.com" }, 'BATON_PUBLIC_URL "baton.example.com" is not an http:// or https:// address, such as https://baton.example.com'],
  ])("checks the environment variables that stand for flags, naming them: %j", async (env, message) => {
    let stderr = "";
    const code = await serveCommand(parseArgs(["--data-dir", join(dir, "never")]), { stdout: () => undefined, stderr: (t) => void (stderr += t) }, env);
    expect(code).toBe(2);
    expect(stderr.split("\n")[0]).toContain(`baton serve: ${message}`);
  });

  it("prints its usage for --help", async () => {
    const r = await serve(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("baton serve [--port 8787]");
  });
});
