/** Edit distance, for "did you mean" hints. Bounded inputs only (names, not payloads). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/**
 * The candidate closest to `input`, if it is close enough to be a plausible typo (or one
 * contains the other). Inputs longer than 64 characters are not compared.
 */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  if (input.length === 0 || input.length > 64) {
    return undefined;
  }
  const needle = input.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const hay = name.toLowerCase();
    const contains = Math.min(hay.length, needle.length) >= 3 && (hay.includes(needle) || needle.includes(hay));
    const d = contains ? 1 : distance(needle, hay);
    if (!best || d < best.d) {
      best = { name, d };
    }
  }
  return best && best.d <= Math.max(1, Math.ceil(best.name.length / 3)) ? best.name : undefined;
}
