import type { ScreenMask } from "../contract/index.js";
import { maskText, type Secret } from "./secrets.js";
import { parseTotpSeed } from "./totp-seed.js";

/**
 * A {@link ScreenMask} for a screenshot taken outside a run's secrets layer (the final page an
 * eval report shows): it paints every value, a TOTP secret's seed, and the codes its seed gave
 * over the last `periods` periods before `at` (the layer itself masks exactly the codes it typed).
 */
export function secretsScreenMask(secrets: readonly Secret[], o: { at?: number; periods?: number } = {}): ScreenMask {
  const at = o.at ?? Date.now();
  const list: Secret[] = [...secrets];
  for (const s of secrets) {
    if (s.kind !== "totp" || !s.code) continue;
    const seed = parseTotpSeed(s.value);
    for (let i = 0; i <= (o.periods ?? 20); i++) list.push({ name: s.name, value: s.code(at - i * seed.period * 1000) });
  }
  return { shows: (text) => maskText(text, list) !== text, painted: () => undefined };
}
