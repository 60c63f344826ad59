/**
 * The committed in-page bundle (`sdk/src/engine/gen/in-page-source.ts`) is what the in-page code
 * builds now: an edit under `sdk/src/engine/in-page/` without `npm run gen` fails here, as it
 * fails the drift check (scripts/check-gen.sh).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, it } from "vitest";
import { inPageSource, inPageSourcePath } from "./gen-in-page.js";

it("the committed in-page bundle matches the in-page code (else: npm run gen)", async () => {
  const committed = readFileSync(resolve(import.meta.dirname, "..", inPageSourcePath), "utf8");
  expect(committed === (await inPageSource()), `${inPageSourcePath} is stale: run npm run gen`).toBe(true);
});
