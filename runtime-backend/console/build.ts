/**
 * Builds the web console (`src/main.tsx` → `dist/assets/console-<hash>.js`, `static/` →
 * `dist/`) with rollup, esbuild and node-resolve, as the extension is built. The backend runs
 * it at start when the sources are newer than the build; `npx tsx runtime-backend/console/build.ts`
 * builds it by hand.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const here = import.meta.dirname;

/** The newest modification time under a directory. */
function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

/**
 * Builds the console into `outDir`; returns the file names written. The build is written
 * beside it and moved into place, so a server reading `outDir` never sees half a build, and two
 * processes building at once leave one whole build.
 */
export async function buildConsole(outDir: string): Promise<string[]> {
  // Loaded here, not at the top: a server whose build is current never loads the bundler,
  // whose load time and memory every server started from a clone would otherwise pay.
  const [{ rollup }, { nodeResolve }, { default: esbuild, minify }] = await Promise.all([
    import("rollup"),
    import("@rollup/plugin-node-resolve"),
    import("rollup-plugin-esbuild"),
  ]);
  const final = outDir;
  outDir = `${final}.tmp-${process.pid}-${Date.now()}`;
  const bundle = await rollup({
    input: join(here, "src/main.tsx"),
    plugins: [
      nodeResolve({ browser: true, extensions: [".ts", ".tsx", ".js", ".mjs"] }),
      esbuild({ target: "chrome120", jsx: "automatic", jsxImportSource: "preact", legalComments: "none" }),
      // Minified per chunk, after tree-shaking: with each module minified first, rollup kept the
      // `/*@__PURE__*/` descriptor calls of unused schemas.
      minify({ target: "chrome120", legalComments: "none" }),
    ],
    onwarn(warning, warn) {
      // Connect's ESM output keeps TypeScript's `this &&` helpers: harmless.
      if (warning.code !== "THIS_IS_UNDEFINED") warn(warning);
    },
  });
  const { output } = await bundle.generate({ format: "es" });
  await bundle.close();
  const code = output.map((o) => (o.type === "chunk" ? o.code : "")).join("\n");
  const css = readFileSync(join(here, "static/console.css"), "utf8");
  const hash = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 10);
  const js = `console-${hash(code)}.js`;
  const style = `console-${hash(css)}.css`;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, "assets"), { recursive: true });
  writeFileSync(join(outDir, "assets", js), code);
  writeFileSync(join(outDir, "assets", style), css);
  for (const name of readdirSync(join(here, "static"))) {
    if (name === "console.css") continue;
    const src = readFileSync(join(here, "static", name));
    if (name === "index.html") {
      writeFileSync(join(outDir, name), src.toString("utf8").replace("/assets/console.js", `/assets/${js}`).replace("/assets/console.css", `/assets/${style}`));
    } else writeFileSync(join(outDir, "assets", name), src);
  }
  writeFileSync(join(outDir, ".built"), String(Date.now()));
  rmSync(final, { recursive: true, force: true });
  try {
    renameSync(outDir, final);
  } catch {
    // Another process moved its build into place first: the same sources, the same files.
    rmSync(outDir, { recursive: true, force: true });
  }
  return [js, style];
}

/**
 * Builds the console unless `outDir` holds a build newer than every source: its own, and the
 * generated contract it bundles (`gen/src`: a regenerated contract changes the console too).
 */
export async function buildConsoleIfStale(outDir: string): Promise<boolean> {
  const stamp = join(outDir, ".built");
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const sources = [join(here, "src"), join(here, "static"), join(here, "../../gen/src")].filter((d) => existsSync(d));
  if (built > Math.max(...sources.map(newest), statSync(import.meta.filename).mtimeMs)) return false;
  await buildConsole(outDir);
  return true;
}

if (process.argv[1] === import.meta.filename) {
  const t = performance.now();
  const files = await buildConsole(join(here, "dist"));
  console.log(`built ${files.join(", ")} in ${Math.round(performance.now() - t)} ms`);
}
