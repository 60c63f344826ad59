import type { ContextState } from "../context/state.js";

/**
 * A session's folded context is stored in two parts, so a model turn does not rewrite it
 * whole: the session row's `context` holds everything but the micro summaries (goal, macro
 * summaries, latest interaction, user messages: small and bounded), and `context_lines` holds
 * the micro summaries, one row each, numbered by `seq`. The row's `context_from` is the seq
 * of the first live line; lines below it are deleted. A turn appends its new summary line and
 * moves `context_from` past the lines it dropped (a fold, or the budget trimming the oldest)
 * instead of rewriting kilobytes of JSON that the store then parses and stores again.
 */

/** The session row's `context` text: the context without its micro summaries. */
export function contextRowJson(c: ContextState): string {
  return JSON.stringify({ ...c, micro: undefined });
}

/** How a turn changes a session's stored micro summaries. */
export interface MicroDelta {
  /** The new `context_from`: seq of the first live line. */
  readonly from: number;
  /** Lines to insert (their seqs are above every stored line). */
  readonly lines: readonly { readonly seq: number; readonly line: string }[];
  /** True when lines below `from` must be deleted. */
  readonly trim: boolean;
}

/**
 * The delta from the stored lines (`prev`, starting at seq `prevFrom`) to `next`. The stored
 * lines that stay are the longest suffix of `prev` that `next` starts with; everything after
 * it in `next` is new and numbered from the end of `prev`, so new seqs never meet stored ones.
 * Any change that is not "drop from the front, append at the back" keeps no old line (all of
 * `next` is inserted): always correct, only less compact.
 */
export function microDelta(prevFrom: number, prev: readonly string[], next: readonly string[]): MicroDelta {
  let k = 0;
  for (; k < prev.length; k++) {
    const keep = prev.length - k;
    if (keep > next.length) continue;
    let same = true;
    for (let i = 0; i < keep && same; i++) same = prev[k + i] === next[i];
    if (same) break;
  }
  const kept = prev.length - k;
  const base = prevFrom + prev.length;
  return {
    from: prevFrom + k,
    lines: next.slice(kept).map((line, i) => ({ seq: base + i, line })),
    trim: k > 0,
  };
}

/** SQL for a session's live micro summaries as a JSON array, `alias` naming the sessions row. */
export function microLinesSql(alias: string): string {
  return `(select coalesce(json_agg(l.line order by l.seq), '[]'::json) from context_lines l where l.session_id = ${alias}.id and l.seq >= ${alias}.context_from)`;
}
