/** What each micro-app renders and how it reports its timings (on `window.__bench`). */

/** One timeline entry. */
export interface Entry {
  readonly id: number;
  readonly text: string;
  readonly state: "done" | "running";
  readonly ms: number;
}

/** 300 entries, as a long run's timeline. */
export const entries: readonly Entry[] = Array.from({ length: 300 }, (_, i) => ({
  id: i,
  text: ["Reading the page", "Clicking 'Add to cart'", "Typing into 'Email'"][i % 3] as string,
  state: "done",
  ms: 20 + ((i * 37) % 400),
}));

/** Mounts, then appends the entries one by one with a forced layout after each, and records the times. */
export function report(mount: () => void, update: (items: readonly Entry[]) => void, all: readonly Entry[]): void {
  const t0 = performance.now();
  mount();
  const mountMs = performance.now() - t0;
  const t1 = performance.now();
  for (let n = 1; n <= all.length; n++) {
    update(all.slice(0, n));
    void document.body.offsetHeight;
  }
  const appendMs = performance.now() - t1;
  const count = document.querySelectorAll("li").length;
  (window as { __bench?: unknown }).__bench = { mountMs, appendMs, count, sinceNavigationMs: t0 };
}
