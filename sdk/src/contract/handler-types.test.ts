/**
 * Type-level proof that the handler map is derived from the oneof: a map missing one tool, or
 * with a handler whose params are mistyped, does not compile. Runs the real `tsc` on small files
 * written next to the workspace so they resolve @baton/gen like any integrator's code.
 */
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../../..");
const tsc = join(root, "node_modules/.bin/tsc");
const clientCases = Object.values(toolCatalog.tools)
  .filter((t) => t.side === "client")
  .map((t) => t.case);
let dir = "";

function handlerMap(cases: readonly string[], extra = ""): string {
  const entries = cases.map((c) => `  ${c}: async () => ({}),`).join("\n");
  return [
    'import type { ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";',
    `export const handlers: ClientToolHandlers<{ tabId: string }> = {\n${entries}\n${extra}};`,
  ].join("\n");
}

async function compile(source: string): Promise<{ ok: boolean; output: string }> {
  writeFileSync(join(dir, "handlers.ts"), source);
  try {
    await run(tsc, ["--noEmit", "-p", dir], { cwd: root });
    return { ok: true, output: "" };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, output: `${err.stdout ?? ""}${err.stderr ?? ""}` };
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(root, "sdk", ".tmp-typetest-"));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ extends: "../../tsconfig.base.json", include: ["handlers.ts"] }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ClientToolHandlers", () => {
  it("compiles when every client tool has a handler", async () => {
    const r = await compile(handlerMap(clientCases));
    expect(r.output).toBe("");
    expect(r.ok).toBe(true);
  });

  it("fails to compile when one tool's handler is missing, naming that tool", async () => {
    const missing = "scroll";
    const r = await compile(handlerMap(clientCases.filter((c) => c !== missing)));
    expect(r.ok).toBe(false);
    expect(r.output).toContain(`'${missing}'`);
  });

  it("fails to compile when a handler misreads its params", async () => {
    const others = clientCases.filter((c) => c !== "click");
    const r = await compile(handlerMap(others, "  click: async (p) => { const n: number = p.ref; return { n }; },\n"));
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/string.*number|number.*string/);
  });
});
