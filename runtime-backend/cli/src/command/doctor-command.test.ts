import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseArgs } from "./args.js";
import { doctorCommand } from "./doctor-command.js";

const dir = mkdtempSync(join(tmpdir(), "baton-doctor-"));
let server: Server;
let backend = "";

beforeAll(async () => {
  // Stands in for a backend only as far as the doctor looks: its health endpoint.
  server = createServer((req, res) => res.writeHead(req.url === "/healthz" ? 200 : 404).end("ok"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  backend = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

async function doctor(argv: string[], env: Record<string, string | undefined>): Promise<{ code: number; out: string }> {
  let out = "";
  const code = await doctorCommand(parseArgs(argv), { stdout: (t) => (out += t), stderr: (t) => (out += t) }, { PATH: process.env.PATH, HOME: dir, ...env });
  return { code, out };
}

describe("baton doctor", () => {
  it("reports a working set-up line by line and exits 0", async () => {
    const { code, out } = await doctor(["--data-dir", join(dir, "data"), "--backend", backend], { OPENAI_API_KEY: "sk-secret-123", XDG_CACHE_HOME: join(dir, "cache") });
    expect(code).toBe(0);
    const lines = out.trimEnd().split("\n");
    expect(lines.map((l) => l.split(/\s+/).slice(0, 2).join(" "))).toEqual(["✓ Node", "✓ Chromium", "· Store", "· Run", "✓ Model", "✓ Backend"]);
    expect(out).toMatch(/✓ Chromium +Chromium \d+/);
    // Stores that do not exist yet are not reported as if they did.
    expect(out).toMatch(new RegExp(`^· Store +not created yet \\(created on first start\\): embedded, in ${join(dir, "data")}, by`, "m"));
    expect(out).toMatch(new RegExp(`^· Run store +not created yet \\(created on first start\\): .*${join(dir, "cache", "baton", "run-store")}$`, "m"));
    expect(out).toContain("openai:gpt-5-mini");
    expect(out).toContain(`${backend} answers`);
    expect(out).not.toContain("sk-secret");
  });

  it("reports stores that exist with ✓", async () => {
    mkdirSync(join(dir, "made", "data"), { recursive: true });
    mkdirSync(join(dir, "made", "cache", "baton", "run-store"), { recursive: true });
    const { code, out } = await doctor(["--data-dir", join(dir, "made", "data"), "--backend", backend], { XDG_CACHE_HOME: join(dir, "made", "cache") });
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^✓ Store +embedded, in ${join(dir, "made", "data")}$`, "m"));
    expect(out).toMatch(/^✓ Run store +baton run keeps its embedded store in /m);
  });

  it("warns about what Baton works without, and fails on what it needs, with what to do", async () => {
    const closed = "http://127.0.0.1:9";
    const { code, out } = await doctor(["--backend", closed], {
      BATON_CHROMIUM: join(dir, "no-chromium"),
      DATABASE_URL: "postgres://baton:hunter2@127.0.0.1:9/baton",
      XDG_CACHE_HOME: join(dir, "cache"),
    });
    expect(code).toBe(1);
    expect(out).toMatch(/^✗ Chromium +BATON_CHROMIUM is ".*no-chromium", which is not an executable file/m);
    expect(out).toMatch(/^✗ Store +Postgres at postgres:\/\/127\.0\.0\.1:9\/baton: .*unset it to use the embedded store$/m);
    expect(out).toMatch(/^! Model +no model is configured: export OPENAI_API_KEY, GEMINI_API_KEY or ANTHROPIC_API_KEY \(or BATON_CHAT_BASE_URL/m);
    expect(out).toMatch(new RegExp(`^! Backend +none at ${closed} \\(.*\\): start one with \`baton serve\` \\(\`npm start\` in a clone\\)`, "m"));
    expect(out).not.toContain("hunter2");
  });
});
