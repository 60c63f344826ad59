/**
 * vitest global setup: builds the web console once before any test, so the `baton serve`
 * processes that tests start find it current instead of each building it.
 */
import { join } from "node:path";
import { buildConsoleIfStale } from "./build.js";

export default async function setup(): Promise<void> {
  await buildConsoleIfStale(join(import.meta.dirname, "dist"));
}
