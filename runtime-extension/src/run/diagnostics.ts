/**
 * Runtime diagnostics: counts and latencies per provider and per phase, with the
 * latency of successful events as the headline (failed ones are counted, not averaged: they
 * are noisy and unrepresentative). Collected only when the user turns diagnostics on.
 */

/** Counts and the latest successful latencies of one provider's phase. */
export interface PhaseStats {
  count: number;
  ok: number;
  /** Latencies of successful events, the most recent last (at most `keep`). */
  okMs: number[];
}

/** Everything collected: provider → phase → stats. */
export type DiagnosticsData = Record<string, Record<string, PhaseStats>>;

/** One row of the diagnostics table. */
export interface DiagnosticsRow {
  readonly provider: string;
  readonly phase: string;
  readonly count: number;
  readonly ok: number;
  /** Success-only latency percentiles and mean, in ms (undefined without a success). */
  readonly p50?: number;
  readonly p95?: number;
  readonly mean?: number;
}

const keep = 200;

/** Adds one event. */
export function record(data: DiagnosticsData, provider: string, phase: string, ms: number, ok: boolean): void {
  const byPhase = (data[provider] ??= {});
  const s = (byPhase[phase] ??= { count: 0, ok: 0, okMs: [] });
  s.count++;
  if (ok) {
    s.ok++;
    s.okMs.push(Math.round(ms));
    if (s.okMs.length > keep) s.okMs.splice(0, s.okMs.length - keep);
  }
}

function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The table: one row per provider and phase, busiest first within a provider. */
export function rows(data: DiagnosticsData): DiagnosticsRow[] {
  const out: DiagnosticsRow[] = [];
  for (const provider of Object.keys(data).sort()) {
    const phases = data[provider] ?? {};
    for (const phase of Object.keys(phases).sort((a, b) => (phases[b]?.count ?? 0) - (phases[a]?.count ?? 0) || a.localeCompare(b))) {
      const s = phases[phase];
      if (!s) continue;
      const sorted = [...s.okMs].sort((a, b) => a - b);
      const p50 = percentile(sorted, 50);
      const p95 = percentile(sorted, 95);
      out.push({
        provider,
        phase,
        count: s.count,
        ok: s.ok,
        ...(p50 !== undefined ? { p50 } : {}),
        ...(p95 !== undefined ? { p95 } : {}),
        ...(sorted.length ? { mean: Math.round(sorted.reduce((a, b) => a + b, 0) / sorted.length) } : {}),
      });
    }
  }
  return out;
}

/** The provider part of "provider:model" ("script", "openai", …). */
export function providerOf(model: string): string {
  const at = model.indexOf(":");
  return at > 0 ? model.slice(0, at) : model || "default";
}
