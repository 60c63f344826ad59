/**
 * Proves the "How to add a tool" walkthrough of docs/contract.md: its proto blocks are applied to a copy of
 * proto/, the real `buf generate` runs, and the new tool appears in every generated artefact —
 * including the handler-map type, which then rejects a map without it.
 */
import { ToolCallSchema } from "@baton/gen/baton/v1/tools_pb";
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TempGen, repoRoot, tempGen } from "./generate-in-temp.js";

const run = promisify(execFile);
const readme = readFileSync(join(repoRoot, "docs/contract.md"), "utf8");

/** The fenced block following `<!-- walkthrough:NAME -->` in docs/contract.md. */
function block(name: string): string {
  const m = readme.match(new RegExp(`<!-- walkthrough:${name} -->\\s*\`\`\`proto\\n([\\s\\S]*?)\`\`\``));
  if (!m?.[1]) throw new Error(`docs/contract.md has no walkthrough:${name} block`);
  return m[1];
}

/** Inserts `text` as the last case of the oneof in `message Name`. */
function addCase(proto: string, message: string, text: string): string {
  const start = proto.indexOf(`message ${message} {`);
  const close = proto.indexOf("\n  }\n", start);
  if (start < 0 || close < 0) throw new Error(`no oneof in ${message}`);
  return `${proto.slice(0, close)}\n${text.trimEnd()}${proto.slice(close)}`;
}

describe("docs/contract.md walkthrough: adding a tool", () => {
  let gen: TempGen;
  // biome-ignore lint: the module's shape is what the test asserts.
  let mod: any;

  beforeAll(async () => {
    gen = tempGen("all");
    const file = join(gen.dir, "proto/baton/v1/tools.proto");
    let proto = readFileSync(file, "utf8");
    proto = addCase(proto, "ToolCall", block("call"));
    proto = addCase(proto, "ToolResult", block("result"));
    writeFileSync(file, `${proto}\n${block("messages")}`);
    await gen.generate();
    mod = await import(pathToFileURL(join(gen.dir, "gen/baton/v1/tools_baton.ts")).href);
  });
  afterAll(() => gen?.remove());

  it("uses the next free field number", () => {
    const next = Math.max(...ToolCallSchema.fields.map((f) => f.number)) + 1;
    expect(block("call")).toContain(`= ${next};`);
    expect(block("result")).toContain(`= ${next};`);
  });

  it("puts the new tool in the catalog, every declaration format, the maps and the docs", () => {
    const t = mod.toolCatalog.tools.highlight;
    expect(t).toMatchObject({ name: "highlight", case: "highlight", side: "client", risk: "read_only", title: "Highlight" });
    expect(t.description).toBe("Draw a temporary outline around an element so the user can see what the agent means.");
    expect(t.parameters.required).toEqual(["ref"]);
    expect(t.parameters.properties.duration_ms).toMatchObject({ type: "integer", minimum: 100, maximum: 10000, default: 1500 });
    expect(mod.openAiResponsesTools.at(-1)).toMatchObject({ type: "function", name: "highlight" });
    expect(mod.openAiChatTools.at(-1).function.name).toBe("highlight");
    expect(mod.geminiFunctionDeclarations.at(-1)).toMatchObject({ name: "highlight", parameters: { type: "OBJECT" } });
    expect(mod.toolCases.highlight).toBe("highlight");
    expect(mod.toolFieldNames.highlight).toEqual({ ref: "ref", duration_ms: "durationMs" });
    const docs = readFileSync(join(gen.dir, "docs/tools.md"), "utf8");
    expect(docs).toContain("\n## highlight\n");
    expect(docs).toContain("| `duration_ms` | integer |  | 100–10000, default 1500 |");
  });

  it("makes ClientToolHandlers require a highlight handler", async () => {
    const cases = Object.values(mod.toolCatalog.tools as Record<string, { side: string; case: string }>)
      .filter((t) => t.side === "client" && t.case !== "highlight")
      .map((t) => `  ${t.case}: async () => ({}),`);
    const importPath = `./${relative(gen.dir, join(gen.dir, "gen/baton/v1/tools_baton.js"))}`;
    writeFileSync(
      join(gen.dir, "handlers.ts"),
      `import type { ClientToolHandlers } from "${importPath}";\nexport const h: ClientToolHandlers = {\n${cases.join("\n")}\n};\n`,
    );
    writeFileSync(
      join(gen.dir, "tsconfig.json"),
      JSON.stringify({ extends: "../../tsconfig.base.json", include: ["handlers.ts"] }),
    );
    const out = await run(join(repoRoot, "node_modules/.bin/tsc"), ["--noEmit", "-p", gen.dir]).then(
      () => "",
      (e: { stdout?: string }) => e.stdout ?? "failed",
    );
    expect(out).toContain("'highlight'");
  });
});
