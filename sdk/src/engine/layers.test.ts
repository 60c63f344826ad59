/**
 * The engine's layout, checked: folders are layers a reader can follow in the order a snapshot
 * is made, and no module imports one above it or forms an import cycle (type imports count).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = import.meta.dirname;

/**
 * Bottom-up: each entry may import only from itself and the entries before it. Names in one
 * entry sit side by side: neither imports the other.
 */
const layers: readonly (string | readonly string[])[] = [
  "in-page", // code that runs in the page: element rules (also run in Node), page functions, the DOM agent
  "gen", // the in-page code bundled into one string (scripts/gen-in-page.ts)
  "base", // coordinates, text sanitising, in-page function serialisation
  "page", // the page session, isolated worlds, activity tracker, settle, snapshot reuse
  "read", // DOMSnapshot index, AX reads, frame layout, labels
  "hit", // occlusion hit tests
  "mask", // the boxes of secrets and of refused sites' frames, painted over a screenshot before it is encoded
  "snapshot", // the snapshot walk, refs, roles, text, screenshots
  "page-state.ts", // the page, its refs and snapshots, failures that carry a fresh one
  ["targeting.ts", "evidence.ts"], // resolve, aim, describe | mark, settle, what changed
  ["parts.ts", "acted-on.ts"], // the parts an action names | the frames a call acts in, for the site policy
  "engine.ts", // the Engine: the composition of the parts
  "actions", // the tools' actions
  "handlers.ts", // the tools as handlers
  "dom", // the DOM fallback
  "index.ts",
];

/** Source files of the engine (tests and test fixtures are not layered). */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

/** Relative imports and re-exports of a file, resolved to absolute `.ts` paths. */
function importsOf(file: string): string[] {
  const src = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of src.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/g)) {
    out.push(resolve(dirname(file), m[1]!.replace(/\.js$/, ".ts")));
  }
  return out;
}

const firstName = (file: string): string => relative(root, file).split("/")[0] ?? "";

const layerOf = (file: string): number => {
  const first = firstName(file);
  return layers.findIndex((l) => (typeof l === "string" ? l === first : l.includes(first)));
};

/** Two files of one side-by-side entry (not the same file or folder). */
const besides = (a: string, b: string): boolean => layerOf(a) === layerOf(b) && typeof layers[layerOf(a)] !== "string" && firstName(a) !== firstName(b);

describe("engine layout", () => {
  const files = sources(root);
  const layered = files.filter((f) => !relative(root, f).startsWith("fixtures/"));

  it("puts every source file in a known layer", () => {
    for (const f of layered) expect(layerOf(f), relative(root, f)).toBeGreaterThanOrEqual(0);
  });

  it("never imports a higher layer, nor the Node-only SDK", () => {
    const bad: string[] = [];
    for (const f of layered) {
      for (const dep of importsOf(f)) {
        const rel = relative(root, dep);
        if (rel.startsWith("..")) {
          if (rel.startsWith("../node/")) bad.push(`${relative(root, f)} → ${rel}`);
          continue;
        }
        if (rel.startsWith("fixtures/") || layerOf(dep) > layerOf(f) || besides(f, dep)) bad.push(`${relative(root, f)} → ${rel}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("has no import cycles", () => {
    const graph = new Map(files.map((f) => [f, importsOf(f).filter((d) => !relative(root, d).startsWith(".."))]));
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (f: string): void => {
      state.set(f, "open");
      stack.push(f);
      for (const d of graph.get(f) ?? []) {
        if (state.get(d) === "open") cycles.push(stack.slice(stack.indexOf(d)).concat(d).map((x) => relative(root, x)).join(" → "));
        else if (!state.has(d)) visit(d);
      }
      stack.pop();
      state.set(f, "done");
    };
    for (const f of files) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });
});
