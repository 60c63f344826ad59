import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Finds Chromium (or installs it, or stops with one line) before any test runs.
    globalSetup: ["sdk/testing/ensure-chromium.ts", "runtime-backend/console/ensure-built.ts"],
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/testdata/**", "**/.tmp-*/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
