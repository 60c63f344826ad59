/**
 * Checked by `npm test` (`npm run check:layers`): no import cycle anywhere in the tree, type-only
 * imports included (`tsPreCompilationDeps`): a type that points up is a type in the wrong layer;
 * and the backend's folders form layers, each importing only those below it (README "Layout").
 */
const backend = "^runtime-backend/src/";
/** The backend's layers, bottom-up. Tests, test harnesses and benches sit above all of them. */
const layers = [["base", "log"], ["providers"], ["context"], ["store"], ["loop"], ["server", "standalone"], ["cli", "mcp"]];

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

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules form layers a reader can follow bottom-up; a cycle, even through a type, means one of them is in the wrong layer.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...layerRules,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|gen/src|\\.data)/" },
  },
};
