import { readFileSync } from "node:fs";
import { join } from "node:path";
import { providerTable } from "@baton/backend/providers";
import { expect, it } from "vitest";
import { missingKeysHelp } from "./model-choice.js";

const root = join(import.meta.dirname, "..", "..", "..", "..");

it("advises, when no model is set, every key the provider table names, as docs/run.md shows it", () => {
  for (const e of providerTable) for (const line of e.setup ?? []) expect(missingKeysHelp).toContain(line);
  expect(missingKeysHelp).toContain("export ANTHROPIC_API_KEY=");
  expect(readFileSync(join(root, "docs/run.md"), "utf8")).toContain(missingKeysHelp);
});
