/**
 * Test support: runs the real `buf generate` (protoc-gen-es + protoc-gen-baton, code and docs)
 * on a proto tree in a temporary directory inside the repo, so the output resolves
 * @bufbuild/protobuf and can be imported or type-checked like any integrator's code.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The repository root. */
export const repoRoot = resolve(import.meta.dirname, "../..");

/** A temporary generation workspace: `proto/` in, `gen/` and `docs/` out. */
export interface TempGen {
  readonly dir: string;
  /** Writes a file under `proto/`. */
  write(path: string, content: string): void;
  /** Runs buf generate; rejects with buf's output on failure. */
  generate(): Promise<void>;
  /** Deletes the directory. */
  remove(): void;
}

/**
 * Creates a workspace under sdk/.tmp-*, with Baton's options.proto (or all of proto/) copied in;
 * `pluginOpts` are added to protoc-gen-baton's code run (such as "descriptors").
 */
export function tempGen(copy: "options" | "all", pluginOpts: readonly string[] = []): TempGen {
  const dir = mkdtempSync(join(repoRoot, "sdk", ".tmp-gen-"));
  const src = join(repoRoot, "proto");
  if (copy === "all") {
    cpSync(src, join(dir, "proto"), { recursive: true });
  } else {
    mkdirSync(join(dir, "proto/baton/v1"), { recursive: true });
    cpSync(join(src, "baton/v1/options.proto"), join(dir, "proto/baton/v1/options.proto"));
  }
  const bin = join(repoRoot, "node_modules/.bin");
  const plugin = join(repoRoot, "sdk/codegen/protoc-gen-baton.ts");
  const template = {
    version: "v2",
    inputs: [{ directory: "proto" }],
    plugins: [
      { local: join(bin, "protoc-gen-es"), out: "gen", opt: ["target=ts", "import_extension=js"] },
      { local: [join(bin, "tsx"), plugin], out: "gen", opt: ["target=ts", "import_extension=js", ...pluginOpts], strategy: "all" },
      { local: [join(bin, "tsx"), plugin], out: "docs", opt: ["target=ts", "docs"], strategy: "all" },
    ],
  };
  writeFileSync(join(dir, "buf.gen.yaml"), JSON.stringify(template, null, 2));
  writeFileSync(join(dir, "buf.yaml"), JSON.stringify({ version: "v2", modules: [{ path: "proto" }] }));
  return {
    dir,
    write(path, content) {
      mkdirSync(dirname(join(dir, "proto", path)), { recursive: true });
      writeFileSync(join(dir, "proto", path), content);
    },
    async generate() {
      try {
        await run(join(bin, "buf"), ["generate"], {
          cwd: dir,
          env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` },
        });
      } catch (e) {
        const err = e as { stderr?: string; message: string };
        throw new Error(`buf generate failed: ${err.stderr || err.message}`);
      }
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
