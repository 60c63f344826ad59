/**
 * Checked by `npm test` (`npm run check:layers`): no import cycle anywhere in the tree, type-only
 * imports included (`tsPreCompilationDeps`): a type that points up is a type in the wrong layer;
 * the packages form a DAG, each importing only those below it; and the backend's folders form
 * layers, each importing only those below it (docs/development.md "Layout"); the in-page code
 * imports only itself.
 */

/**
 * The packages, bottom-up: the contract's generated code, the SDK, the backend (a library), the
 * extension (which bundles the backend for its standalone mode), the `baton` command (which serves
 * the extension and drives it in `eval --via extension`).
 */
const packages = [
  ["gen", "^gen/"],
  ["sdk", "^sdk/"],
  ["backend", "^runtime-backend/(?!cli/)"],
  ["extension", "^runtime-extension/"],
  ["cli", "^runtime-backend/cli/"],
];
/**
 * Tests, test harnesses and benches may reach above their package: a backend fault test starts
 * the `baton` command as a process, and the extension's end-to-end tests start a backend that way.
 */
const testCode = "(\\.test\\.tsx?$|/(testing|e2e|faults|bench)/)";

const packageRules = packages.slice(0, -1).map(([name, path], i) => ({
  name: `package-order-${name}`,
  comment: `@baton/${name} may not import a package above it (${packages.slice(i + 1).map(([n]) => `@baton/${n}`).join(", ")}) outside its tests`,
  severity: "error",
  from: { path, pathNot: testCode },
  to: { path: packages.slice(i + 1).map(([, p]) => `(${p})`).join("|") },
}));

const backend = "^runtime-backend/src/";
/** The backend's layers, bottom-up. Tests, test harnesses and benches sit above all of them. */
const layers = [["base", "log"], ["providers"], ["context"], ["store"], ["loop"], ["console"], ["server"], ["standalone"]];

const above = (i) => layers.slice(i + 1).flat();
const layerRules = layers.flatMap((names, i) =>
  above(i).length === 0
    ? []
    : [
        {
          name: `backend-layer-${names.join("-")}`,
          comment: `${names.join(", ")} may not import a higher layer (${above(i).join(", ")}) nor the test harnesses`,
          severity: "error",
          from: { path: `${backend}(${names.join("|")})/`, pathNot: "\\.test\\.ts$" },
          to: { path: `${backend}(${[...above(i), "testing", "e2e", "faults"].join("|")})/` },
        },
      ],
);

/**
 * The in-page code runs in a page, bundled alone (scripts/gen-in-page.ts): it may import only
 * itself, never Node-side engine code, another package or a Node built-in.
 */
const inPage = "^sdk/src/engine/in-page/";
const inPageRule = {
  name: "in-page-imports-in-page",
  comment: "sdk/src/engine/in-page/ runs in the page and may import only sdk/src/engine/in-page/",
  severity: "error",
  from: { path: inPage, pathNot: testCode },
  to: { pathNot: inPage },
};

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules form layers a reader can follow bottom-up; a cycle, even through a type, means one of them is in the wrong layer.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...packageRules,
    ...layerRules,
    inPageRule,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|gen/src|\\.data)/" },
  },
};
