/**
 * Builds one workspace into a publishable package under its `dist/`: ESM chunks with source
 * maps (rollup + esbuild), `.d.ts` per entry (rollup-plugin-dts), a `package.json` whose
 * `exports` map each entry point to its `.js` and `.d.ts`, the license and a README. The
 * workspace's own `package.json` keeps pointing at the TypeScript sources, so tests, tsx,
 * vitest and tsc in the monorepo never need a build; `npm pack <workspace>/dist` packs it.
 */
import { builtinModules } from "node:module";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { type OutputBundle, type Plugin, rollup } from "rollup";
import { dts } from "rollup-plugin-dts";
import esbuild from "rollup-plugin-esbuild";

/** What to build for one workspace. */
export interface PackageSpec {
  /** The workspace directory, relative to the repo root. */
  readonly dir: string;
  /** Output name (no extension) → source file, relative to the workspace. */
  readonly entries: Readonly<Record<string, string>>;
  /** Subpath export → entry name; a subpath ending in `/*` maps a whole directory of entries. */
  readonly exports: Readonly<Record<string, string>>;
  /** Command name → its file's body (it imports from the entries as `../<entry>.js`), and Node flags for the shebang. */
  readonly bins?: Readonly<Record<string, { body: string; nodeFlags?: string }>>;
  /** Entries that must not reach a Node built-in or a Node-only package, even lazily. */
  readonly runtimeNeutral?: readonly string[];
  /**
   * Folders (relative to the workspace) the code reads at run time, copied into the package at
   * the same path, so that code finds them the same way in a clone and installed (the
   * backend's `packageDir`); `build` makes one first.
   */
  readonly assets?: readonly {
    readonly path: string;
    /** Makes the folder in the workspace first (a build whose output is the asset). */
    readonly build?: (dir: string) => Promise<unknown>;
    /** Turns the copy in the package into what an installed package can run (TypeScript into JavaScript). */
    readonly compile?: (copy: string, source: string) => Promise<unknown>;
  }[];
}

/** Packages a runtime-neutral entry may not import. */
const nodeOnly = ["ws", "@connectrpc/connect-node", "playwright-core", "pg", "@electric-sql/pglite", "pino"];

const isBuiltin = (id: string): boolean => id.startsWith("node:") || builtinModules.includes(id.split("/")[0] as string);
const isBare = (id: string): boolean => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0");
const packageOf = (id: string): string => (id.startsWith("@") ? id.split("/").slice(0, 2).join("/") : (id.split("/")[0] as string));

/**
 * `new URL("./worker.ts", import.meta.url)` (a worker thread's script) becomes a chunk of its
 * own and a URL rollup resolves relative to wherever the referencing chunk lands.
 */
