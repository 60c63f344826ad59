/**
 * `npm test` fails on an import cycle anywhere in the tree, type-only imports included
 * (`tsPreCompilationDeps`): a type that points up is a type in the wrong layer. Run it alone
 * with `npm run check:cycles`.
 */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules form layers a reader can follow bottom-up; a cycle, even through a type, means one of them is in the wrong layer.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|gen/src|\\.data)/" },
  },
};
