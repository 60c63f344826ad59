import { countTokens as count } from "gpt-tokenizer";

/** Tokens of a text with the o200k tokenizer (the GPT-4o/GPT-5 family). */
export function countTokens(text: string): number {
  return count(text);
}

/** Token counts of single lines (with their newline), kept across turns. */
const lineTokens = new Map<string, number>();
/** Token counts of bullet lines ("- " + item + newline), keyed by the item: the same string objects turn after turn. */
const bulletTokens = new Map<string, number>();
const maxCachedLines = 50_000;

function cached(cache: Map<string, number>, key: string, text: () => string): number {
  let n = cache.get(key);
  if (n === undefined) {
    n = count(text());
    if (cache.size >= maxCachedLines) cache.clear();
    cache.set(key, n);
  }
  return n;
}

/**
 * A text's tokens as the sum of its lines' counts (each with its "\n"), from counts cached
 * across turns: a context repeats most of its lines from one turn to the next. The o200k
 * pre-tokenizer never joins a line's newline with the next line unless that line is empty or
 * starts with whitespace or "/" (punctuation takes a run of `[\r\n/]` after it), so the sum
 * is exact except at such "loose" boundaries, each of which may move it by a little.
 */
export class LineTally {
  /** Sum of the lines' counts. */
  sum = 0;
  /** Boundaries where the whole text may tokenize differently from its lines. */
  loose = 0;
  private lines = 0;

  /** Adds a line (no "\n" inside), followed by "\n" unless `last`. */
  line(text: string, last = false): void {
    if (this.lines++ > 0 && (text === "" || /^[\s/]/.test(text))) this.loose++;
    this.sum += last ? count(text) : cached(lineTokens, text, () => `${text}\n`);
  }

  /** Adds the line "- " + `item` + "\n" (never loose), cached by the item itself. */
  bullet(item: string): void {
    if (item.includes("\n")) return this.text(`- ${item}`);
    this.lines++;
    this.sum += cached(bulletTokens, item, () => `- ${item}\n`);
  }

  /** Adds a text that may span lines, followed by "\n". */
  text(text: string): void {
    for (const l of text.split("\n")) this.line(l);
  }

  /**
   * True when the tallied text has more than `limit` tokens. Only a sum within the loose
   * boundaries' margin of the limit is settled by tokenizing the whole text (`whole`). (A
   * context kept at its budget lands within a few tokens of the limit on most turns, so an
   * exact sum matters: counting a budget-sized context whole costs milliseconds.)
   */
  exceeds(limit: number, whole: () => string): boolean {
    const margin = 2 * this.loose;
    if (this.sum > limit + margin) return true;
    if (this.sum < limit - margin) return false;
    return count(whole()) > limit;
  }
}
