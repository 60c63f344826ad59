/**
 * What a browser bundle of Baton's client is made of: esbuild (platform browser, minified, ESM)
 * bundles three entries from the workspace sources and prints each one's minified and gzip
 * size, then the largest modules of the last:
 *   1. a bare connect-web client of AgentService (the floor any client of the contract pays:
 *      Connect, protobuf-es and the generated descriptors);
 *   2. `@baton/sdk/client` (createBatonClient, runTask);
 *   3. client + `@baton/sdk/contract` + the catalog, the snippet scripts/packages.test.ts
 *      bundles from the packed packages.
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
  "@baton/sdk/client": `import { createBatonClient, runTask } from "@baton/sdk/client";
console.log(runTask, createBatonClient({ baseUrl: location.origin }));`,
  "client + contract + catalog": `import { createBatonClient, runTask } from "@baton/sdk/client";
import { parseToolCall } from "@baton/sdk/contract";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
const client = createBatonClient({ baseUrl: location.origin });
console.log(runTask, client, parseToolCall(toolCatalog, "click", { ref: "e1" }));`,
};

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
let last: Record<string, { bytesInOutput: number }> = {};
for (const [name, contents] of Object.entries(entries)) {
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
  last = Object.values(out.metafile.outputs)[0]!.inputs;
}
console.log("\nlargest modules of the last (minified bytes in the bundle):");
for (const [file, { bytesInOutput }] of Object.entries(last)
  .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
  .slice(0, 12)) {
  console.log(`  ${kb(bytesInOutput).padStart(8)}  ${file.replace(/^.*node_modules\//, "")}`);
}
