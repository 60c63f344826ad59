/**
 * The test run's browser check, before any test starts: vitest's global setup
 * (`vitest.config.ts`) and the first step of `npm test` (`scripts/check.sh` runs this file).
 * Finds Chromium, installs Debian's package when root (unless `BATON_NO_INSTALL=1`), or stops
 * the run at once with one line that says what to run — instead of a stack trace per test.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ChromiumNotFoundError, chromiumMissingExitCode, ensureChromium } from "../src/node/find-chromium.js";

/** Finds (or installs) Chromium; on failure prints the one line and exits. */
export default function setup(): void {
  try {
    const found = ensureChromium();
    // Test workers inherit the environment: every launch uses the browser found here.
    process.env.BATON_CHROMIUM = found.path;
  } catch (e) {
    if (!(e instanceof ChromiumNotFoundError)) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exit(chromiumMissingExitCode);
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  setup();
  console.log(`chromium: ${process.env.BATON_CHROMIUM}`);
}
