/**
 * `npm run check:layers`: dependency-cruiser over every workspace (or the folders named), with
 * `.dependency-cruiser.cjs`.
 * dependency-cruiser reads TypeScript with the `typescript` package's compiler API, which the
 * repo's `typescript` (7, the native compiler) does not have yet; this points its `import
 * "typescript"` at the TypeScript 6 API the repo already carries (`@typescript/typescript6`).
 */
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, next) {
    const ts6 = specifier === "typescript" || specifier.startsWith("typescript/");
    return next(ts6 ? `@typescript/typescript6${specifier.slice("typescript".length)}` : specifier, context);
  },
});
// Folders to check, from the working directory (default: every workspace of the repository; the
// layers test names its own, in a tree of its own).
const roots = process.argv.length > 2 ? process.argv.splice(2) : ["gen", "sdk", "runtime-backend", "runtime-extension", "examples", "scripts"];
const config = new URL("../.dependency-cruiser.cjs", import.meta.url).pathname;
process.argv.splice(2, 0, "--config", config, "--output-type", "err", ...roots);
await import(new URL("../node_modules/dependency-cruiser/bin/dependency-cruiser.mjs", import.meta.url).href);
