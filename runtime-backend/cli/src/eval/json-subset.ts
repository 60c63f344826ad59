function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 120 ? `${s.slice(0, 119)}…` : s;
}

/**
 * Where `actual` does not contain `expected`, as "cart.lines[0].qty: expected 3, got 1";
 * undefined when it does. Objects match when every expected key matches (others may exist);
 * arrays when they have the same length and match item by item; anything else by equality.
 */
export function subsetMismatch(actual: unknown, expected: unknown, path = ""): string | undefined {
  const at = path || "(root)";
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected a list, got ${show(actual)}`;
    if (actual.length !== expected.length) return `${at}: expected ${expected.length} item(s), got ${actual.length}: ${show(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const m = subsetMismatch(actual[i], expected[i], `${path}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  if (typeof expected === "object" && expected !== null) {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual)) return `${at}: expected an object, got ${show(actual)}`;
    for (const [k, v] of Object.entries(expected)) {
      const m = subsetMismatch((actual as Record<string, unknown>)[k], v, path ? `${path}.${k}` : k);
      if (m) return m;
    }
    return undefined;
  }
  return Object.is(actual, expected) ? undefined : `${at}: expected ${show(expected)}, got ${show(actual)}`;
}
