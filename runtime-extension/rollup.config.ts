/**
 * The extension's build: `npm run build -w runtime-extension` writes `dist/` (load it with
 * "Load unpacked") and `baton-extension.zip` beside it (the same files, for the Chrome Web Store).
 *
 * - panel, service worker and offscreen document: ES modules sharing chunks;
 * - the content script: one classic script (what `chrome.scripting` injects);
 * - `dom-agent.js`: the SDK's DOM-fallback agent, written from `domAgentSource`;
 * - `manifest.json` from `src/manifest.ts`, and the static pages, styles and icons;
 * - the standalone mode's embedded database: PGlite in a chunk of its own (loaded by the panel only
 *   when there is no backend), with the WebAssembly and data files it fetches beside that chunk.
 *
 * Nothing Node-only may reach a bundle: an import of a Node built-in fails the build (PGlite's own
 * Node branches excepted: they run only under Node).
 */
import commonjs from "@rollup/plugin-commonjs";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import { zipSync } from "fflate";
import { copyFileSync, cpSync, mkdirSync, readdirSync, rmSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import type { Plugin, RollupOptions } from "rollup";
import esbuild, { minify } from "rollup-plugin-esbuild";
import { tsImport } from "tsx/esm/api";
import { manifest } from "./src/manifest.js";

const here = import.meta.dirname;
/** `dist/`, or the folder BATON_EXTENSION_OUT names (a build that leaves `dist/` alone, for tests). */
const dist = process.env.BATON_EXTENSION_OUT ? resolve(process.env.BATON_EXTENSION_OUT) : join(here, "dist");
const { version } = JSON.parse(readFileSync(join(here, "package.json"), "utf8")) as { version: string };

const plugins = () => [
  nodeResolve({ browser: true, extensions: [".ts", ".tsx", ".js", ".mjs"] }),
  // A few of the providers' dependencies are still CommonJS (p-retry under @google/genai).
  commonjs(),
  esbuild({ target: "chrome125", jsx: "automatic", jsxImportSource: "preact", legalComments: "none" }),
  // Minified per chunk, after tree-shaking: with each module minified first, rollup kept the
  // `/*@__PURE__*/` descriptor calls of unused schemas (docs/benchmarks.md, "the descriptors as literals").
  minify({ target: "chrome125", legalComments: "none" }),
];

/** The chunk PGlite goes into, and where the files it fetches (next to its module) are copied. */
const pgliteChunk = "chunks/pglite";
/** What PGlite fetches relative to its module: the Postgres build, its file system image and initdb. */
const pgliteFiles = ["pglite.wasm", "pglite.data", "initdb.wasm"] as const;

/** PGlite's own modules, but not its optional file systems (`dist/fs/`: Node's, OPFS), which it imports only when asked for them. */
const isPglite = (id: string) => id.includes("/@electric-sql/pglite/") && !id.includes("/@electric-sql/pglite/dist/fs/");

/** Fails the build when a module reaches a Node built-in (PGlite's Node-only branches excepted). */
function noNodeBuiltIns(): Plugin {
  const builtIns = new Set(builtinModules);
  return {
    name: "baton-no-node-built-ins",
    resolveId(source, importer) {
      const bare = source.replace(/^node:/, "").split("/")[0] ?? "";
      if (!source.startsWith("node:") && !builtIns.has(bare)) return null;
      if (importer?.includes("@electric-sql/pglite")) return { id: source, external: true };
      this.error(`${importer ?? "?"} imports ${source}: the extension runs in Chrome, not Node (import a browser-safe module instead)`);
    },
  };
}

/** Copies PGlite's WebAssembly and data beside the chunk that loads them, and checks it is that chunk. */
function pgliteAssets(): Plugin {
  return {
    name: "baton-pglite-assets",
    generateBundle(_options, bundle) {
      const holders = Object.values(bundle).filter((c) => c.type === "chunk" && Object.keys(c.modules).some(isPglite));
      const names = holders.map((c) => c.fileName);
      if (names.length !== 1 || !names[0]?.startsWith(`${pgliteChunk}-`)) this.error(`PGlite must be in one chunk ${pgliteChunk}-*.js, not: ${names.join(", ")}`);
    },
    writeBundle() {
      const from = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
      mkdirSync(join(dist, dirname(pgliteChunk)), { recursive: true });
      for (const f of pgliteFiles) copyFileSync(join(from, f), join(dist, dirname(pgliteChunk), f));
    },
  };
}

/** Static files, the manifest and the DOM agent, written once the bundles are. */
function assets(): Plugin {
  return {
    name: "baton-assets",
    async generateBundle() {
      // The SDK ships TypeScript sources: tsx loads its DOM-fallback entry point here.
      const { domAgentSource } = (await tsImport("@baton/sdk/engine/dom", import.meta.url)) as typeof import("@baton/sdk/engine/dom");
      this.emitFile({ type: "asset", fileName: "manifest.json", source: `${JSON.stringify(manifest(version), null, 2)}\n` });
      this.emitFile({ type: "asset", fileName: "dom-agent.js", source: `${domAgentSource}\n` });
    },
    writeBundle() {
      cpSync(join(here, "static"), dist, { recursive: true });
    },
  };
}

/** Zips dist/ for the Web Store, after the last bundle is written. */
function zip(): Plugin {
  return {
    name: "baton-zip",
    writeBundle() {
      const files: Record<string, Uint8Array> = {};
      const walk = (dir: string) => {
        for (const name of readdirSync(dir).sort()) {
          const path = join(dir, name);
          if (statSync(path).isDirectory()) walk(path);
          else files[relative(dist, path)] = readFileSync(path);
        }
      };
      walk(dist);
      // Fixed timestamps: the same sources give the same zip.
      const zipped = zipSync(files, { level: 9, mtime: new Date("2026-01-01T00:00:00Z") });
      writeFileSync(join(dirname(dist), "baton-extension.zip"), zipped);
    },
  };
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

/**
 * Harmless warnings: Connect's ESM output keeps TypeScript's `this &&` helpers (rewritten `this`);
 * PGlite's Emscripten glue holds an `eval` for dynamically loaded Postgres extensions, which the
 * store never loads (the page's CSP would refuse it); a dependency's own import cycles.
 */
const onwarn: RollupOptions["onwarn"] = (warning, warn) => {
  if (warning.code === "THIS_IS_UNDEFINED") return;
  if (warning.code === "EVAL" && warning.id?.includes("@electric-sql/pglite")) return;
  if (warning.code === "CIRCULAR_DEPENDENCY" && warning.ids?.every((id) => id.includes("/node_modules/"))) return;
  warn(warning);
};

const config: RollupOptions[] = [
  {
    input: {
      panel: join(here, "src/panel/main.tsx"),
      "service-worker": join(here, "src/background/service-worker.ts"),
      offscreen: join(here, "src/offscreen/offscreen.ts"),
    },
    output: {
      dir: dist,
      format: "es",
      entryFileNames: "[name].js",
      chunkFileNames: (c) => (c.name === "pglite" ? `${pgliteChunk}-[hash].js` : "chunks/shared-[hash].js"),
      // PGlite's optional file systems (Node's, OPFS) stay in chunks of their own, loaded only if used.
      manualChunks: (id) => (isPglite(id) ? "pglite" : undefined),
    },
    plugins: [noNodeBuiltIns(), ...plugins(), assets(), pgliteAssets()],
    onwarn,
  },
  {
    input: join(here, "src/content/content-script.ts"),
    output: { file: join(dist, "content-script.js"), format: "iife" },
    plugins: [noNodeBuiltIns(), ...plugins(), zip()],
    onwarn,
  },
];

export default config;
