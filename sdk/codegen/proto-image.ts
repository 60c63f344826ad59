/**
 * Test support: the repository's protos as `buf build` compiles them, custom options included.
 * The generated `*_pb.ts` embed their descriptors without Baton's options (buf.gen.yaml strips
 * them), so a test that checks generated data against the options reads them from here.
 */
import { createFileRegistry, type DescField, type DescMethod, fromBinary, getOption, hasOption, type FileRegistry } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import type { FieldConstraints, MethodConstraints } from "@baton/gen/baton/v1/options_pb";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "./generate-in-temp.js";

/** The compiled protos and Baton's option extensions in them. */
export interface ProtoImage {
  registry: FileRegistry;
  /** A runtime field's `(baton.v1.field)` as the proto states it, or undefined. */
  fieldOption(f: DescField): FieldConstraints | undefined;
  /** A runtime RPC's `(baton.v1.method)` as the proto states it, or undefined. */
  methodOption(m: DescMethod): MethodConstraints | undefined;
  /** `(baton.v1.tool)` of a message, by type name. */
  toolOption(typeName: string): { side: number; risk: number; navigation: boolean } | undefined;
}

/** Compiles every module of the workspace's buf.yaml (Baton's protos and the custom-tool example's). */
export function protoImage(): ProtoImage {
  const bytes = execFileSync(join(repoRoot, "node_modules/.bin/buf"), ["build", "-o", "-#format=binpb", "--as-file-descriptor-set"], {
    cwd: repoRoot,
    maxBuffer: 64 << 20,
  });
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, bytes));
  const ext = (name: string) => {
    const e = registry.getExtension(name);
    if (!e) throw new Error(`${name} is not in the compiled protos`);
    return e;
  };
  const field = ext("baton.v1.field");
  const method = ext("baton.v1.method");
  const tool = ext("baton.v1.tool");
  return {
    registry,
    fieldOption(f) {
      const g = registry.getMessage(f.parent.typeName)?.fields.find((x) => x.number === f.number);
      return g && hasOption(g, field) ? (getOption(g, field) as unknown as FieldConstraints) : undefined;
    },
    methodOption(m) {
      const g = registry.getService(m.parent.typeName)?.methods.find((x) => x.name === m.name);
      return g && hasOption(g, method) ? (getOption(g, method) as unknown as MethodConstraints) : undefined;
    },
    toolOption(typeName) {
      const g = registry.getMessage(typeName);
      return g && hasOption(g, tool) ? (getOption(g, tool) as unknown as { side: number; risk: number; navigation: boolean }) : undefined;
    },
  };
}
