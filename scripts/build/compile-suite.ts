import { readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { build } from "esbuild";

/** Every file below `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/**
 * Makes a copy of the eval suite runnable from an installed package, where Node will not strip
 * types under `node_modules` and the backend's own modules are bundled: each site's `server.ts`
 * becomes a `server.js` with what it imports from the backend (the site kit) inlined, and every
 * other `.ts` (the apps' browser code) a `.js` beside it; the TypeScript is removed. The site
 * server and the suite loader already prefer those names (`server.js`, `x.js`).
 */
export async function compileSuite(copy: string, source: string): Promise<void> {
  const ts = filesUnder(join(copy, "sites")).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
  for (const file of ts) {
    const server = file.endsWith("/server.ts");
    await build({
      // A server's imports of the backend resolve from where the suite lives in the workspace.
      entryPoints: [server ? join(source, relative(copy, file)) : file],
      outfile: file.replace(/\.ts$/, ".js"),
      // A site's server is loaded by Node: the backend's site kit goes inside, npm packages stay
      // imports. Browser code keeps its own imports, each compiled beside it.
      bundle: server,
      ...(server ? { platform: "node", packages: "external" } : { platform: "browser" }),
      format: "esm",
      target: "es2022",
      logLevel: "error",
    });
  }
  for (const file of ts) rmSync(file);
}
