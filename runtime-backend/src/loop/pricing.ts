import type { ModelUsage } from "../providers/types.js";

/** US dollars per million tokens: input, cached input, output. */
export type Price = readonly [input: number, cached: number, output: number];

/**
 * List prices of common models, for the per-session cost estimate. Unknown models cost 0;
 * pass your own table to the agent for exact accounting.
 */
export const defaultPrices: Readonly<Record<string, Price>> = {
  "gpt-4o": [2.5, 1.25, 10],
  "gpt-4o-mini": [0.15, 0.075, 0.6],
  "gpt-4.1": [2, 0.5, 8],
  "gpt-4.1-mini": [0.4, 0.1, 1.6],
  "gpt-5": [1.25, 0.125, 10],
  "gpt-5-mini": [0.25, 0.025, 2],
  "gpt-5-nano": [0.05, 0.005, 0.4],
  "gemini-2.5-pro": [1.25, 0.31, 10],
  "gemini-2.5-flash": [0.3, 0.075, 2.5],
  "gemini-2.5-flash-lite": [0.1, 0.025, 0.4],
  "claude-sonnet-5-5": [2, 0.1, 10],
  "claude-sonnet-5": [2, 0.2, 10],
  "claude-sonnet-4-6": [3, 0.3, 15],
  "claude-sonnet-4-5": [3, 0.3, 15],
  "claude-haiku-5-5": [0.1, 0.01, 0.5],
  "claude-haiku-4-5": [1, 0.1, 5],
  "claude-opus-5": [5, 0.5, 25],
  "claude-opus-4-8": [5, 0.5, 25],
  "claude-opus-4-7": [5, 0.5, 25],
  "claude-opus-4-6": [5, 0.5, 25],
  "claude-opus-4-5": [5, 0.5, 25],
};

/**
 * The price of a model: an exact entry, else the longest entry the name starts with followed
 * by "-" (so "gpt-4o-2024-08-06" is priced as "gpt-4o", and "gpt-4o-mini" is not).
 */
export function priceOf(model: string, prices: Readonly<Record<string, Price>> = defaultPrices): Price | undefined {
  let known = resolved.get(prices);
  if (!known) resolved.set(prices, (known = new Map()));
  if (known.has(model)) return known.get(model);
  const p = lookUp(model, prices);
  if (known.size >= 10_000) known.clear();
  known.set(model, p);
  return p;
}

// Each model's price, once found per table (a turn asks for it every time).
const resolved = new WeakMap<object, Map<string, Price | undefined>>();

function lookUp(model: string, prices: Readonly<Record<string, Price>>): Price | undefined {
  const bare = model.replace(/^models\//, "");
  if (prices[bare]) return prices[bare];
  let best: string | undefined;
  for (const name of Object.keys(prices)) {
    if (bare.startsWith(`${name}-`) && (!best || name.length > best.length)) best = name;
  }
  return best ? prices[best] : undefined;
}

/** Estimated cost of one call; cached tokens are billed at the cached rate. */
export function costOf(model: string, u: ModelUsage, prices: Readonly<Record<string, Price>> = defaultPrices): number {
  const p = priceOf(model, prices);
  if (!p) return 0;
  const fresh = Math.max(0, u.input - u.cached);
  return (fresh * p[0] + u.cached * p[1] + u.output * p[2]) / 1_000_000;
}
