/**
 * The extension's build: `npm run build -w runtime-extension` writes `dist/` (load it with
 * "Load unpacked") and `baton-extension.zip` beside it (the same files, for the Chrome Web Store).
 *
 * - panel, service worker and offscreen document: ES modules sharing chunks;
 * - the content script: one classic script (what `chrome.scripting` injects);
 * - `dom-agent.js`: the SDK's DOM-fallback agent, written from `domAgentSource`;
 * - `manifest.json` from `src/manifest.ts`, and the static pages, styles and icons.
 */
import { nodeResolve } from "@rollup/plugin-node-resolve";
import { zipSync } from "fflate";
import { cpSync, mkdirSync, readdirSync, rmSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { Plugin, RollupOptions } from "rollup";
import esbuild from "rollup-plugin-esbuild";
import { tsImport } from "tsx/esm/api";
import { manifest } from "./src/manifest.js";

const here = import.meta.dirname;
/** `dist/`, or the folder BATON_EXTENSION_OUT names (a build that leaves `dist/` alone, for tests). */
const dist = process.env.BATON_EXTENSION_OUT ? resolve(process.env.BATON_EXTENSION_OUT) : join(here, "dist");
const { version } = JSON.parse(readFileSync(join(here, "package.json"), "utf8")) as { version: string };

const plugins = () => [
  nodeResolve({ browser: true, extensions: [".ts", ".tsx", ".js", ".mjs"] }),
  esbuild({ target: "chrome125", minify: true, jsx: "automatic", jsxImportSource: "preact", legalComments: "none" }),
];

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

/** Connect's ESM output keeps TypeScript's `this &&` helpers, which rollup reports as rewritten `this`: harmless. */
const onwarn: RollupOptions["onwarn"] = (warning, warn) => {
  if (warning.code === "THIS_IS_UNDEFINED") return;
  warn(warning);
};

const config: RollupOptions[] = [
  {
    input: {
      panel: join(here, "src/panel/main.tsx"),
      "service-worker": join(here, "src/background/service-worker.ts"),
      offscreen: join(here, "src/offscreen/offscreen.ts"),
    },
    output: { dir: dist, format: "es", entryFileNames: "[name].js", chunkFileNames: "chunks/shared-[hash].js" },
    plugins: [...plugins(), assets()],
    onwarn,
  },
  {
    input: join(here, "src/content/content-script.ts"),
    output: { file: join(dist, "content-script.js"), format: "iife" },
    plugins: [...plugins(), zip()],
    onwarn,
  },
];

export default config;