function workerUrls(): Plugin {
  return {
    name: "baton-worker-urls",
    async transform(code, id) {
      const re = /new URL\((["'])(\.{1,2}\/[^"']+\.ts)\1,\s*import\.meta\.url\)/g;
      const found = [...code.matchAll(re)];
      if (found.length === 0) return null;
      let out = code;
      for (const m of found) {
        const target = resolve(dirname(id), m[2] as string);
        const ref = this.emitFile({ type: "chunk", id: target, name: relative(dirname(id), target).replace(/\.ts$/, "") });
        out = out.replace(m[0], `new URL(import.meta.ROLLUP_FILE_URL_${ref})`);
      }
      return { code: out, map: null };
    },
  };
}

/** What every chunk of an entry reaches, statically or through `import()`. */
function reach(bundle: OutputBundle, file: string, seen = new Set<string>()): Set<string> {
  const chunk = bundle[file];
  if (!chunk || chunk.type !== "chunk" || seen.has(file)) return seen;
  seen.add(file);
  for (const dep of [...chunk.imports, ...chunk.dynamicImports]) {
    if (bundle[dep]) reach(bundle, dep, seen);
    else seen.add(dep);
  }
  return seen;
}

/** Fails when a runtime-neutral entry reaches a Node built-in or a Node-only package. */
function checkNeutral(spec: PackageSpec, bundle: OutputBundle): void {
  const problems: string[] = [];
  for (const entry of spec.runtimeNeutral ?? []) {
    const bad = [...reach(bundle, `${entry}.js`)].filter((id) => !bundle[id] && (isBuiltin(id) || nodeOnly.includes(packageOf(id))));
    if (bad.length > 0) problems.push(`${spec.dir}: entry "${entry}" reaches ${bad.join(", ")}`);
  }
  if (problems.length > 0) throw new Error(`runtime-neutral entries import Node-only code:\n- ${problems.join("\n- ")}`);
}

function exportsMap(spec: PackageSpec): Record<string, unknown> {
  const out: Record<string, unknown> = { "./package.json": "./package.json" };
  for (const [subpath, entry] of Object.entries(spec.exports)) {
    out[subpath] = { types: `./${entry}.d.ts`, default: `./${entry}.js` };
  }
  return out;
}

/** Builds `spec` into `<dir>/dist`; resolves to the files written. */
export async function buildPackage(root: string, spec: PackageSpec): Promise<string[]> {
  const dir = join(root, spec.dir);
  const out = join(dir, "dist");
  rmSync(out, { recursive: true, force: true });
  const input = Object.fromEntries(Object.entries(spec.entries).map(([name, src]) => [name, join(dir, src)]));
  const external = (id: string): boolean => isBare(id);

  const js = await rollup({
    input,
    external,
    plugins: [workerUrls(), esbuild({ target: "es2023", sourceMap: true, tsconfig: join(root, "tsconfig.base.json") })],
    onwarn(w, warn) {
      if (w.code !== "CIRCULAR_DEPENDENCY") warn(w);
    },
  });
  const { output } = await js.write({ dir: out, format: "es", sourcemap: true, entryFileNames: "[name].js", chunkFileNames: "chunks/[name]-[hash].js" });
  await js.close();
  const bundle = Object.fromEntries(output.map((o) => [o.fileName, o])) as OutputBundle;
  checkNeutral(spec, bundle);

  const types = await rollup({
    input,
    external,
    plugins: [dts({ tsconfig: join(dir, "tsconfig.json") })],
    onwarn(w, warn) {
      if (w.code !== "CIRCULAR_DEPENDENCY") warn(w);
    },
  });
  await types.write({ dir: out, format: "es", entryFileNames: "[name].d.ts", chunkFileNames: "chunks/[name]-[hash].d.ts" });
  await types.close();

  const bin: Record<string, string> = {};
  for (const [name, b] of Object.entries(spec.bins ?? {})) {
    const file = `bin/${name}.js`;
    mkdirSync(join(out, "bin"), { recursive: true });
    const shebang = b.nodeFlags ? `#!/usr/bin/env -S node ${b.nodeFlags}` : "#!/usr/bin/env node";
    writeFileSync(join(out, file), `${shebang}\n${b.body}\n`, { mode: 0o755 });
    bin[name] = file;
  }

  for (const a of spec.assets ?? []) {
    await a.build?.(join(dir, a.path));
    // Dot files are build stamps, not content.
    cpSync(join(dir, a.path), join(out, a.path), { recursive: true, filter: (f) => !basename(f).startsWith(".") });
    await a.compile?.(join(out, a.path), join(dir, a.path));
  }

  const ws = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
  const manifest = {
    name: ws.name,
    version: ws.version,
    description: ws.description,
    license: "Apache-2.0",
    type: "module",
    engines: { node: ">=20.6" },
    exports: exportsMap(spec),
    ...(Object.keys(bin).length > 0 ? { bin } : {}),
    files: ["*.js", "*.d.ts", "*.js.map", "**/*.js", "**/*.d.ts", "**/*.js.map", "bin", "LICENSE", "README.md", ...(spec.assets ?? []).map((a) => a.path)],
    sideEffects: false,
    dependencies: ws.dependencies ?? {},
    ...(ws.peerDependencies ? { peerDependencies: ws.peerDependencies, peerDependenciesMeta: ws.peerDependenciesMeta } : {}),
  };
  writeFileSync(join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(join(root, "LICENSE"), join(out, "LICENSE"));
  const readme = join(dir, "README.md");
  if (existsSync(readme)) copyFileSync(readme, join(out, "README.md"));
  return output.map((o) => o.fileName);
}
