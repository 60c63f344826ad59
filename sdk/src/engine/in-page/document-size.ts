/**
 * The page function that measures a document for the viewport-first read (`read/ax-read.ts`); the engine
 * sends it by its source (`base/page-function.ts`), so it uses nothing from outside its body.
 */

/** Element count and content/viewport area (runs in the page). */
export function documentSizeInPage(): [number, number] {
  const d = document.documentElement;
  const v = Math.max(1, innerWidth * innerHeight);
  return [document.getElementsByTagName("*").length, d ? (d.scrollWidth * d.scrollHeight) / v : 1];
}
