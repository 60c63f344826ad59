/**
 * What a browser bundle of Baton's client is made of: esbuild (platform browser, minified, ESM)
 * bundles four entries from the workspace sources and prints each one's minified and gzip
 * size, then the client's modules by part:
 *   1. a bare connect-web client of AgentService from protoc-gen-es's `agent_pb` (base64
 *      descriptors that `fileDesc()` decodes), and the same from protoc-gen-baton's
 *      `descriptors.ts` (compact literals, what the client uses): the floor any client of the
 *      contract pays (Connect, protobuf-es and the descriptors);
 *   2. `@baton/sdk/client` (createBatonClient, runTask, withoutBrowser), the snippet
 *      scripts/packages.test.ts measures against the 40 KB target;
 *   3. client + `@baton/sdk/contract` + the model-facing catalog (`toolCatalog`), its second.
 *
 *   npx tsx scripts/browser-bundle.ts
 */
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = resolve(import.meta.dirname, "..");
const entries: Record<string, string> = {
  "connect-web client of AgentService": `import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AgentService } from "@baton/gen/baton/v1/agent_pb";
console.log(createClient(AgentService, createConnectTransport({ baseUrl: location.origin })));`,
  "the same from descriptors.ts": `import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AgentService } from "@baton/gen/baton/v1/descriptors";
console.log(createClient(AgentService, createConnectTransport({ baseUrl: location.origin })));`,
  "@baton/sdk/client": `import { createBatonClient, runTask, withoutBrowser } from "@baton/sdk/client";
console.log(runTask, createBatonClient({ baseUrl: location.origin }), withoutBrowser(async () => ({ answer: "yes" })));`,
  "client + contract + catalog": `import { createBatonClient, runTask } from "@baton/sdk/client";
import { parseToolCall } from "@baton/sdk/contract";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
const client = createBatonClient({ baseUrl: location.origin });
console.log(runTask, client, parseToolCall(toolCatalog, "click", { ref: "e1" }));`,
};

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
let last: Record<string, { bytesInOutput: number }> = {};
for (const [name, contents] of Object.entries(entries)) {
  const keep = name === "@baton/sdk/client";
  const out = await build({
    stdin: { contents, resolveDir: join(root, "sdk"), loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const js = out.outputFiles[0]!.contents;
  console.log(`${name}: ${kb(js.length)} minified, ${kb(gzipSync(js, { level: 9 }).length)} gzip`);
  if (keep) last = Object.values(out.metafile.outputs)[0]!.inputs;
}
const group = (file: string): string => {
  const m = /node_modules\/(@[^/]+\/[^/]+)\/(.*)$/.exec(file);
  if (m?.[1] === "@bufbuild/protobuf") return m[2]!.includes("wkt/google/protobuf/descriptor_pb") ? "protobuf-es: descriptor.proto booted (fileDesc decodes the WKTs the JSON codec imports with it)" : /(from|to)-json\.js$/.test(m[2]!) ? "protobuf-es: JSON (Connect's JSON codec)" : "protobuf-es: the rest (registry, binary, reflect, create)";
  if (m) return m[1]!;
  if (file.startsWith("gen/")) return file.endsWith("_baton.ts") ? "generated: tool routes (tools_baton)" : file.endsWith("descriptors.ts") ? "generated: descriptors as literals (descriptors.ts)" : "generated: embedded descriptors (*_pb)";
  if (file.startsWith("sdk/src/contract/")) return "@baton/sdk/contract (dispatch; parsing client-declared tools' arguments)";
  if (file.startsWith("sdk/src/client/")) return "@baton/sdk/client (runTask, secrets, retry)";
  return "entry";
};
const groups = new Map<string, { bytes: number; files: [number, string][] }>();
for (const [file, { bytesInOutput }] of Object.entries(last)) {
  const g = groups.get(group(file)) ?? { bytes: 0, files: [] };
  g.bytes += bytesInOutput;
  if (bytesInOutput > 0) g.files.push([bytesInOutput, `${file.split("/").at(-1)} ${kb(bytesInOutput)}`]);
  groups.set(group(file), g);
}
console.log("\nthe client's modules by part (minified bytes in the bundle; largest files of each):");
for (const [name, g] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes)) {
  console.log(`  ${kb(g.bytes).padStart(8)}  ${name}: ${g.files.sort((a, b) => b[0] - a[0]).slice(0, 4).map((f) => f[1]).join(", ")}`);
}
