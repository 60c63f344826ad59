import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { batonVersion } from "./version.js";

it("reports the package's version", () => {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  expect(batonVersion).toBe(pkg.version);
});
