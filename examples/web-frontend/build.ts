/**
 * Bundles the web frontend example (app.ts → app.js, for browsers) and copies its pages into
 * `outDir`. `npx tsx examples/web-frontend/build.ts [outDir]` writes examples/web-frontend/dist.
 */
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/** Builds the example into `outDir`; returns the directory. */
export async function buildWebFrontend(outDir: string): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(import.meta.dirname, "app.ts")],
    outfile: join(outDir, "app.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
  });
  for (const page of ["index.html", "workspace.html"]) {
    copyFileSync(join(import.meta.dirname, page), join(outDir, page));
  }
  return outDir;
}

if (process.argv[1]?.endsWith("web-frontend/build.ts")) {
  const out = await buildWebFrontend(process.argv[2] ?? join(import.meta.dirname, "dist"));
  console.log(`built ${out}`);
}
