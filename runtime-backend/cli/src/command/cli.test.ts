import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService } from "@baton/gen/baton/v1/agent_pb";
import { afterAll, describe, expect, it } from "vitest";
import { startBackendProcess } from "../testing/backend-process.js";
import { main } from "../main.js";
import { parseArgs } from "./args.js";

const dir = mkdtempSync(join(tmpdir(), "baton-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("baton CLI", () => {
  it("parses flags", () => {
    const p = parseArgs(["serve", "--port", "9", "--data-dir=/x", "--verbose"]);
    expect(p.positional).toEqual(["serve"]);
    expect([...p.flags]).toEqual([
      ["port", "9"],
      ["data-dir", "/x"],
      ["verbose", true],
    ]);
  });

  it("prints help, rejects unknown commands, and reports snapshot's availability", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
    expect(await main(["help"], io)).toBe(0);
    expect(out.join("")).toContain("baton serve");
    expect(await main(["frobnicate"], io)).toBe(2);
    const code = await main(["snapshot", "--help"], io);
    // Either the SDK's snapshot command ran, or we said clearly that it is not there yet.
    if (code !== 0) expect(err.join("")).toMatch(/snapshot/);
  });

  it("serves on an embedded store, prints where it listens, and writes a private API token", async () => {
    const data = join(dir, "data");
    const p = await startBackendProcess(["--data-dir", data, "--model", "script:none.json"]);
    try {
      expect(p.output()).toContain(`embedded store in ${data}`);
      const tokenFile = join(data, "api-token");
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      const token = readFileSync(tokenFile, "utf8").trim();
      const auth: Interceptor = (next) => (req) => {
        req.header.set("authorization", `Bearer ${token}`);
        return next(req);
      };
      const client = createClient(AgentService, createConnectTransport({ baseUrl: p.url, httpVersion: "1.1", interceptors: [auth] }));
      expect((await client.listPlaybooks({})).playbooks).toEqual([]);
      expect((await fetch(`${p.url}/healthz`)).status).toBe(200);
    } finally {
      await p.kill("SIGTERM");
    }
    // token create on the same (now free) data directory
    const bin = fileURLToPath(new URL("../../bin/baton.js", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [bin, "token", "create", "dave", "--data-dir", data]);
    expect(stdout.trim()).toMatch(/^bt_[\w-]{20,}$/);
  });
});
