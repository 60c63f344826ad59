/**
 * In-page code is written as real functions, so tsc checks them, and sent to the page as their
 * source (`fn.toString()`), as Playwright and chrome-devtools-mcp do. Such a function runs in
 * another realm: it may use only its parameters, `this` and the page's globals, never anything
 * from its module. They live in `in-page/` (typechecked with DOM types only); the larger in-page
 * scripts there are bundled instead (`gen/in-page-source.ts`). The integration tests run every
 * one of them in Chromium.
 */

/** A function to run in the page. */
// biome-ignore lint/suspicious/noExplicitAny: a page function's parameters are whatever it declares.
export type PageFunction = (this: any, ...args: any[]) => unknown;

/**
 * A transpiler that keeps function names (tsx, esbuild's `keepNames`) wraps inner functions in
 * calls to its `__name` helper, which does not exist in the page; this stands in for it.
 */
const nameShim = "var __name = (f) => f;";

/** The source of a page function, checked to be a function expression the page can evaluate. */
export function sourceOf(fn: PageFunction): string {
  const src = fn.toString();
  if (!/^(async\s+)?(function\b|\(|[A-Za-z_$][\w$]*\s*=>)/.test(src)) {
    throw new Error(`not a function expression: ${src.slice(0, 40)}`);
  }
  return src;
}

/** `fn` as a `Runtime.callFunctionOn` function declaration (`this` is the object it is called on). */
export function declaration(fn: PageFunction): string {
  const src = sourceOf(fn);
  return src.includes("__name(") ? `function(...args) { ${nameShim} return (${src}).apply(this, args); }` : src;
}

/** An argument of `invocation`: JSON data, or a page function passed by its source. */
export type PageArgument = PageFunction | string | number | boolean | null | readonly unknown[] | { readonly [key: string]: unknown };

/**
 * An expression that calls `fn` with `args` (JSON values, or page functions inlined by their
 * source), for `Runtime.evaluate` and for scripts injected by an extension.
 */
export function invocation(fn: PageFunction, ...args: PageArgument[]): string {
  const parts = [sourceOf(fn), ...args.map((a) => (typeof a === "function" ? sourceOf(a) : ""))];
  const call = `(${parts[0]})(${args.map((a, i) => (typeof a === "function" ? parts[i + 1] : JSON.stringify(a))).join(", ")})`;
  return parts.some((p) => p.includes("__name(")) ? `(() => { ${nameShim} return ${call}; })()` : call;
}
