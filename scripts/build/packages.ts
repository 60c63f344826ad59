/**
 * `npm run build`: the publishable packages `@baton/gen`, `@baton/sdk`, `@baton/backend` and
 * `@baton/cli` (the `baton` command), each into its workspace's `dist/` (see rollup-build.ts).
 * Packs with `npm pack gen/dist sdk/dist runtime-backend/dist runtime-backend/cli/dist`.
 */
import { readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { buildConsoleIfStale } from "../../runtime-backend/console/build.js";
import { compileSuite } from "./compile-suite.js";
import { buildPackage, type PackageSpec } from "./rollup-build.js";

const root = resolve(import.meta.dirname, "../..");

/** Every generated module of @baton/gen, by its path under gen/src without `.ts`. */
function genEntries(): Record<string, string> {
  const src = join(root, "gen", "src");
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith(".ts") ? [join(d, e.name)] : []));
  return Object.fromEntries(walk(src).map((f) => [relative(src, f).replace(/\.ts$/, ""), relative(join(root, "gen"), f)]));
}

/** The backend's layers the command imports, each a subpath export of @baton/backend. */
const backendLayers = ["base", "console", "context", "log", "loop", "providers", "server", "store"];

/** The packages, in dependency order. */
export function packageSpecs(): PackageSpec[] {
  const gen = genEntries();
  return [
    {
      dir: "gen",
      entries: gen,
      // Both spellings the sources use: "@baton/gen/baton/v1/tools_pb" and "…/tools_pb.js".
      exports: Object.fromEntries(Object.keys(gen).flatMap((name) => [[`./${name}`, name], [`./${name}.js`, name]])),
      runtimeNeutral: Object.keys(gen),
    },
    {
      dir: "sdk",
      entries: {
        index: "src/index.ts",
        contract: "src/contract/index.ts",
        client: "src/client/index.ts",
        totp: "src/client/totp.ts",
        engine: "src/engine/index.ts",
        "engine-dom": "src/engine/dom/index.ts",
        cdp: "src/cdp/index.ts",
        script: "src/script/index.ts",
        policy: "src/policy/index.ts",
        node: "src/node/index.ts",
        codegen: "codegen/protoc-gen-baton.ts",
      },
      exports: {
        ".": "index",
        "./contract": "contract",
        "./client": "client",
        "./totp": "totp",
        "./engine": "engine",
        "./engine/dom": "engine-dom",
        "./cdp": "cdp",
        "./script": "script",
        "./policy": "policy",
        "./node": "node",
        "./codegen": "codegen",
      },
      bins: { "protoc-gen-baton": { body: 'import { runNodeJs } from "@bufbuild/protoplugin";\nimport { protocGenBaton } from "../codegen.js";\n\nrunNodeJs(protocGenBaton);' } },
      runtimeNeutral: ["index", "contract", "client", "totp", "engine", "engine-dom", "cdp", "script", "policy"],
    },
    {
      dir: "runtime-backend",
      // The library the command is built on: its root and one entry per layer the command uses.
      entries: Object.fromEntries([["index", "src/index.ts"], ...backendLayers.map((l) => [l, `src/${l}/index.ts`])]),
      exports: Object.fromEntries([[".", "index"], ...backendLayers.map((l) => [`./${l}`, l])]),
      // `baton serve` serves the web console's build (console-pages.ts).
      assets: [{ path: "console/dist", build: buildConsoleIfStale }],
    },
    {
      dir: "runtime-backend/cli",
      entries: { main: "src/main.ts" },
      exports: { ".": "main" },
      // `baton eval` runs the built-in suite (eval/suite.ts), its TypeScript compiled.
      assets: [{ path: "src/eval/suite", compile: compileSuite }],
      bins: { baton: { body: 'import { main } from "../main.js";\n\nprocess.exitCode = await main(process.argv.slice(2));' } },
    },
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  for (const spec of packageSpecs()) {
    const t = performance.now();
    const files = await buildPackage(root, spec);
    console.log(`${spec.dir}/dist: ${files.filter((f) => f.endsWith(".js")).length} modules in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
}
