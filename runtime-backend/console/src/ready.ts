/**
 * The console's "interactive" moment: the first page a visitor lands on has rendered with its
 * data and its handlers attached. `npm run bench:console` reads the `baton:interactive` mark.
 */
let marked = false;

/** Marks the console interactive, once per page load. */
export function markInteractive(): void {
  if (marked) return;
  marked = true;
  performance.mark("baton:interactive");
}
